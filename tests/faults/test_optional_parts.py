"""Only the rules may stop a game (issue 17): a TV that cannot open, buttons that cannot be wired and an
mDNS announcement that fails are reported on the admin page and by ``quizbox doctor`` and tried again,
while the game goes on from the handsets and the admin page's live view."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from appliance.edge.broker import MosquittoBroker
from appliance.infra.config import load_config
from tests.faults.checks import match_all, problems
from tests.faults.harness import Table, wait_until

SEED = 17
PASSWORD = "correct horse battery"


def board_part(table: Table) -> dict[str, Any]:
    part: dict[str, Any] = table.app.health().get("parts", {}).get("board", {})
    return part


def browser(table: Table, folder: Path) -> FlaskClient:
    """The admin page of ``table``'s box (the real app, its MQTT link to the real broker), logged in."""
    from tests.web.conftest import post
    from web import create_app
    from web.services import KEY

    config = load_config(str(table.app.config))
    app = create_app({"QUIZBOX_CONFIG": config, "INSTANCE_PATH": folder / "instance", "TESTING": True,
                      "PASSWORD_METHOD": "pbkdf2:sha256:1000", "COMMAND_TIMEOUT": 8})
    app.extensions[KEY].account.set_password(PASSWORD)
    client = app.test_client()
    assert post(client, "/login", {"password": PASSWORD}).status_code == 302
    return client


@pytest.fixture
def no_tv_table(tmp_path: Path, broker: MosquittoBroker) -> Iterator[Table]:
    table = Table(tmp_path, broker.port, SEED, "notv", display="kmsdrm")  # no kmsdrm here: the TV cannot open
    try:
        yield table
    finally:
        table.close()


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(150)
def test_a_box_whose_tv_cannot_open_plays_a_whole_game_from_the_handsets_and_the_browser(
    no_tv_table: Table, tmp_path: Path
) -> None:
    from tests.web.conftest import post

    table = no_tv_table
    wait_until(lambda: board_part(table).get("ok") is False, 15, "the board reported as failing")
    assert "kmsdrm" in board_part(table)["text"] and "trying again" in board_part(table)["text"]
    admin = browser(table, tmp_path)
    wait_until(lambda: "Box running" in admin.get("/live/").get_data(as_text=True), 10, "the page sees the box")
    page = admin.get("/live/").get_data(as_text=True)
    assert "TV board: no picture" in page and "the admin page&#39;s live view shows the game" in page

    nexts: list[str] = []

    def next_from_the_browser() -> None:
        response = post(admin, "/live/command", {"cmd": "next"}, page="/live/")
        assert response.status_code == 302
        nexts.append(admin.get("/live/").get_data(as_text=True))

    table.send_next = next_from_the_browser
    game_id = table.start_game("confident", {"target": 4}, 3)
    deadline = time.monotonic() + 90
    frames = 0
    while (game := table.app.last_game()) is not None and game.status == "running":
        assert time.monotonic() < deadline, f"the game did not finish: {table.observer.board}"
        assert table.app.alive(), f"quizbox run died without its TV: {table.app.tail()}"
        table.drive()
        if frames < 3:  # the browser's TV: the board drawn from the same public state
            image = admin.get("/live/board.png")
            assert image.status_code == 200 and image.data[:8] == b"\x89PNG\r\n\x1a\n"
            frames += 1
        time.sleep(0.05)
    table.settle()
    assert len(nexts) >= 3 and all("the box is not answering" not in n.lower() for n in nexts)
    done = table.app.last_game()
    assert done is not None and done.id == game_id and done.status == "finished"
    matches = match_all(done, table.players[:3])
    assert not problems(matches), problems(matches)
    assert sum(m.acked for m in matches) > 0
    results = admin.get("/live/").get_data(as_text=True)
    assert "Game over" in results
    assert table.app.alive() and table.app.crashes() == []
    assert table.app.log().count("no picture") >= 2  # tried again, and said so each time
    # the doctor reads the same report
    from appliance.box import doctor

    finding = doctor.check_parts(load_config(str(table.app.config)), doctor.Probes())
    assert not finding.ok and "TV board" in finding.wrong and "HDMI" in finding.fix


class RefusingPins:
    """A pin factory that cannot reach the GPIO chip (no /dev/gpiochip, the wrong board) until fixed."""

    def __init__(self) -> None:
        from gpiozero.pins.mock import MockFactory

        self.fixed = threading.Event()
        self.mock = MockFactory()
        self.tries = 0

    def __getattr__(self, name: str) -> Any:
        if not self.fixed.is_set():
            self.tries += 1
            raise OSError("cannot open /dev/gpiochip0: no such device")
        return getattr(self.mock, name)


