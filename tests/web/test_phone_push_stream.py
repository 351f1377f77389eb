"""The phones' push stream (web/push.py) on the real server (web.ServerThread, as ``quizbox web`` runs it):
a stream is answered only with its phone's token, carries one event per change of that phone's screen
(the new screen itself, whose form the server then takes with the page's cookie), holds no waitress
worker thread (more open streams than threads, and a page still answers), replaces an older stream of
the same phone, and is a connection like any other inside the per-address bound. A phone's buzz keeps
the page's press time between the prompt's arrival and now (web/phones.py)."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from appliance.infra.config import BoxConfig, Config
from appliance.infra.store import Store
from firmware import protocol
from tests.web.conftest import post
from tests.web.fakes import ClientFactory, FakeLink
from web import ServerThread, create_app
from web.phone import pushed_panel
from web.phones import PhoneHandset
from web.push import PUSH_PATH, push_token
from web.services import KEY, Services

THREADS = 2


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServerThread, Services, ClientFactory]]:
    clients = ClientFactory()
    config = Config(box=BoxConfig(id="pushtest", name="Push test", data_dir=str(tmp_path / "data")))
    with Store(tmp_path / "quizbox.db") as store:
        app: Flask = create_app({"QUIZBOX_CONFIG": config, "LINK": FakeLink(), "PHONE_FACTORY": clients,
                                 "STORE": store, "INSTANCE_PATH": tmp_path / "instance", "THREADS": THREADS,
                                 "CONNECTIONS_PER_ADDRESS": 12, "MAX_PHONES": 20, "PHONES_PER_ADDRESS": 20})
        server = ServerThread(app).start()
        try:
            yield server, app.extensions[KEY], clients
        finally:
            server.stop()


def _stream(port: int, handset_id: str, token: str, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    with contextlib.suppress(OSError):  # closed at once (beyond the address's share): it reads nothing
        sock.sendall(f"GET {PUSH_PATH}?phone={handset_id}&token={token} HTTP/1.1\r\nHost: box\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
    return sock


def _read_until(sock: socket.socket, marker: bytes, seconds: float = 5.0) -> bytes:
    data = b""
    deadline = time.monotonic() + seconds
    sock.settimeout(0.2)
    while marker not in data and time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:  # reset by the server
            break
        if not chunk:
            break
        data += chunk
    return data


def _events(data: bytes) -> int:
    return len(re.findall(rb"(?m)^data: \{.*\}$", data))


def _event(data: bytes) -> dict[str, object]:
    """The first event in ``data``, decoded."""
    line = re.search(rb"(?m)^data: (\{.*\})$", data)
    assert line is not None, data
    decoded = json.loads(line.group(1))
    assert isinstance(decoded, dict)
    return decoded


def _prompt(clients: ClientFactory, phone: PhoneHandset, prompt_id: str, kind: str = "info",
            armed: bool = True) -> None:
    prompt: dict[str, object] = {"v": 1, "id": prompt_id, "kind": kind, "title": "Q", "text": "?"}
    if kind == protocol.BUZZ:
        prompt["armed"] = armed
    clients.latest(phone.id).deliver(protocol.prompt_topic("pushtest", phone.id), json.dumps(prompt).encode())


def test_a_stream_needs_its_phones_token(served: tuple[ServerThread, Services, ClientFactory]) -> None:
    server, services, _ = served
    phone = services.phones.join("Ann", "127.0.0.1")
    for token in ("", "0" * 32, push_token("another secret", phone.id), services.push.token("phone-other") if
                  services.push else ""):
        sock = _stream(server.port, phone.id, token)
        reply = _read_until(sock, b"\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 403"), reply
        sock.close()
    assert services.push is not None and len(services.push) == 0


def test_each_change_of_the_phones_screen_is_one_event(served: tuple[ServerThread, Services, ClientFactory]) -> None:
    server, services, clients = served
    assert services.push is not None
    phone = services.phones.join("Ann", "127.0.0.1")
    phone.connect()
    sock = _stream(server.port, phone.id, services.push.token(phone.id))
    head = _read_until(sock, b"\ndata: ")
    assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head and b"retry: " in head
    assert _events(head) == 1  # the first: the page fetches its screen once, to catch up
    _prompt(clients, phone, "p1")
    assert _events(_read_until(sock, b"\n\n")) == 1
    _prompt(clients, phone, "p2")
    event = _event(_read_until(sock, b"\n\n"))
    assert isinstance(event["clock"], int) and event["clock"] > 0  # the web server's clock, in ms
    assert "panel" not in event  # no page of this phone has asked for a screen: its page fetches it
    sock.close()


def test_the_event_carries_the_new_screen_and_its_form_is_the_pages_own(
        served: tuple[ServerThread, Services, ClientFactory]) -> None:
    server, services, clients = served
    assert services.push is not None
    page = server.app.test_client()
    assert post(page, "/join", {"name": "Ann"}, page="/join").status_code == 302
    assert page.get("/phone/panel").status_code == 200  # the page's first fetch: the server knows its cookie now
    phone = next(p for p in services.phones._phones.values() if p.name == "Ann")  # noqa: SLF001
    sock = _stream(server.port, phone.id, services.push.token(phone.id))
    _read_until(sock, b"\n\n")
    prompt = {"v": 1, "id": "r1", "kind": protocol.RANGE, "title": "Q1", "text": "Legs on a spider?"}
    clients.latest(phone.id).deliver(protocol.prompt_topic("pushtest", phone.id), json.dumps(prompt).encode())
    event = _event(_read_until(sock, b"\n\n"))
    sock.close()
    panel = event["panel"]
    assert isinstance(panel, str) and 'data-prompt="r1"' in panel and "Legs on a spider?" in panel
    assert 'name="bottom"' in panel  # the range form, as /phone/panel renders it
    token = re.search(r'name="csrf_token" value="([^"]+)"', panel)
    assert token is not None
    # the pushed form is sent with the page's cookie and the token the event carried: the server takes it
    reply = page.post("/phone/answer", data={"csrf_token": token.group(1), "prompt": "r1", "bottom": "6",
                                             "top": "10"}, headers={"X-Requested-With": "fetch"})
    assert reply.status_code == 200, reply.get_data(as_text=True)[:300]
    sent = [json.loads(body) for topic, body, _ in clients.latest(phone.id).published if topic.endswith("/input")]
    assert [s["data"] for s in sent] == [{"bottom": "6", "top": "10"}]
    # the next screen pushed (its token reused, web/phone.py TOKEN_REUSE_SECONDS) is taken as well
    sock = _stream(server.port, phone.id, services.push.token(phone.id))
    _read_until(sock, b"\n\n")
    clients.latest(phone.id).deliver(protocol.prompt_topic("pushtest", phone.id),
                                     json.dumps({**prompt, "id": "r2", "text": "Legs on an ant?"}).encode())
    again = _event(_read_until(sock, b"\n\n"))
    sock.close()
    assert isinstance(again["panel"], str) and "Legs on an ant?" in again["panel"]
    second = re.search(r'name="csrf_token" value="([^"]+)"', again["panel"])
    assert second is not None
    reply = page.post("/phone/answer", data={"csrf_token": second.group(1), "prompt": "r2", "bottom": "5",
                                             "top": "7"}, headers={"X-Requested-With": "fetch"})
    assert reply.status_code == 200, reply.get_data(as_text=True)[:300]
    # and is refused without the cookie (a stranger who read the stream has the token only)
    stranger = server.app.test_client()
    refused = stranger.post("/phone/answer", data={"csrf_token": token.group(1), "prompt": "r1", "bottom": "1",
                                                   "top": "2"})
    assert refused.status_code in (302, 400)
    assert len([t for t, _, _ in clients.latest(phone.id).published if t.endswith("/input")]) == 2


def test_a_pushed_screen_is_the_screen_the_page_fetches(served: tuple[ServerThread, Services, ClientFactory]) -> None:
    """The push renders the panel in the app's context alone (web/phone.py pushed_panel): its URLs, its form
    and every line are what /phone/panel gives the same cookie, but for the CSRF token's signing time."""
    server, services, clients = served
    page = server.app.test_client()
    assert post(page, "/join", {"name": "Ann"}, page="/join").status_code == 302
    assert page.get("/phone/panel").status_code == 200
    phone = next(p for p in services.phones._phones.values() if p.name == "Ann")  # noqa: SLF001
    prompts = [{"v": 1, "id": "r1", "kind": protocol.RANGE, "title": "Q1", "text": "Legs on a spider?", "unit": "legs",
                "boosts": {"copy": ["2", "3"], "swap": ["2", "3"], "double": True},
                "private": {"score": 3, "boosts": ["copy", "swap", "double"]}},
               {"v": 1, "id": "b1", "kind": protocol.BUZZ, "title": "Q2", "text": "Buzz!", "armed": True}]
    for prompt in prompts:
        clients.latest(phone.id).deliver(protocol.prompt_topic("pushtest", phone.id), json.dumps(prompt).encode())
        pushed = pushed_panel(server.app, phone.id)
        fetched = page.get("/phone/panel").get_data(as_text=True)
        assert pushed is not None and f'data-prompt="{prompt["id"]}"' in pushed
        assert 'action="/phone/answer"' in pushed
        unsigned = re.compile(r'(name="csrf_token" value=")[^"]+"')
        assert unsigned.sub(r"\1", pushed) == unsigned.sub(r"\1", fetched)


