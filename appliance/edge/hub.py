"""The hub: the appliance's MQTT edge. It knows who is at the table, checks every payload, routes inputs
to the session, and publishes prompts, acks and the public board state. It never crashes on input.

Order of checks for an input (architecture.md): topic -> payload (size, JSON, protocol v1 shape, claimed
id) -> handset known and accepted -> duplicate (same seq and prompt: ack again, apply once) -> session
(current prompt, seated, the game's rules). Every refusal gets an error ack on the handset's ack topic
and one log line; nothing changes.
"""

from __future__ import annotations

import functools
import json
import logging
import secrets
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from appliance.edge import liveness, teams
from appliance.edge.accounts import private_client_id
from appliance.edge.clocksync import ClockSync
from appliance.edge.commands import AdminCommands
from appliance.edge.flood import COOL_OFF, FloodGuard
from appliance.edge.handsets import Handset, Registry
from appliance.edge.handsets import revision as handsets_revision
from appliance.edge.memory import settle_memory
from appliance.edge.mqtt import Availability, Client, Connection
from appliance.edge.outbox import Outbox
from appliance.edge.pairing import Pairing, PairingDesk
from appliance.edge.prompts import fit
from appliance.edge.refusals import code_of, screen_text
from appliance.edge.results import Results
from appliance.errors import QuizboxError
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store, StoreError
from appliance.session.session import Session
from firmware import protocol

log = logging.getLogger(__name__)

DeckProvider = Callable[[str, Mapping[str, Any]], Sequence[DealtCard]]

SWITCH_INTERVAL = 0.001
"""Seconds a Python thread runs before another may take the interpreter (Python's default: 5 ms). MQTT's
thread acks inputs while the publisher thread rebuilds prompts and the ticker pings clocks: with the
default an ack can wait 5 ms for the interpreter; the hub's process switches every 1 ms (issue 22)."""
TELEMETRY_STATE_EVERY = 0.25
"""Seconds: the admin state is republished for telemetry (battery, signal) at most this often."""
SWEEP_EVERY = 1.0
"""Seconds between looks for handsets silent too long (liveness.py: 90 s of silence). Each look is a walk
through the room; ten a second at 256 handsets were a quarter of a millisecond a bet could wait behind."""
STATUS_TTL = 30
"""Seconds the appliance's retained ``online`` lives unless the hub says it again (every 10 s): a box
that lost its power with its broker is ``online`` at most this long after the broker is back."""
STATE_EVERY = 0.02
STATE_BURST = 4
"""The board and the admin state after inputs: the first STATE_BURST at once, then, while inputs keep
coming, one every STATE_EVERY s (a token bucket; prompts and acks never wait). With 256 handsets a board
is 45 KB and the admin state 34 KB: 256 buzzes in a second made 20 MB of them for the TV and the admin
page, and their building held up the next buzzes' acks (issue 22). A few inputs still show on the board
the moment they are applied; 50 states a second is more than a TV shows a buzz order at."""


