"""Simulated handsets: the firmware's own handset core, over a real MQTT connection each.

Used by ``quizbox handset-sim``, the demo, the tests and the benches. A simulated handset is either a
seeded bot that plays legal random inputs (``firmware.core.bot.choose``) or driven by a test through
:meth:`SimHandset.submit` and the waiting helpers.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from appliance.edge.accounts import client_id, private_client_id
from appliance.edge.mqtt import Availability, Client, Connection
from firmware import protocol
from firmware.core import bot
from firmware.core.handset import Handset

log = logging.getLogger(__name__)

Chooser = Callable[[dict[str, Any] | None, random.Random], dict[str, Any] | None]
"""A bot's input for a prompt (``firmware.core.bot.choose``: legal random inputs)."""


class _Transport:
    """The firmware core's transport interface over an appliance MQTT client."""

    def __init__(self) -> None:
        self.client: Client | None = None

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        if self.client is not None:
            self.client.publish(topic, payload, retain=retain)

    def subscribe(self, topic: str) -> None:
        if self.client is not None:
            self.client.subscribe([topic])


class SimHandset:
    """One simulated handset; a context manager. ``bot_seed`` set: it plays by itself."""

    def __init__(
        self,
        box: str,
        handset_id: str,
        connection: Connection,
        name: str | None = None,
        bot_seed: int | None = None,
        think: tuple[float, float] = (0.2, 1.0),
        layout: str = protocol.LAYOUT_KEYPAD,
        chooser: Chooser | None = None,
    ) -> None:
        self.box = box
        self.chooser: Chooser = chooser or bot.choose  # the demo's people (appliance.box.demo_bots)
        self.id = handset_id
        self.rng = random.Random(bot_seed) if bot_seed is not None else None
        self.think = think
        self.changed = threading.Condition()
        self.prompts: list[dict[str, Any]] = []
        self.acks: list[dict[str, Any]] = []
        self._transport = _Transport()
        self.core = Handset(box, handset_id, self._transport, layout=layout, clock_ms=_ms, name=name)
        # with an account: the client id a real handset derives from its password (the broker binds the
        # account to it); else one nobody can guess (docs/security.md)
        own = connection.username and connection.password
        self.client = Client(
            client_id=client_id(connection.username, connection.password) if own
            else private_client_id(f"sim-{box}-{handset_id}"),
            connection=connection,
            on_message=self._message,
            availability=Availability(protocol.status_topic(box, handset_id)),
            on_connect=self._connected,
        )
        self._transport.client = self.client
        self._timer: threading.Timer | None = None

    # -- lifecycle ------------------------------------------------------------------------------------

    def start(self, wait: float = 10.0) -> SimHandset:
        self.client.start(wait=wait)
        self._ticking = threading.Event()
        ticker = threading.Thread(target=self._tick, name=f"tick-{self.id}", daemon=True)
        ticker.start()
        return self

    def _tick(self) -> None:
        """The firmware's main-loop tick: an unacked input is sent again (RESEND_MS) as on a device."""
        while not self._ticking.wait(1.0):
            with self.changed:
                self.core.tick()

    def stop(self, clean: bool = True) -> None:
        if hasattr(self, "_ticking"):
            self._ticking.set()
        if self._timer is not None:
            self._timer.cancel()
        self.client.stop(clean=clean)

    def drop(self) -> None:
        """Lose the connection without a goodbye (the broker publishes the last will)."""
        sock = self.client.paho.socket()
        if sock is not None:
            sock.close()

    def __enter__(self) -> SimHandset:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _connected(self) -> None:
        self.core.connected()

    def box_answering(self) -> bool:
        """What a handset shows as "the box is not answering" when False: no heartbeat for a while (the
        firmware core's own watch, firmware/core/handset.py; False before the first heartbeat)."""
        with self.changed:
            return bool(self.core.box_answering())

    def _message(self, topic: str, payload: bytes) -> None:
        with self.changed:
            self.core.on_message(topic, payload)
            try:
                obj = protocol.decode(payload)
            except protocol.ProtocolError:
                return
            if topic.endswith("/prompt"):
                self.prompts.append(obj)
                self._maybe_play()
            elif topic.endswith("/ack"):
                self.acks.append(obj)
            self.changed.notify_all()

    # -- bot -------------------------------------------------------------------------------------------

    def _maybe_play(self) -> None:
        prompt = self.core.prompt
        if self.rng is None or prompt is None or prompt.get("kind") == protocol.INFO:
            return
        if self._timer is not None:
            self._timer.cancel()
        delay = self.rng.uniform(*self.think)
        prompt_id = prompt["id"]
        self._timer = threading.Timer(delay, self._play, args=(prompt_id,))
        self._timer.daemon = True
        self._timer.start()

    def _play(self, prompt_id: str) -> None:
        with self.changed:
            prompt = self.core.prompt
            if prompt is None or prompt.get("id") != prompt_id or self.rng is None:
                return
            data = self.chooser(prompt, self.rng)
            if data is not None:
                try:
                    self.core.submit(data)
                except ValueError as exc:
                    log.warning("%s: bot made an input its prompt refuses: %s", self.id, exc)

    # -- test verbs -------------------------------------------------------------------------------------

    @property
    def prompt(self) -> dict[str, Any] | None:
        return self.core.prompt

    @property
    def seat(self) -> int | None:
        """Its team's seat number, as the box last told it (protocol 1.4's result ack)."""
        seat: int | None = self.core.seat
        return seat

    @property
    def result(self) -> dict[str, Any] | None:
        """Its seat's result and place after the last reveal (firmware.protocol.parse_result), or None."""
        result: dict[str, Any] | None = self.core.result
        return result

    def wait_result(self, timeout: float = 10.0) -> dict[str, Any]:
        """Block until the box told this handset a result (after a question's reveal)."""
        self.wait_for(lambda h: h.result is not None, timeout)
        assert self.result is not None
        return self.result

    def submit(self, data: dict[str, Any]) -> int:
        with self.changed:
            seq: int = self.core.submit(data)
            return seq

    def wait_for(self, predicate: Callable[[SimHandset], bool], timeout: float = 10.0) -> None:
        """Block until ``predicate(self)`` holds; TimeoutError naming the handset otherwise."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"handset {self.id}: condition not met in {timeout} s; prompt={self.prompt}")
                self.changed.wait(left)

    def wait_prompt(self, kind: str | None = None, timeout: float = 10.0) -> dict[str, Any]:
        self.wait_for(lambda h: h.prompt is not None and (kind is None or h.prompt.get("kind") == kind), timeout)
        assert self.prompt is not None
        return self.prompt

    def wait_ack(self, seq: int, timeout: float = 10.0) -> dict[str, Any]:
        self.wait_for(lambda h: any(a.get("seq") == seq for a in h.acks), timeout)
        return next(a for a in reversed(self.acks) if a.get("seq") == seq)


def _ms() -> int:
    return int(time.monotonic() * 1000)


def own_account(box: str, handset_id: str, name: str | None, host: str, port: int, state: Path,
                on_code: Callable[[str, str], None], stop: threading.Event | None = None) -> Connection:
    """A broker account of the simulated handset's own, as a real handset gets it (firmware.core.pairing):
    its secret is kept in ``state``; while the broker refuses it, it asks to be paired every few seconds
    and tells ``on_code(handset_id, code)`` the code the quizmaster types. Returns once it logs in."""
    import os

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from firmware.core import pairing

    state.mkdir(parents=True, exist_ok=True)
    pair = pairing.Pairing(box, handset_id, None, "", name, pairing.SecretFile(str(state / f"{handset_id}.secret")))
    told = False
    while stop is None or not stop.is_set():
        answer: list[int] = []
        probe = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=pair.client_id())
        probe.username_pw_set(pair.username, pair.password)
        probe.on_connect = lambda c, u, f, rc, p, answer=answer: answer.append(rc.value)
        try:
            probe.connect(host, port, 15)
            probe.loop_start()
            deadline = time.monotonic() + 5
            while not answer and time.monotonic() < deadline:
                time.sleep(0.02)
        finally:
            probe.disconnect()
            probe.loop_stop()
        if answer == [0]:
            return Connection(host, port, pair.username, pair.password)
        if not answer or answer[0] not in pairing.REFUSED:
            raise ConnectionError(f"{handset_id}: the broker at {host}:{port} said {answer or 'nothing'}")
        asking = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=pairing.pairing_client_id(os.urandom))
        asking.username_pw_set(pairing.PAIRING_USER, pairing.PAIRING_PASSWORD)
        try:  # the box's pairing broker (docs/protocol.md section 2); a box without one: its own port
            asking.connect(host, port + pairing.PAIRING_PORT_OFFSET, 15)
        except ConnectionRefusedError:
            asking.connect(host, port, 15)
        asking.loop_start()
        asking.publish(pair.topic, pair.request(), qos=1).wait_for_publish(5)
        asking.disconnect()
        asking.loop_stop()
        if not told:
            on_code(handset_id, pair.code())
            told = True
        if stop is not None:
            stop.wait(pairing.RETRY_MS / 1000)
        else:
            time.sleep(pairing.RETRY_MS / 1000)
    raise ConnectionError(f"{handset_id}: stopped before it was paired")


def start_bots(
    box: str, connection: Connection, count: int, seed: int = 1, think: tuple[float, float] = (0.3, 1.5),
    accounts: Callable[[str, str], Connection] | None = None,
    chooser: Callable[[int], Chooser] | None = None,
) -> list[SimHandset]:
    """``count`` bots; with ``accounts`` (handset id, name -> its connection, e.g. :func:`own_account`)
    each logs in with an account of its own, as on an installed box; ``chooser(i)`` gives bot ``i`` its
    way of playing (default: random legal inputs)."""
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    made = [(f"sim{i + 1:02d}", names[i] if i < len(names) else f"Bot{i + 1}") for i in range(count)]
    connections = [connection] * count
    if accounts is not None and made:  # they all ask to be paired at once, as handsets switched on together
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(count) as pool:
            connections = list(pool.map(lambda m: accounts(*m), made))
    bots = []
    for i, ((handset_id, name), own) in enumerate(zip(made, connections, strict=True)):
        bots.append(SimHandset(box, handset_id, own, name=name, bot_seed=seed + i, think=think,
                               chooser=chooser(i) if chooser is not None else None).start())
    return bots
