"""One guest on the pub's Wi-Fi cannot hold the web server's connections (web/connections.py).

From the security audit: waitress served the admin page and every phone with at most 100 connections and
closed one only after 120 s of silence, so 100 half-sent requests from one address, a byte every few
seconds, made /join time out for everyone. These run the real server (web.ServerThread, the same server
``quizbox web`` runs) on a free loopback port; the guest connects from 127.0.0.2 (Linux answers the whole
of 127/8 on loopback), the phones from 127.0.0.1.
"""

from __future__ import annotations

import http.client
import logging
import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest
from flask import Flask

from web import ServerThread
from web.connections import ConnectionGuard

GUEST = "127.0.0.2"


@pytest.fixture
def server(app: Flask) -> Iterator[ServerThread]:
    running = ServerThread(app).start()
    try:
        yield running
    finally:
        running.stop()


def _answers(url: str, timeout: float) -> str:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:  # noqa: S310 (our own server)
            reply.read()
            return f"{reply.status} in {time.monotonic() - started:.2f} s"
    except OSError as exc:
        return f"no answer in {time.monotonic() - started:.2f} s ({exc!r})"


def _connect(port: int, source: str = GUEST) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))


def _closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (end of stream or a reset)."""
    before = sock.gettimeout()
    sock.settimeout(within)
    try:
        return sock.recv(1024, socket.MSG_PEEK) == b""
    except TimeoutError:
        return False
    except OSError:  # reset: closed while our bytes were unread
        return True
    finally:
        sock.settimeout(before)


def _half_request(sock: socket.socket) -> bool:
    """Send the first lines of a request that never ends; False when the server already closed it."""
    try:
        sock.sendall(b"GET /join HTTP/1.1\r\nHost: quizbox\r\n")
        return True
    except OSError:
        return False


def test_one_guest_holding_idle_half_requests_does_not_lock_out_the_phones(
        app: Flask, server: ServerThread) -> None:
    join = server.url + "/join"
    assert _answers(join, 5).startswith("200")
    limit = int(app.config["CONNECTION_LIMIT"])
    held: list[socket.socket] = []
    try:
        for _ in range(limit + 20):  # a few more than the total limit, all from the guest's one address
            try:
                sock = _connect(server.port)
            except OSError:
                break  # nothing more accepted
            held.append(sock)
            _half_request(sock)
        time.sleep(0.5)
        alive = [sock for sock in held if _half_request(sock) and not _closed_by_server(sock, 0.01)]
        # a phone on another address opens the join page
        answer = _answers(join, 5)
        assert answer.startswith("200"), (
            f"with {len(alive)} idle half-requests held by one guest, /join got {answer}")
        assert len(alive) <= int(app.config["CONNECTIONS_PER_ADDRESS"]), (
            f"one address holds {len(alive)} connections")
    finally:
        for sock in held:
            sock.close()


def test_connections_beyond_an_addresss_share_are_closed_at_once_and_logged_once_a_minute(
        app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    app.config["CONNECTIONS_PER_ADDRESS"] = 3
    running = ServerThread(app).start()
    held: list[socket.socket] = []
    caplog.set_level(logging.WARNING, logger="web.connections")
    try:
        held = [_connect(running.port) for _ in range(3)]
        for sock in held:
            assert _half_request(sock)
        assert not any(_closed_by_server(sock, 0.3) for sock in held), "the address's own share was closed"
        extra = [_connect(running.port) for _ in range(4)]
        held += extra
        assert all(_closed_by_server(sock, 2) for sock in extra), "a connection beyond the share stayed open"
        # another address is not counted with the guest's
        phone = _connect(running.port, "127.0.0.1")
        held.append(phone)
        phone.sendall(b"GET /join HTTP/1.1\r\nHost: quizbox\r\nConnection: close\r\n\r\n")
        phone.settimeout(5)
        assert phone.recv(64).startswith(b"HTTP/1.1 200"), "a phone on another address was refused"
        lines = [r.getMessage() for r in caplog.records if r.name == "web.connections"]
        assert len(lines) == 1 and GUEST in lines[0] and "CONNECTIONS_PER_ADDRESS" in lines[0], lines
    finally:
        for sock in held:
            sock.close()
        running.stop()


def test_a_request_whose_headers_trickle_in_is_closed_after_the_header_timeout(app: Flask) -> None:
    app.config["HEADER_TIMEOUT"] = 1.0
    running = ServerThread(app).start()
    slow = _connect(running.port)
    keep_alive = http.client.HTTPConnection("127.0.0.1", running.port, timeout=5, source_address=(GUEST, 0))
    try:
        # a phone's keep-alive connection: a whole request answered, then silence, stays open
        keep_alive.request("GET", "/join")
        first = keep_alive.getresponse()
        first.read()
        assert first.status == 200
        phone_socket = keep_alive.sock
        assert _half_request(slow)
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < 4:  # a byte every 0.2 s: waitress's channel_timeout never ends it
            try:
                slow.sendall(b"X")
            except OSError:
                closed = True
                break
            if _closed_by_server(slow, 0.2):
                closed = True
                break
        waited = time.monotonic() - started
        assert closed, "a request still sending its headers after 4 s was left open"
        assert waited >= 0.9, f"closed after {waited:.2f} s, before the 1 s header timeout"
        assert not _closed_by_server(phone_socket, 0.01), "the idle keep-alive connection was closed"
        keep_alive.request("GET", "/join")
        again = keep_alive.getresponse()
        again.read()
        assert again.status == 200 and keep_alive.sock is phone_socket
    finally:
        slow.close()
        keep_alive.close()
        running.stop()


def test_the_guard_logs_an_address_at_most_once_a_minute() -> None:
    now = [1000.0]
    guard = ConnectionGuard(16, 10.0, clock=lambda: now[0])
    assert guard.should_log("10.0.0.7", "per-address")
    assert not guard.should_log("10.0.0.7", "per-address")
    assert guard.should_log("10.0.0.8", "per-address")
    assert guard.should_log("10.0.0.7", "headers")
    now[0] += 59.0
    assert not guard.should_log("10.0.0.7", "per-address")
    now[0] += 1.0
    assert guard.should_log("10.0.0.7", "per-address")


@pytest.mark.parametrize(("per_address", "header_timeout"), [(0, 10.0), (16, 0.0)])
def test_a_bound_that_would_refuse_everyone_is_a_clear_error(per_address: int, header_timeout: float) -> None:
    with pytest.raises(ValueError, match="CONNECTIONS_PER_ADDRESS|HEADER_TIMEOUT"):
        ConnectionGuard(per_address, header_timeout)