class Hub:
    def __init__(
        self,
        box: str,
        session: Session,
        connection: Connection,
        open_join: bool = True,
        clock: Callable[[], float] = time.monotonic,
        decks: DeckProvider | None = None,
        tick_interval: float = 0.1,
        store: Store | None = None,
        pairing: Pairing | None = None,
        flood: FloodGuard | None = None,
        status_ttl: int | None = None,
        pairing_at: tuple[str, int] | None = None,
    ) -> None:
        protocol.box_topic(box)  # validates the id
        self.box = box
        self._admin_topic = protocol.admin_command_topic(box)  # looked at for every message
        self._handset_prefix = protocol.box_topic(box, "handset") + "/"
        # a handset flooding its own topics is dropped unread and cut off (flood.py)
        self.flood = FloodGuard() if flood is None else flood
        self.session = session
        self.registry = Registry(open_join=open_join)
        self.store = store
        if store is not None:  # handsets accepted before a restart are still at the table
            for saved in store.handsets():
                handset, _ = self.registry.hello(saved["id"], saved["name"], clock())
                handset.online = False
                handset.accepted = saved["accepted"]
                teams.restore(self, handset, saved)  # a team's other device still plays for it (room-6)
        self.clock = clock
        self.decks = decks
        self.pairing = pairing  # None: no broker accounts to manage (the demo's private broker)
        self.outbox = Outbox(self._deliver)  # the hub's lock; what is published under it goes out after it
        self.refused = 0  # inputs and payloads refused (for benches and tests)
        self.accepted = 0
        self._board_sent: str | None = None
        self._admin_sent: str | None = None
        self.results = Results()  # each seat's number, result and place for its handsets (results.py)
        self.admin = AdminCommands(self)  # the quizmaster's commands and their recent replies (commands.py)
        self._telemetry_due = False  # telemetry changed the admin state: the ticker publishes it
        self._players_json: tuple[Any, str] | None = None  # the board's players list and its JSON
        self._admin_handsets: tuple[Any, str] | None = None  # the handsets as the admin state lists them
        self._stop = threading.Event()
        self._tick_interval = tick_interval
        # Prompt ids on the wire are "<boot tag>-<session id>": the session counts from p1 again after a
        # restart, so without the tag an input re-sent from before a kill could answer a new prompt that
        # happens to reuse its id. An input naming another boot's tag is stale (docs/reliability.md).
        self.boot = secrets.token_hex(3)
        # a client id nobody can guess: a guest logging in with the public pairing account and the hub's
        # client id would make mosquitto drop the hub (docs/security.md)
        self.client = Client(
            client_id=private_client_id(f"quizbox-{box}-hub"),
            connection=connection,
            on_message=self.on_message,
            subscriptions=[
                protocol.handset_wildcard(box, "hello"),
                protocol.handset_wildcard(box, "status"),
                protocol.handset_wildcard(box, "telemetry"),
                protocol.handset_wildcard(box, "input"),
                protocol.handset_wildcard(box, "clock"),
                protocol.admin_command_topic(box),
            ],
            # the retained ``online`` expires unless said again: after a power cut the broker restored an
            # old ``online`` for a box that was down (issue 32; docs/protocol.md)
            # (``status_ttl``: STATUS_TTL on the box's mosquitto; None keeps MQTT 3.1.1, e.g. for amqtt)
            availability=Availability(protocol.appliance_status_topic(box), ttl=status_ttl),
            on_connect=self._on_connect,
        )
        self.clocks = ClockSync()
        # pairing requests come on a connection of their own, so a flood of them never delays the game; with
        # ``pairing_at`` (host, port) from the pairing broker, a mosquitto process of its own (issue 38)
        desk_host, desk_port = pairing_at or (connection.host, connection.port)
        self.desk = None if pairing is None else PairingDesk(
            box, pairing, desk_host, desk_port, connection.username, connection.password,
            on_change=self._pairing_changed, tls=connection.tls and pairing_at is None, ca_file=connection.ca_file)
        self._state_at = 0.0
        self._swept_at = float("-inf")
        self._state_tokens, self._tokens_at = float(STATE_BURST), time.monotonic()  # STATE_BURST's bucket
        self._state_due: float | None = None  # when the publisher sends a state it held back
        self._ticker = threading.Thread(target=self._tick_loop, name="hub-ticker", daemon=True)
        self._changes_due = threading.Event()  # inputs applied whose prompts and board are not out yet
        self._rebuild_due = False  # an input was applied: wake the publisher once its ack is handed over
        self._publisher = threading.Thread(target=self._publish_loop, name="hub-publisher", daemon=True)

    # -- lifecycle -------------------------------------------------------------------------------------

    def start(self, wait: float = 10.0) -> Hub:
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        settle_memory()
        self.client.start(wait=wait)
        if self.desk is not None:
            self.desk.start()
        self._ticker.start()
        self._publisher.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._changes_due.set()
        for thread in (self._ticker, self._publisher):
            if thread.is_alive():
                thread.join(timeout=2)
        if self.desk is not None:
            self.desk.stop()
        self.client.stop()

    def alive(self) -> bool:
        """The hub's clock thread runs (what systemd's watchdog is fed on)."""
        return self._ticker.is_alive()

    def __enter__(self) -> Hub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _on_connect(self) -> None:
        # After a (re)connect: the retained board again, and every online handset's current prompt,
        # since a prompt sent while we were away may have been lost.
        with self.outbox:
            self._board_sent = None
            self._admin_sent = None
            for handset in self.registry:
                if handset.online:
                    self.send_prompt(handset, fresh=True)
            self.publish_state()

    def _ms(self) -> int:
        """The appliance clock in ms (the session's clock: the buzzer compares the two)."""
        return round(self.clock() * 1000)

    def _tick_loop(self) -> None:
        while not self._stop.wait(self._tick_interval):
            try:
                with self.outbox:
                    online = [h.id for h in self.registry if h.online]
                    now = self.clock()
                    now_ms = round(now * 1000)
                    keep = getattr(self.client, "keep_status", None)  # a test's stand-in client has none
                    if keep is not None:
                        keep()
                    self.clocks.pace(self.session.times_presses, now_ms)  # pings every 1 s only for a buzzer
                    for handset_id, ping in self.clocks.due(now_ms, online):  # clock offsets (buzzer)
                        self.outbox.post(protocol.time_topic(self.box, handset_id), protocol.encode(ping), qos=0)
                    if now - self._swept_at >= SWEEP_EVERY:  # handsets silent too long: offline
                        self._swept_at = now
                        liveness.sweep(self)
                    since = now - self._state_at
                    if self.session.tick():
                        self.publish_changes()
                    elif since >= 1.0 or (self._telemetry_due and since >= TELEMETRY_STATE_EVERY):
                        self.publish_state()  # countdowns move once a second; telemetry a few times
            except Exception:
                log.exception("session tick failed")

    def _publish_loop(self) -> None:
        """After inputs: the prompts they touched and the board. MQTT's thread acks an input and goes on
        to the next message; this thread rebuilds what the inputs changed, all of those that came
        meanwhile in one pass (session.pending gathers whose prompt may have changed)."""
        while not self._stop.is_set():
            due = self._state_due
            woken = self._changes_due.wait(1.0 if due is None else max(0.0, due - time.monotonic()))
            if not woken and self._state_due is None:
                continue
            self._changes_due.clear()
            self._acks_written()
            try:
                with self.outbox:
                    # the prompts at once; the board and the admin state as STATE_BURST allows
                    wait = self._state_wait()
                    self.publish_changes(narrowed=True, state=wait == 0)
                    if wait:
                        self._state_due = time.monotonic() + wait
            except Exception:
                log.exception("publishing the changes of an input failed")

    def _state_wait(self) -> float:
        """0: the publisher may send the state now (taking a token); else the seconds until it may."""
        now = time.monotonic()
        self._state_tokens = min(float(STATE_BURST), self._state_tokens + (now - self._tokens_at) / STATE_EVERY)
        self._tokens_at = now
        if self._state_tokens >= 1:
            self._state_tokens -= 1
            return 0.0
        return (1 - self._state_tokens) * STATE_EVERY

    def _acks_written(self, most: float = 0.005) -> None:
        """Wait (at most ``most`` s, asleep: MQTT's thread gets the interpreter) until the client has
        written what is queued, the acks first: the rebuild after them must not hold them up."""
        wait = getattr(self.client, "wait_written", None)  # a test's stand-in client writes at once
        if wait is not None:
            wait(most)

    # -- inbound ---------------------------------------------------------------------------------------

    def on_message(self, topic: str, payload: bytes) -> None:
        """Entry point for every MQTT message (paho's thread); never raises."""
        received = self._ms()  # before waiting for the lock: a clock reply's arrival time
        if topic.startswith(self._handset_prefix):
            handset_id = topic[len(self._handset_prefix):].partition("/")[0]
            verdict = self.flood.allow(handset_id, time.monotonic())
            if verdict is not True:  # over its budget: dropped unread, the lock never taken
                if verdict is None:
                    self._cut_off(handset_id)
                return
        try:
            with self.outbox:  # what the message makes the hub publish (an ack) is handed to MQTT on leaving it
                self._route(topic, payload, received)
        except protocol.ProtocolError as exc:
            self.refused += 1
            log.warning("ignored message on %s: %s", topic[:120], exc)
        except Exception:
            self.refused += 1
            log.exception("hub failed on a message on %s", topic[:120])
        if self._rebuild_due:
            # The ack is on the wire before the publisher is woken: woken under the lock, it took the
            # interpreter while MQTT's thread handed the ack over, and rebuilt first (issue 22).
            write_now = getattr(self.client, "write_now", None)  # a test's stand-in client has none
            if write_now is not None:
                write_now()
            self._rebuild_due = False
            self._changes_due.set()

    def _cut_off(self, handset_id: str) -> None:
        """A handset started flooding: said on the admin page; with broker accounts, its account is
        disabled for a while (on a thread of its own: the broker's answer must not hold MQTT's thread)."""
        log.warning("handset %s floods the box: its messages are dropped unread; cut off for %.0f s",
                    handset_id[:40], COOL_OFF)
        if self.pairing is not None:
            threading.Thread(target=self.pairing.cut_off, args=(handset_id, COOL_OFF), name="hub-cut-off",
                             daemon=True).start()
        self.state_soon()

    def _route(self, topic: str, payload: bytes, received: int) -> None:
        if topic == self._admin_topic:
            self._admin(payload)
            return
        handset_id, leaf = protocol.parse_handset_topic(self.box, topic)
        if leaf == "clock":
            known = self.registry.get(handset_id)
            if known is not None and self._may_speak(handset_id):
                reply = protocol.parse_clock(handset_id, protocol.decode(payload))
                self.clocks.on_reply(handset_id, reply, received)
                liveness.heard(self, known)
            return
        handler = {
            "hello": self._hello,
            "status": self._status,
            "telemetry": self._telemetry,
            "input": self._input,
        }.get(leaf)
        if handler is not None:
            handler(handset_id, payload)

    def _hello(self, handset_id: str, payload: bytes) -> None:
        try:
            hello = protocol.parse_hello(handset_id, protocol.decode(payload))
        except protocol.ProtocolError as exc:
            self._refuse(handset_id, -1, str(exc), code=exc.code, about="hello")
            return
        if not self._may_speak(handset_id):
            # the ACL lets no one else publish there; answered anyway, so a maker sees why
            self._refuse(handset_id, -1, "not paired: ask the quizmaster", code="not_paired", about="hello")
            return
        handset, new = self.registry.hello(handset_id, hello["name"], self.clock())
        self.clocks.joined(handset_id, self._ms())
        if self.pairing is not None and not handset.accepted and self.pairing.accounts.has(handset_id):
            handset.accepted = True  # an account is made only when the quizmaster accepts
        handset.firmware = hello["fw"]
        handset.layout = hello["layout"]
        handset.keepalive = hello.get("keepalive", protocol.KEEPALIVE)
        handset.results = hello["results"]
        if new:
            self.save_handset(handset)
            state = "accepted" if handset.accepted else "pending"
            log.info("handset %s joined as %s (%s)", handset_id, handset.name, state)
        # a hello means the handset (re)started or reconnected: it needs its current prompt again
        self.send_prompt(handset, fresh=True)
        self.state_soon()

    def _status(self, handset_id: str, payload: bytes) -> None:
        handset = self.registry.get(handset_id)
        if handset is None:
            return  # a retained status of a handset we do not know (yet): its hello will follow
        text = payload.decode("utf-8", "replace").strip()
        if text not in (protocol.ONLINE, protocol.OFFLINE):
            self.refused += 1
            log.warning("bad status from %s: %r", handset_id, text[:20])
            return
        was_online, handset.online = handset.online, text == protocol.ONLINE
        handset.last_seen = self.clock()
        if handset.online and not was_online:
            # A handset that is connected but says no hello: after this appliance (re)started, its
            # retained "online" is all we hear of it (the firmware says hello only on its own
            # reconnect), and the prompt it shows is from before the restart: send the current one.
            self.send_prompt(handset, fresh=True)
        self.state_soon()

    def _telemetry(self, handset_id: str, payload: bytes) -> None:
        handset = self.registry.get(handset_id)
        if handset is None:
            return
        try:
            data = protocol.parse_telemetry(protocol.decode(payload))
        except protocol.ProtocolError as exc:
            self.refused += 1
            log.warning("bad telemetry from %s: %s", handset_id, exc)
            return
        handset.battery, handset.rssi = data["battery"], data["rssi"]
        handset.firmware, handset.layout = data["fw"] or handset.firmware, data["layout"]
        liveness.heard(self, handset)
        # the admin page's battery and signal: published by the ticker, at most every TELEMETRY_STATE_EVERY s,
        # so a flood of telemetry costs the hub no more than a state a few times a second
        self._telemetry_due = True

    def _input(self, handset_id: str, payload: bytes) -> None:
        try:
            raw = protocol.decode(payload)
        except protocol.ProtocolError as exc:
            self._refuse(handset_id, -1, str(exc), code=exc.code)
            return
        try:
            msg = protocol.parse_input(handset_id, raw)
        except protocol.ProtocolError as exc:
            seq, prompt = raw.get("seq"), raw.get("prompt")
            seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else -1
            prompt = prompt if isinstance(prompt, str) and 0 < len(prompt) <= protocol.MAX_ID else None
            self._refuse(handset_id, seq, str(exc), prompt, code=exc.code)  # the screen it was about, if readable
            return
        if not self._may_speak(handset_id):
            self._refuse(handset_id, msg["seq"], "not paired: ask the quizmaster", msg["prompt"], code="not_paired")
            return
        handset = self.registry.get(handset_id)
        if handset is None:
            self._refuse(handset_id, msg["seq"], "unknown handset: say hello again", msg["prompt"],
                         code="unknown_handset")
            return
        if not handset.accepted:
            self._refuse(handset_id, msg["seq"], "not accepted yet: ask the quizmaster", msg["prompt"],
                         code="not_accepted")
            return
        liveness.heard(self, handset)
        key = (msg["seq"], msg["prompt"])
        if key in handset.acks:  # a QoS 1 duplicate or a retry after reconnect: ack again, apply once
            self.outbox.post(_ack_topic(self.box, handset_id), handset.acks[key])
            return
        tag, local_id = protocol.split_prompt_id(msg["prompt"])
        if tag and tag != self.boot:  # answers a prompt sent before this appliance restarted
            self._refuse(handset_id, msg["seq"], "that screen is old; look again", msg["prompt"], code="stale")
            return
        data = msg["data"]
        if msg["kind"] == protocol.BUZZ:  # the press on the appliance clock (rules.md Buzzer 2)
            data = self.clocks.buzz_data(handset_id, data, msg["clock"], self._ms())
        try:
            message = self.session.handle_input(handset_id, local_id, msg["kind"], data,
                                                origin=(handset_id, msg["seq"], msg["prompt"]))
        except QuizboxError as exc:
            self._refuse(handset_id, msg["seq"], str(exc), msg["prompt"], code=code_of(exc), shown=screen_text(exc))
            return
        self.accepted += 1
        ack = protocol.encode(protocol.make_ack(msg["seq"], True, message, msg["prompt"]))
        handset.remember_ack(msg["seq"], msg["prompt"], ack)
        self.outbox.post(_ack_topic(self.box, handset_id), ack)
        teams.team_acks(self, handset, message)  # the team's other devices: its answer is in (room-6)
        if self._publisher.is_alive():  # the ack goes out now; the prompts and the board right after it
            self._rebuild_due = True  # on_message wakes the publisher once the ack is handed to MQTT
        else:
            self.publish_changes(narrowed=True)  # the input changed the game only: the prompts it touched

    # -- pairing and identity (appliance/edge/pairing.py: the topic is the identity) ---------------------------

    def _may_speak(self, handset_id: str) -> bool:
        """With broker accounts, a message on a handset's topics counts only if that id has an account (the
        ACL lets account <id> alone publish there) or is a phone the admin page speaks for."""
        return self.pairing is None or self.pairing.may_speak(handset_id)

    def forget_request(self, handset_id: str) -> bool:
        """Drop a pairing request (or conflict) of an id that is not at the table; False if it is."""
        if self.pairing is None or self.registry.get(handset_id) is not None:
            return False
        if handset_id not in self.pairing.pending and handset_id not in self.pairing.conflicts:
            return False
        self.pairing.remove(handset_id)
        return True

    def _pairing_changed(self) -> None:
        # requests are listed in the admin state (bounded, see Pairing), not in the registry or the store
        # until the quizmaster accepts one, so a flood of requests from the public account costs nothing
        with self.outbox:
            self.publish_state()

    def _refuse(self, handset_id: str, seq: int, message: str, prompt_id: str | None = None,
                code: str = "refused", about: str | None = None, shown: str | None = None) -> None:
        """An error ack (``about`` "hello": the answer to a refused hello, seq -1). The log keeps
        ``message`` whole; the handset gets ``shown``, or ``message`` fitted to its screen by make_ack."""
        self.refused += 1
        log.warning("refused %s from %s (seq %s, %s): %s", about or "input", handset_id, seq, code, message)
        ack = protocol.make_ack(seq, False, message if shown is None else shown, prompt_id, code=code, about=about)
        self.outbox.post(protocol.ack_topic(self.box, handset_id), protocol.encode(ack))

    # -- admin commands (appliance/edge/commands.py) ------------------------------------------------------

    def _admin(self, payload: bytes) -> None:
        self.admin.on_payload(payload)

    def command(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Run one admin command (also called directly by the demo and tests); raises on refusal."""
        return self.admin.run(command)

    def resend_admin_state(self) -> None:
        """Publish the admin state at the next change even if its text is the same (a command answered
        again from the replies: its sender waits for the echo of its id)."""
        self._admin_sent = None

    def save_handset(self, handset: Handset) -> None:
        if self.store is None:
            return
        try:
            self.store.save_handset(handset.id, handset.name, handset.accepted,
                                    {"firmware": handset.firmware, "layout": handset.layout,
                                     "team": handset.team, "code": handset.code})
        except StoreError as exc:
            # a full or read-only disk must not cost a handset its prompt: it is at the table in memory,
            # and the board and admin page say why it will be forgotten after a restart
            log.error("handset %s not saved: %s", handset.id, exc)
            self.session.message, self.session.message_until = str(exc), self.clock() + 60

    # -- outbound --------------------------------------------------------------------------------------

    def _deliver(self, topic: str, payload: bytes | str, retain: bool, qos: int | None) -> None:
        """Publish one message the hub queued (Outbox: after the lock is let go, in the order queued)."""
        self.client.publish(topic, payload, retain=retain, qos=qos)

    def send_prompt(self, handset: Handset, fresh: bool = False) -> None:
        prompt, changed = self.session.prompt_for(handset, fresh=fresh)
        if changed or fresh:
            self._publish_prompt(handset, prompt)

    def publish_changes(self, narrowed: bool = False, state: bool = True) -> None:
        """The prompts that changed, then the board: every prompt rebuilt, or with ``narrowed`` (right
        after an input, when nothing else can have changed) only those the session says the input touched.
        ``state`` False: the prompts only (the publisher sends the state a little later, STATE_BURST)."""
        changed = self.session.changed_prompts(list(self.registry), narrowed=narrowed, find=self.registry.get)
        for handset, prompt in changed:
            self._publish_prompt(handset, prompt)
        try:
            self.results.after_change(self)
        except Exception:  # a result the box cannot work out must never hold up the prompts or the board
            log.exception("seat results failed")
        if state:
            self.publish_state()

    def _publish_prompt(self, handset: Handset, prompt: dict[str, Any]) -> None:
        """One handset's prompt; a prompt that cannot be sent is logged and never stops the others or
        the board."""
        wire_id = protocol.wire_prompt(self.boot, {"id": prompt["id"]})["id"]
        payload = self.session.wire_prompt(handset.id, wire_id)  # the session's one serialisation of it
        if payload is None:  # too big for a handset: shortened to fit
            wire = protocol.wire_prompt(self.boot, prompt)
            try:
                payload = fit(wire)
            except protocol.ProtocolError as exc:
                log.error("prompt for %s cannot fit a handset (%s): %s", handset.id, exc, str(wire)[:200])
                payload = protocol.encode(protocol.make_prompt(wire_id, protocol.INFO, "Too much to show",
                                                               "Ask the quizmaster to use the admin page."))
        self.outbox.post(protocol.prompt_topic(self.box, handset.id), payload)

    def state_soon(self) -> None:
        """The board and the admin state after a handset's own news on MQTT's thread (its hello, its
        status, heard again): sent by the publisher through STATE_BURST's bucket, so a room saying hello
        at once (after a restart, or the Wi-Fi coming back) makes a few states, each listing everyone so
        far, not one each: every state is a walk through the room (a trace of 256 joining: 567 states,
        1.4 s of MQTT's thread; issue 22). The handset's prompt never waits."""
        if self._publisher.is_alive():
            self._rebuild_due = True  # on_message wakes the publisher once what the message sent is out
        else:
            self.publish_state()

    def publish_state(self) -> None:
        self._state_at = self.clock()
        self._state_due = None  # a state held back goes out with this one
        self._telemetry_due = False  # what telemetry changed goes out with this state
        board = self.session.board_state(list(self.registry), self.registry.colour)
        text = self._board_text(board)
        if text != self._board_sent:
            self._board_sent = text
            self.outbox.post(protocol.board_topic(self.box), text, retain=True)
        admin = {
            "v": protocol.VERSION,
            "scene": self.session.state,
            "game": board["game"],
            "paused": board["paused"],
            "can_advance": board["can_advance"],
            "message": board["message"],  # e.g. a full disk: the admin page says it as the board does
            # handsets asking to be paired: id -> its name and whether two devices claim it (no code: the
            # quizmaster types the one on its screen), and plain-words warnings about pairing under attack
            "pairing": self.pairing.requests() if self.pairing is not None else {},
            "pairing_warnings": (self.pairing.warnings() if self.pairing is not None else []) + self.flood.warnings(),
            "last": self.admin.last,
            # seats whose handset is offline and the codes that retake them: the quizmaster gives a code to
            # the team they know (never on the public board, issue 32)
            "seat_codes": self.session.away_codes(list(self.registry), self.registry.colour),
            # which of the stored game's cards is on the table: the admin page shows its answer card
            # from the store (never on this topic: no answer travels over MQTT)
            "card": {"game_id": self.session.game_id, "index": self.session.current_card()},
            # whose input *undo* takes back now: the Live page names it and asks first (issue 31.5)
            "undo": self.session.last_input(),
        }
        text = _with_list(admin, "handsets", self._handsets_json())
        if text != self._admin_sent:
            self._admin_sent = text
            self.outbox.post(protocol.admin_state_topic(self.box), text, retain=True)

    # The board and the admin state are published after every input; their lists of handsets change only
    # when a handset does, so each list's JSON is kept and spliced into the rest, which is small.

    def _board_text(self, board: dict[str, Any]) -> str:
        players = board.pop("players")
        if self._players_json is None or self._players_json[0] is not players:
            self._players_json = (players, json.dumps(players, sort_keys=True))
        board["players"] = players
        return _with_list({k: v for k, v in board.items() if k != "players"}, "players", self._players_json[1])

    def _handsets_json(self) -> str:
        key = (handsets_revision(), len(self.registry))  # moves on any shown change of any handset
        if self._admin_handsets is None or self._admin_handsets[0] != key:
            self._admin_handsets = (key, json.dumps([h.public() for h in self.registry], sort_keys=True))
        return self._admin_handsets[1]


@functools.lru_cache(maxsize=1024)
def _ack_topic(box: str, handset_id: str) -> str:
    """A seated handset's ack topic, built (and its ids checked) once, not for every input it sends."""
    return protocol.ack_topic(box, handset_id)


def _with_list(rest: dict[str, Any], name: str, listed: str) -> str:
    """``rest`` as JSON (sorted keys) with ``name``: the JSON text ``listed`` added at the end."""
    return f'{json.dumps(rest, sort_keys=True)[:-1]},"{name}":{listed}}}'