def test_streams_hold_no_worker_thread(served: tuple[ServerThread, Services, ClientFactory]) -> None:
    server, services, _ = served
    assert services.push is not None
    phones = [services.phones.join(f"P{n}", "127.0.0.1") for n in range(THREADS * 4)]
    socks = [_stream(server.port, p.id, services.push.token(p.id), source="127.0.0.3") for p in phones]
    for sock in socks:
        assert _read_until(sock, b"\ndata: ").startswith(b"HTTP/1.1 200")
    assert len(services.push) == len(phones)
    with urllib.request.urlopen(server.url + "/join", timeout=5) as reply:  # noqa: S310 (our own server)
        assert reply.status == 200  # 8 streams open on 2 threads: a page still answers
    # the reaper counts a phone with an open stream as here, as if it polled
    assert all(services.phones.streaming(p.id) for p in phones)
    for sock in socks:
        sock.close()
    deadline = time.monotonic() + 5
    while len(services.push) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(services.push) == 0  # a closed stream is forgotten


def test_a_second_stream_of_a_phone_closes_the_first(served: tuple[ServerThread, Services, ClientFactory]) -> None:
    server, services, _ = served
    assert services.push is not None
    phone = services.phones.join("Ann", "127.0.0.1")
    first = _stream(server.port, phone.id, services.push.token(phone.id))
    _read_until(first, b"\ndata: ")
    second = _stream(server.port, phone.id, services.push.token(phone.id))
    _read_until(second, b"\ndata: ")
    first.settimeout(5)
    tail = b""
    while chunk := first.recv(4096):
        tail += chunk
    assert len(services.push) == 1  # the older one was closed by the server
    second.close()
    first.close()


