"""The hub: the appliance's MQTT edge. It knows who is at the table, checks every payload, routes inputs
to the session, and publishes prompts, acks and the public board state. It never crashes on input.

Order of checks for an input (architecture.md): topic -> payload (size, JSON, protocol v1 shape, claimed
id) -> handset known and accepted -> duplicate (same seq and prompt: ack again, apply once) -> session
(current prompt, seated, the game's rules). Every refusal gets an error ack on the handset's ack topic
and one log line; nothing changes.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from appliance.box.store import Store, StoreError
from appliance.edge.accounts import private_client_id
from appliance.edge.clocksync import ClockSync
from appliance.edge.handsets import Handset, Registry
from appliance.edge.mqtt import Availability, Client, Connection
from appliance.edge.pairing import Pairing, PairingDesk
from appliance.edge.prompts import fit
from appliance.errors import QuizboxError
from appliance.session.flow import Card, GameSetup
from appliance.session.night import NIGHT_COMMANDS, NightRunner, night_command
from appliance.session.session import Session
from firmware import protocol

log = logging.getLogger(__name__)

DeckProvider = Callable[[str, Mapping[str, Any]], Sequence[Card]]


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
    ) -> None:
        protocol.box_topic(box)  # validates the id
        self.box = box
        self.session = session
        self.registry = Registry(open_join=open_join)
        self.store = store
        if store is not None:  # handsets accepted before a restart are still at the table
            for saved in store.handsets():
                handset, _ = self.registry.hello(saved["id"], saved["name"], clock())
                handset.online = False
                handset.accepted = saved["accepted"]
        self.clock = clock
        self.decks = decks
        self.pairing = pairing  # None: no broker accounts to manage (the demo's private broker)
        self.lock = threading.RLock()
        self.refused = 0  # inputs and payloads refused (for benches and tests)
        self.accepted = 0
        self._board_sent: str | None = None
        self._admin_sent: str | None = None
        self._last_result: dict[str, Any] = {}
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
            availability=Availability(protocol.appliance_status_topic(box)),
            on_connect=self._on_connect,
        )
        self.clocks = ClockSync()
        # pairing requests come on a connection of their own, so a flood of them never delays the game
        self.desk = None if pairing is None else PairingDesk(
            box, pairing, connection.host, connection.port, connection.username, connection.password,
            on_change=self._pairing_changed, tls=connection.tls, ca_file=connection.ca_file)
        self._state_at = 0.0
        self._ticker = threading.Thread(target=self._tick_loop, name="hub-ticker", daemon=True)

    # -- lifecycle -------------------------------------------------------------------------------------

    def start(self, wait: float = 10.0) -> Hub:
        self.client.start(wait=wait)
        if self.desk is not None:
            self.desk.start()
        self._ticker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._ticker.is_alive():
            self._ticker.join(timeout=2)
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
        with self.lock:
            self._board_sent = None
            self._admin_sent = None
            for handset in self.registry:
                if handset.online:
                    self._send_prompt(handset, fresh=True)
            self._publish_state()

    def _ms(self) -> int:
        """The appliance clock in ms (the session's clock: the buzzer compares the two)."""
        return round(self.clock() * 1000)

    def _tick_loop(self) -> None:
        while not self._stop.wait(self._tick_interval):
            try:
                with self.lock:
                    online = [h.id for h in self.registry if h.online]
                    for handset_id, ping in self.clocks.due(self._ms(), online):  # clock offsets (buzzer)
                        self.client.publish(protocol.time_topic(self.box, handset_id), protocol.encode(ping), qos=0)
                    if self.session.tick():
                        self._publish_changes()
                    elif self.clock() - self._state_at >= 1.0:  # countdowns move once a second
                        self._publish_state()
            except Exception:
                log.exception("session tick failed")

    # -- inbound ---------------------------------------------------------------------------------------

    def on_message(self, topic: str, payload: bytes) -> None:
        """Entry point for every MQTT message (paho's thread); never raises."""
        received = self._ms()  # before waiting for the lock: a clock reply's arrival time
        try:
            with self.lock:
                if topic == protocol.admin_command_topic(self.box):
                    self._admin(payload)
                    return
                handset_id, leaf = protocol.parse_handset_topic(self.box, topic)
                if leaf == "clock":
                    if self.registry.get(handset_id) is not None and self._may_speak(handset_id):
                        reply = protocol.parse_clock(handset_id, protocol.decode(payload))
                        self.clocks.on_reply(handset_id, reply, received)
                    return
                handler = {
                    "hello": self._hello,
                    "status": self._status,
                    "telemetry": self._telemetry,
                    "input": self._input,
                }.get(leaf)
                if handler is not None:
                    handler(handset_id, payload)
        except protocol.ProtocolError as exc:
            self.refused += 1
            log.warning("ignored message on %s: %s", topic[:120], exc)
        except Exception:
            self.refused += 1
            log.exception("hub failed on a message on %s", topic[:120])

    def _hello(self, handset_id: str, payload: bytes) -> None:
        try:
            hello = protocol.parse_hello(handset_id, protocol.decode(payload))
        except protocol.ProtocolError as exc:
            self.refused += 1
            log.warning("bad hello from %s: %s", handset_id, exc)
            return
        if not self._may_speak(handset_id):
            self.refused += 1
            log.warning("hello on the topics of %s, which has no broker account: ignored", handset_id)
            return
        handset, new = self.registry.hello(handset_id, hello["name"], self.clock())
        self.clocks.joined(handset_id, self._ms())
        if self.pairing is not None and not handset.accepted and self.pairing.accounts.has(handset_id):
            handset.accepted = True  # an account is made only when the quizmaster accepts
        handset.firmware = hello["fw"]
        handset.layout = hello["layout"]
        if new:
            self._save(handset)
            state = "accepted" if handset.accepted else "pending"
            log.info("handset %s joined as %s (%s)", handset_id, handset.name, state)
        # a hello means the handset (re)started or reconnected: it needs its current prompt again
        self._send_prompt(handset, fresh=True)
        self._publish_state()

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
            self._send_prompt(handset, fresh=True)
        self._publish_state()

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
        handset.last_seen = self.clock()
        self._publish_state()

    def _input(self, handset_id: str, payload: bytes) -> None:
        try:
            raw = protocol.decode(payload)
        except protocol.ProtocolError as exc:
            self._refuse(handset_id, -1, str(exc))
            return
        try:
            msg = protocol.parse_input(handset_id, raw)
        except protocol.ProtocolError as exc:
            seq = raw.get("seq")
            self._refuse(handset_id, seq if isinstance(seq, int) and not isinstance(seq, bool) else -1, str(exc))
            return
        if not self._may_speak(handset_id):
            self._refuse(handset_id, msg["seq"], "not paired: ask the quizmaster")
            return
        handset = self.registry.get(handset_id)
        if handset is None:
            self._refuse(handset_id, msg["seq"], "unknown handset: restart it")
            return
        if not handset.accepted:
            self._refuse(handset_id, msg["seq"], "not accepted yet")
            return
        handset.last_seen = self.clock()
        key = (msg["seq"], msg["prompt"])
        if key in handset.acks:  # a QoS 1 duplicate or a retry after reconnect: ack again, apply once
            self.client.publish(protocol.ack_topic(self.box, handset_id), handset.acks[key])
            return
        tag, dash, local_id = msg["prompt"].rpartition("-")
        if dash and tag != self.boot:  # answers a prompt sent before this appliance restarted
            self._refuse(handset_id, msg["seq"], "that screen is old; look again", msg["prompt"])
            return
        data = msg["data"]
        if msg["kind"] == protocol.BUZZ:  # the press on the appliance clock (rules.md Buzzer 2)
            data = self.clocks.buzz_data(handset_id, data, msg["clock"], self._ms())
        try:
            message = self.session.handle_input(handset_id, local_id, msg["kind"], data)
        except QuizboxError as exc:
            self._refuse(handset_id, msg["seq"], _short(exc), msg["prompt"])
            return
        self.accepted += 1
        ack = protocol.encode(protocol.make_ack(msg["seq"], True, message, msg["prompt"]))
        handset.remember_ack(msg["seq"], msg["prompt"], ack)
        self.client.publish(protocol.ack_topic(self.box, handset_id), ack)
        self._publish_changes()

    # -- pairing and identity (appliance/edge/pairing.py: the topic is the identity) ---------------------------

    def _may_speak(self, handset_id: str) -> bool:
        """With broker accounts, a message on a handset's topics counts only if that id has an account (the
        ACL lets account <id> alone publish there) or is a phone the admin page speaks for."""
        return self.pairing is None or self.pairing.may_speak(handset_id)

    def _forget_request(self, handset_id: str) -> bool:
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
        with self.lock:
            self._publish_state()

    def _refuse(self, handset_id: str, seq: int, message: str, prompt_id: str | None = None) -> None:
        self.refused += 1
        log.warning("refused input from %s (seq %s): %s", handset_id, seq, message)
        ack = protocol.make_ack(seq, False, message, prompt_id)
        self.client.publish(protocol.ack_topic(self.box, handset_id), protocol.encode(ack))

    # -- admin commands -----------------------------------------------------------------------------------

    def _admin(self, payload: bytes) -> None:
        command: Any = None
        try:
            command = json.loads(payload.decode("utf-8"))
            if not isinstance(command, dict) or not isinstance(command.get("cmd"), str):
                raise protocol.ProtocolError('a command is {"cmd": name, ...}')
            result = self.command(command)
        except (ValueError, QuizboxError) as exc:
            result = {"ok": False, "msg": str(exc)}
            log.warning("admin command refused: %s", exc)
        token = command.get("id") if isinstance(command, dict) else None
        if isinstance(token, str) and token:  # the admin page matches its answer by it (web/link.py)
            result = {**result, "id": token[:64]}
        self._last_result = result
        self._admin_sent = None
        self._publish_changes()

    def command(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Run one admin command (also called directly by the demo and tests); raises on refusal."""
        with self.lock:
            name = command["cmd"]
            s = self.session
            if name == "accept":
                # with broker accounts: its own account, from its pairing request
                handset = self._handset(command) if self.pairing is None else self._paired(command)
                handset.accepted = True
                self._save(handset)
            elif name == "rename":
                handset = self._handset(command)
                new = str(command.get("name", "")).strip()
                if not new:
                    raise protocol.ProtocolError("a name cannot be empty")
                handset.name = self.registry.unique_name(new, exclude=handset.id)
                self._save(handset)
            elif name == "remove" and self._forget_request(str(command.get("handset", ""))):
                pass  # only asking to be paired (or two devices claiming the id): the request is gone
            elif name == "remove":
                handset = self._handset(command)
                if s.player_of(handset.id) is not None and s.state == "playing":
                    raise protocol.ProtocolError(f"{handset.name} is seated in the running game")
                self.registry.remove(handset.id)
                s.forget(handset.id)
                self.clocks.forget(handset.id)
                if self.pairing is not None:
                    self.pairing.remove(handset.id)  # and it can log in no more
                if self.store is not None:
                    self.store.delete_handset(handset.id)
            elif name == "identify":
                self._handset(command).identify_until = self.clock() + 5
            elif name == "start":
                self._start(command)
            elif name in NIGHT_COMMANDS:  # a quiz night's (appliance/session/night.py)
                runner = s.night if s.night is not None else NightRunner(s, self.store, self.decks)
                message = night_command(runner, command, lambda hid: (h := self.registry.get(hid)) is not None
                                        and h.accepted)
                self._publish_changes()
                return {"ok": True, "msg": message}
            elif name == "next" and s.night is not None and s.night.wants_next():
                s.night.next()  # between a night's rounds *next* starts the next one (or ends a round that is due)
            elif name in s.flow_commands():  # a game's own commands: the buzzer's arm / right / wrong / close
                message = s.flow_command(name, command)
                self._publish_changes()
                return {"ok": True, "msg": message}
            elif name == "next":
                s.advance()
            elif name == "skip":
                s.skip()
            elif name == "undo":
                s.undo()
            elif name == "pause":
                s.pause()
            elif name == "resume":
                s.resume()
            elif name == "end":
                s.end_game()
            elif name == "lobby":
                s.to_lobby()
            else:
                raise protocol.ProtocolError(f"unknown command {name!r}")
            self._publish_changes()
            return {"ok": True, "msg": f"{name}: done"}

    def _save(self, handset: Handset) -> None:
        if self.store is None:
            return
        try:
            self.store.save_handset(handset.id, handset.name, handset.accepted,
                                    {"firmware": handset.firmware, "layout": handset.layout})
        except StoreError as exc:
            # a full or read-only disk must not cost a handset its prompt: it is at the table in memory,
            # and the board and admin page say why it will be forgotten after a restart
            log.error("handset %s not saved: %s", handset.id, exc)
            self.session.message, self.session.message_until = str(exc), self.clock() + 60

    def _paired(self, command: Mapping[str, Any]) -> Handset:
        """Accept with broker accounts: make the account the handset asked for (or find the one it has),
        then the handset is at the table (known before, or new from its request)."""
        assert self.pairing is not None
        handset_id, code = str(command.get("handset", "")), command.get("code")
        request = self.pairing.pending.get(handset_id)
        known = self.registry.get(handset_id)
        if known is None and request is None and handset_id not in self.pairing.conflicts:
            raise protocol.ProtocolError(f"no handset {handset_id!r}")
        self.pairing.accept(handset_id, None if code is None else str(code))  # the code typed, required
        if known is None:
            assert request is not None
            known, _ = self.registry.hello(handset_id, request.name, self.clock())
            known.online = False  # until it logs in with its account and says hello
        return known

    def _handset(self, command: Mapping[str, Any]) -> Handset:
        handset = self.registry.get(str(command.get("handset", "")))
        if handset is None:
            raise protocol.ProtocolError(f"no handset {command.get('handset')!r}")
        return handset

    def _start(self, command: Mapping[str, Any]) -> None:
        game = command.get("game")
        seats = command.get("seats")
        options = command.get("options", {})
        if not isinstance(game, str):
            raise protocol.ProtocolError("start needs a game")
        if not isinstance(options, dict):
            raise protocol.ProtocolError("options must be an object")
        if seats is None:  # everyone accepted and online, in join order
            seats = [{"player": h.name, "handset": h.id} for h in self.registry if h.accepted and h.online]
        if not isinstance(seats, list) or not all(isinstance(x, dict) for x in seats):
            raise protocol.ProtocolError('seats is a list of {"player", "handset"}')
        mapping: dict[str, str] = {}
        for seat in seats:
            player, hid = seat.get("player"), seat.get("handset")
            handset = self.registry.get(str(hid))
            if handset is None or not handset.accepted:
                raise protocol.ProtocolError(f"handset {hid!r} is not at the table")
            if not isinstance(player, str) or not player.strip() or player in mapping:
                raise protocol.ProtocolError(f"bad or repeated player name {player!r}")
            mapping[player] = handset.id
        cards_raw = command.get("cards")
        if cards_raw is not None:
            if not isinstance(cards_raw, list) or not all(isinstance(c, dict) for c in cards_raw):
                raise protocol.ProtocolError("cards must be a list of objects")
            cards: Sequence[Card] = [Card(str(c.get("id", i)), c) for i, c in enumerate(cards_raw)]
        elif self.decks is not None:
            cards = self.decks(game, command)
        else:
            raise protocol.ProtocolError("no cards: name a deck or send cards")
        setup = GameSetup(game=game, players=list(mapping), options=options, cards=cards)
        self.session.start_game(setup, mapping)

    # -- outbound --------------------------------------------------------------------------------------

    def _send_prompt(self, handset: Handset, fresh: bool = False) -> None:
        prompt, changed = self.session.prompt_for(handset, fresh=fresh)
        if changed or fresh:
            self._publish_prompt(handset, prompt)

    def _publish_changes(self) -> None:
        for handset, prompt in self.session.changed_prompts(list(self.registry)):
            self._publish_prompt(handset, prompt)
        self._publish_state()

    def _publish_prompt(self, handset: Handset, prompt: dict[str, Any]) -> None:
        """One handset's prompt; a prompt that cannot be sent is logged and never stops the others or
        the board."""
        wire = {**prompt, "id": f"{self.boot}-{prompt['id']}"}
        try:
            payload = fit(wire)
        except protocol.ProtocolError as exc:
            log.error("prompt for %s cannot fit a handset (%s): %s", handset.id, exc, str(wire)[:200])
            payload = protocol.encode(protocol.make_prompt(wire["id"], protocol.INFO, "Too much to show",
                                                           "Ask the quizmaster to use the admin page."))
        self.client.publish(protocol.prompt_topic(self.box, handset.id), payload)

    def _publish_state(self) -> None:
        self._state_at = self.clock()
        board = self.session.board_state(list(self.registry), self.registry.colour)
        text = json.dumps(board, sort_keys=True)
        if text != self._board_sent:
            self._board_sent = text
            self.client.publish(protocol.board_topic(self.box), text, retain=True)
        admin = {
            "handsets": [h.public() for h in self.registry],
            "scene": self.session.state,
            "game": board["game"],
            "paused": board["paused"],
            "can_advance": board["can_advance"],
            "message": board["message"],  # e.g. a full disk: the admin page says it as the board does
            # handsets asking to be paired: id -> its name and whether two devices claim it (no code: the
            # quizmaster types the one on its screen), and plain-words warnings about pairing under attack
            "pairing": self.pairing.requests() if self.pairing is not None else {},
            "pairing_warnings": self.pairing.warnings() if self.pairing is not None else [],
            "last": self._last_result,
        }
        text = json.dumps(admin, sort_keys=True)
        if text != self._admin_sent:
            self._admin_sent = text
            self.client.publish(protocol.admin_state_topic(self.box), text, retain=True)


def _short(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= protocol.MAX_MESSAGE else text[: protocol.MAX_MESSAGE - 1] + "…"