@pytest.mark.mqtt
@pytest.mark.timeout(60)
def test_buttons_that_cannot_open_are_reported_and_tried_again_while_the_board_runs(
    tmp_path: Path, broker: MosquittoBroker
) -> None:
    from appliance.board import Board
    from appliance.box.tv import TV
    from appliance.edge.mqtt import Client, Connection
    from appliance.infra.config import GpioConfig
    from appliance.infra.health import Health
    from firmware import protocol

    health = Health(tmp_path)
    pins = RefusingPins()
    conn = Connection("127.0.0.1", broker.port)
    board = Board((640, 360), "headless")
    tv = TV("gpiobox", conn, board, lambda command: None, gpio=GpioConfig(enabled=True), pin_factory=pins,
            health=health, retry_seconds=0.2)
    with tv:
        wait_until(lambda: "gpio" in health.problems(), 5, "the buttons reported as failing")
        assert "gpiochip0" in health.problems()["gpio"]
        publisher = Client("gpio-pub", conn, lambda t, p: None).start()
        publisher.publish(protocol.board_topic("gpiobox"), json.dumps({"v": 1, "scene": "lobby"}), retain=True)
        assert tv.shown.wait(5)  # the TV shows the game meanwhile
        pins.fixed.set()
        wait_until(lambda: tv.host is not None, 10, "the buttons opened on a later try")
        assert "gpio" not in health.problems() and health.parts["gpio"].ok
        publisher.stop()
    assert pins.tries >= 1


def test_mdns_that_fails_is_reported_and_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from appliance.box.app import Appliance
    from appliance.edge import discovery
    from appliance.edge.broker import BrokerAddress
    from appliance.infra.config import BoxConfig, Config

    calls: list[int] = []
    real = discovery.advertise

    def flaky(box_id: str, broker_port: int, web_port: int | None, box_name: str = "") -> Any:
        calls.append(1)
        if len(calls) < 3:
            raise OSError("[Errno 19] No such device: no multicast interface")
        return real(box_id, broker_port, web_port, box_name, interfaces=["127.0.0.1"], addresses=lambda: ["127.0.0.1"])

    monkeypatch.setattr(discovery, "advertise", flaky)
    config = Config(box=BoxConfig(id="mdnsbox", data_dir=str(tmp_path)))
    with Appliance(config) as app:
        app.broker = type("B", (), {"address": BrokerAddress("127.0.0.1", 1883, "external")})()
        retry = app.advertise(first_retry=0.1)
        wait_until(lambda: "mdns" in app.health.problems() or retry.done.is_set(), 5, "a first try")
        assert "no multicast" in app.health.problems()["mdns"]
        assert retry.done.wait(10), "mDNS was not tried again"
        assert app.health.parts["mdns"].ok and "mdnsbox.local" in app.health.parts["mdns"].text
    assert len(calls) == 3
    saved = json.loads((tmp_path / "health.json").read_text())
    assert saved["parts"]["mdns"]["ok"] is True


@pytest.mark.mqtt
@pytest.mark.timeout(60)
def test_a_board_that_found_no_screen_looks_for_one_again(
    tmp_path: Path, broker: MosquittoBroker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``display = "auto"`` with no screen falls back to drawing for nobody: said, and looked at again."""
    from appliance.box.app import Appliance
    from appliance.infra.config import BoardConfig, BoxConfig, BrokerConfig, Config

    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")  # auto tries the console's screen first: none here
    config = Config(box=BoxConfig(id="autobox", data_dir=str(tmp_path)),
                    broker=BrokerConfig(host="127.0.0.1", port=broker.port),
                    board=BoardConfig(display="auto", width=640, height=360))
    said: list[str] = []
    with Appliance(config) as app:
        app.start()
        real = app.health.failing

        def recorded(part: str, text: str) -> None:
            said.append(text)
            real(part, text)

        monkeypatch.setattr(app.health, "failing", recorded)
        stop = threading.Event()
        threading.Timer(2.5, stop.set).start()
        began = time.monotonic()
        board = app.run_board(stop, first_retry=0.4, longest_retry=0.8)
        assert time.monotonic() - began < 4.5  # stops promptly
    assert board.driver == "dummy"
    looks = [t for t in said if t.startswith("no screen found")]
    assert len(looks) >= 3 and "looking for a screen again in" in looks[0], said
    saved = json.loads((tmp_path / "health.json").read_text())
    assert saved["parts"]["board"]["ok"] is False