def test_streams_count_in_the_per_address_bound(served: tuple[ServerThread, Services, ClientFactory]) -> None:
    server, services, _ = served
    assert services.push is not None
    phones = [services.phones.join(f"P{n}", "127.0.0.1") for n in range(14)]
    socks = [_stream(server.port, p.id, services.push.token(p.id), source="127.0.0.4") for p in phones]
    answered = [_read_until(s, b"\ndata: ", 2.0).startswith(b"HTTP/1.1 200") for s in socks]
    assert sum(answered) == 12  # CONNECTIONS_PER_ADDRESS: the 13th and 14th are closed at once
    for sock in socks:
        sock.close()


def test_a_buzz_keeps_the_pages_press_time_between_the_prompt_and_now(
        served: tuple[ServerThread, Services, ClientFactory]) -> None:
    _, services, clients = served
    now = [90_000]
    phone = services.phones.join("Ann", "127.0.0.1")
    phone.core.clock_ms = lambda: now[0]
    phone.connect()
    _prompt(clients, phone, "b1", protocol.BUZZ, armed=False)
    now[0] = 100_000
    _prompt(clients, phone, "b1", protocol.BUZZ)  # the same prompt, armed: "Buzz now!" from here
    assert phone.prompt_at == 100_000
    now[0] = 100_400
    assert phone.press_time(100_250) == 100_250  # the page's stamp of the tap
    assert phone.press_time(99_000) == 100_000  # never before "Buzz now!" reached the phone
    assert phone.press_time(200_000) == 100_400  # never after it arrived
    assert phone.press_time(None) == 100_400  # no stamp: when it arrived
    phone.submit("b1", {}, pressed=100_250)
    sent = json.loads(clients.latest(phone.id).published[-1][1])
    assert sent["data"] == {"pressed": 100_250}


def test_a_message_that_changes_nothing_on_screen_pushes_nothing(
        served: tuple[ServerThread, Services, ClientFactory]) -> None:
    """A clock ping (every handset gets them through a buzzer round) or a prompt sent again after a reconnect
    changed no screen, yet pushed one to every phone: 40 phones re-rendered for each ping."""
    _, services, clients = served
    pushed: list[str] = []
    phone = services.phones.join("Ann", "127.0.0.1")
    phone.connect()
    phone.on_change = pushed.append
    _prompt(clients, phone, "b1", protocol.BUZZ, armed=False)
    assert pushed == [phone.id]
    mqtt = clients.latest(phone.id)
    mqtt.deliver(protocol.time_topic("pushtest", phone.id), json.dumps(protocol.make_ping(1, 5000)).encode())
    assert any(t.endswith("/clock") for t, _, _ in mqtt.published)  # the ping was answered
    _prompt(clients, phone, "b1", protocol.BUZZ, armed=False)  # the same prompt again
    assert pushed == [phone.id]
    _prompt(clients, phone, "b1", protocol.BUZZ)  # armed: "Buzz now!"
    assert pushed == [phone.id, phone.id]
