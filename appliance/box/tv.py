"""The TV: the board renderer fed from the retained public board state, like any other screen.

The board reads only what the broker publishes for everyone (it never sees a secret because the session
never publishes one), adds how phones join, and drives the host buttons' LED. The host buttons send the
same commands as the admin page.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from appliance.board import Board
from appliance.edge.accounts import private_client_id
from appliance.edge.mqtt import Client, Connection
from appliance.infra.health import Health, Retry
from firmware import protocol

log = logging.getLogger(__name__)

Command = Callable[[Mapping[str, Any]], Any]


def join_info(box_id: str, web_port: int, url: str = "", address: str = "") -> dict[str, str]:
    """How phones join, for the TV and the admin page's mirror alike: the box's mDNS name and the web
    port (the QR code's URL and the address to type), unless a box without mDNS names them."""
    host = f"{box_id}.local" if web_port == 80 else f"{box_id}.local:{web_port}"
    return {"url": url or f"http://{host}/join", "address": address or host}


class TV:
    """``with TV(box, connection, board, command) as tv: board.run(stop)``."""

    def __init__(
        self,
        box: str,
        connection: Connection,
        board: Board,
        command: Command,
        join: Mapping[str, str] | None = None,
        gpio: Any = None,
        pin_factory: Any = None,
        health: Health | None = None,
        retry_seconds: float = 5.0,
    ) -> None:
        self.board = board
        self.command = command
        self.join = dict(join or {})
        self.states = 0
        self._paused = False
        self.host: Any = None
        self._gpio, self._pin_factory = gpio, pin_factory
        self._last_state: dict[str, Any] | None = None
        self._retry: Retry | None = None
        if gpio is not None and gpio.enabled:
            if health is None:  # no one to report to: a wiring fault is the caller's to see
                self._open_host()
            else:  # an optional part: a fault is said on the admin page and tried again, the game goes on
                self._retry = Retry(health, "gpio", self._open_host, first=retry_seconds, longest=120.0)
        # a client id nobody can guess: a guest logging in with the public pairing account and a fixed id
        # made mosquitto drop the TV (issue 32; docs/security.md)
        self.client = Client(private_client_id(f"quizbox-{box}-tv"), connection, self._on_board,
                             subscriptions=[protocol.board_topic(box)])
        self.shown = threading.Event()

    def _open_host(self) -> str:
        from appliance.hardware.host import HostControls

        g = self._gpio
        host = HostControls(g.next_pin, g.pause_pin, g.led_pin, self.next, self.pause_toggle,
                            pin_factory=self._pin_factory)
        self.host = host
        if self._last_state is not None:
            host.show(host.state_for(self._last_state))
        return f"buttons on GPIO {g.next_pin} and {g.pause_pin}, lamp on GPIO {g.led_pin}"

    def start(self) -> TV:
        self.client.start()
        if self._retry is not None:
            self._retry.start()
        return self

    def stop(self) -> None:
        if self._retry is not None:
            self._retry.stop()
        self.client.stop()
        if self.host is not None:
            self.host.close()

    def __enter__(self) -> TV:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _on_board(self, topic: str, payload: bytes) -> None:
        try:
            state = json.loads(payload)
        except ValueError:
            log.warning("board state is not JSON; ignored")
            return
        if not isinstance(state, dict):
            return
        if self.join:
            state["join"] = self.join
        self._paused = bool(state.get("paused"))
        self.board.update(state)
        self.states += 1
        self.shown.set()
        self._last_state = state
        host = self.host
        if host is not None:
            host.show(host.state_for(state))

    # -- host buttons --------------------------------------------------------------------------------

    def next(self) -> None:
        self._send({"cmd": "next"})

    def pause_toggle(self) -> None:
        self._send({"cmd": "resume" if self._paused else "pause"})

    def _send(self, command: Mapping[str, Any]) -> None:
        try:
            self.command(command)
        except Exception as exc:  # a button press the game refuses (nothing to move on to) is not a crash
            log.info("host button: %s refused: %s", command.get("cmd"), exc)
