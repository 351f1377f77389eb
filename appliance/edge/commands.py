"""The quizmaster's admin commands, as the hub runs them: the handset table (accept, rename, remove,
identify), the game start-up (seats, cards, options), the game controls (next, skip, pause...) and the quiz
night's (appliance/edge/night_commands.py): every admin command is read here and nowhere else.

:class:`AdminCommands` owns what the commands keep between them (the recent replies by command id, and the
last one, which the admin state carries) and reaches the hub only through :class:`CommandHost`, the few
things a command needs of it. The hub's MQTT edge hands every ``admin/command`` payload to
:meth:`AdminCommands.on_payload`; the demo, the TV and the tests call :meth:`AdminCommands.run` (through
``Hub.command``) directly. Both run under the hub's outbox (its lock).
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from appliance.edge import teams
from appliance.edge.memory import settle_memory
from appliance.edge.night_commands import NIGHT_COMMANDS, night_command
from appliance.edge.refusals import code_of
from appliance.errors import IllegalAction, NoGame, QuizboxError
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.night import NightRunner
from appliance.session.session import Session
from firmware import protocol

if TYPE_CHECKING:
    from appliance.edge.clocksync import ClockSync
    from appliance.edge.handsets import Handset, Registry
    from appliance.edge.outbox import Outbox
    from appliance.edge.pairing import Pairing

log = logging.getLogger(__name__)


REMEMBERED_REPLIES = 64
"""Replies kept by command id: a sender that heard no answer sends the same command again (a message
the broker dropped under a flood, or a broker restart), and gets the first answer, not a second run."""


class CommandHost(Protocol):
    """What the admin commands need of the hub, and no more."""

    session: Session
    registry: Registry
    store: Store | None
    pairing: Pairing | None
    clocks: ClockSync
    outbox: Outbox
    clock: Callable[[], float]
    box: str

    @property
    def decks(self) -> Callable[[str, Mapping[str, Any]], Sequence[DealtCard]] | None: ...

    def save_handset(self, handset: Handset) -> None: ...

    def forget_request(self, handset_id: str) -> bool: ...

    def publish_changes(self, narrowed: bool = False, state: bool = True) -> None: ...

    def resend_admin_state(self) -> None: ...


class AdminCommands:
    """The admin commands of one hub, with the replies it gave lately."""

    def __init__(self, hub: CommandHost) -> None:
        self.hub = hub
        self.replies: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.last: dict[str, Any] = {}
        """The last reply: the admin state's ``last``."""

    def on_payload(self, payload: bytes) -> None:
        """One ``admin/command`` payload: validate it (firmware/protocol.py), run it, and answer in the admin
        state's ``last`` with the command's id echoed, whether it was done or refused. A command whose id
        was answered lately is answered again and not run twice (``next`` sent again must not skip a
        question)."""
        hub = self.hub
        command_id = ""
        with hub.outbox:  # the command, its answer and its publishing, in turn with the ticker's and the publisher's
            try:
                command = protocol.decode_command(payload)
                command_id = command["id"]
                reply = self.replies.get(command_id)
                if reply is None:
                    result = self.run(command)
                    reply = protocol.make_reply(command_id, True, str(result.get("msg", "")))
            except (ValueError, QuizboxError) as exc:
                code = code_of(exc)
                reply = protocol.make_reply(command_id or _salvage_id(payload), False, str(exc), code)
                log.warning("admin command refused (%s): %s", code, exc)
            if reply["id"]:
                self.replies[reply["id"]] = reply
                self.replies.move_to_end(reply["id"])
                while len(self.replies) > REMEMBERED_REPLIES:
                    self.replies.popitem(last=False)
            self.last = reply
            hub.resend_admin_state()
            hub.publish_changes()

    def run(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Run one admin command; raises on refusal."""
        return run(self.hub, command)


def _salvage_id(payload: bytes) -> str:
    """The id of a command refused before it was read whole (a bad argument), so its sender still
    gets its answer; "" if there is none to read."""
    try:
        obj = json.loads(payload)
    except (ValueError, UnicodeError):
        return ""
    value = obj.get("id") if isinstance(obj, dict) else None
    return value if isinstance(value, str) and len(value) <= protocol.MAX_COMMAND_ID else ""


def run(hub: CommandHost, command: Mapping[str, Any]) -> dict[str, Any]:
    """Run one admin command; raises on refusal."""
    with hub.outbox:
        name = command["cmd"]
        s = hub.session
        if name == "accept":
            # with broker accounts: its own account, from its pairing request
            handset = _handset(hub, command) if hub.pairing is None else _paired(hub, command)
            handset.accepted = True
            hub.save_handset(handset)
        elif name == "rename":
            handset = _handset(hub, command)
            new = str(command.get("name", "")).strip()
            if not new:
                raise protocol.ProtocolError("a name cannot be empty", "bad_command")
            handset.name = hub.registry.unique_name(new, exclude=handset.id)
            hub.save_handset(handset)
        elif name == "remove" and hub.forget_request(str(command.get("handset", ""))):
            pass  # only asking to be paired (or two devices claiming the id): the request is gone
        elif name == "remove":
            handset = _handset(hub, command)
            if handset.id in s.seats.values() and s.state == "playing":
                raise protocol.ProtocolError(f"{handset.name} is seated in the running game", "not_allowed")
            hub.registry.remove(handset.id)
            teams.unlink_all(hub, handset.id)  # rules.md room-6: its team's other devices play on their own
            s.forget(handset.id)
            hub.clocks.forget(handset.id)
            if hub.pairing is not None:
                hub.pairing.remove(handset.id)  # and it can log in no more
            if hub.store is not None:
                hub.store.delete_handset(handset.id)
        elif name == "identify":
            _handset(hub, command).identify_until = hub.clock() + 5
        elif name == "start":
            start_game(hub, command)
            settle_memory()  # the game's cards and state live for the game: out of the collector's way
        elif name in NIGHT_COMMANDS:  # a quiz night's (appliance/session/night.py)
            runner = s.night if s.night is not None else NightRunner(s, hub.store, hub.decks)
            runner.box = hub.box
            message = night_command(runner, command, lambda hid: (h := hub.registry.get(hid)) is not None
                                    and h.accepted)
            hub.publish_changes()
            return {"ok": True, "msg": message}
        elif name == "next" and s.night is not None and s.night.wants_next():
            s.night.next()  # between a night's rounds *next* starts the next one (or ends a round that is due)
        elif name in s.flow_commands():  # a game's own commands (protocol.GAME_COMMANDS: the buzzer's)
            message = s.flow_command(name, command)
            hub.publish_changes()
            return {"ok": True, "msg": message}
        elif name == "next":
            s.advance()
        elif name == "skip":
            s.skip()
        elif name == "sound":  # play the card's sound again on the TV (issue 34)
            message = s.play_sound()
            hub.publish_changes()
            return {"ok": True, "msg": message}
        elif name == "undo":
            s.undo()
        elif name == "pause":
            s.pause()
        elif name == "resume":
            s.resume()
        elif name == "end":  # abandon: no winner
            s.end_game()
        elif name == "finish":  # finish now and score, by the game's stopped rule
            s.finish_now()
        elif name == "seat":  # a seat moves to another handset (the quizmaster, or the player's seat code)
            message = move_seat(hub, command)
            hub.publish_changes()
            return {"ok": True, "msg": message}
        elif name == "team":  # rules.md room-6: a device plays on a team's seat (the quizmaster, or the code)
            team, code = command.get("team"), command.get("code")
            message = teams.join(hub, str(command["handset"]), None if team is None else str(team),
                                 None if code is None else str(code))
            hub.publish_changes()
            return {"ok": True, "msg": message}
        elif name == "lobby":
            s.to_lobby()
        elif name in protocol.GAME_COMMANDS:
            game = s.setup.game if s.setup is not None and s.state == "playing" else None
            raise IllegalAction(f"{name} is not a command of {game}") if game else NoGame()
        else:
            raise protocol.ProtocolError(f"unknown command {name!r}", "unknown_command")
        hub.publish_changes()
        return {"ok": True, "msg": f"{name}: done"}


def move_seat(hub: CommandHost, command: Mapping[str, Any]) -> str:
    """Seats belong to players: ``player``'s seat to ``handset`` (appliance.session.Session.move_seat);
    with ``code``, the player's own retake from another handset while theirs is offline."""
    player = str(command["player"])
    code = command.get("code")
    current = hub.registry.get(hub.session.seats.get(player, ""))
    handset = _handset(hub, command)
    message = hub.session.move_seat(player, handset, current, None if code is None else str(code))
    if current is not None and current.id != handset.id and hub.session.seats.get(player) == handset.id:
        followed = teams.follow_seat(hub, current.id, handset.id)  # the team's other devices go with it
        if followed:
            message += f" (and its {followed} other device{'s' if followed > 1 else ''})"
    return message


def _paired(hub: CommandHost, command: Mapping[str, Any]) -> Handset:
    """Accept with broker accounts: make the account the handset asked for (or find the one it has),
    then the handset is at the table (known before, or new from its request)."""
    assert hub.pairing is not None
    handset_id, code = str(command.get("handset", "")), command.get("code")
    request = hub.pairing.pending.get(handset_id)
    known = hub.registry.get(handset_id)
    if known is None and request is None and handset_id not in hub.pairing.conflicts:
        raise protocol.ProtocolError(f"no handset {handset_id!r}", "unknown_handset")
    token = command.get("request")  # the request the admin page showed: accepted only if it still stands
    hub.pairing.accept(handset_id, None if code is None else str(code), None if token is None else str(token))
    if known is None:
        assert request is not None
        known, _ = hub.registry.hello(handset_id, request.name, hub.clock())
        known.online = False  # until it logs in with its account and says hello
    return known


def _handset(hub: CommandHost, command: Mapping[str, Any]) -> Handset:
    handset = hub.registry.get(str(command.get("handset", "")))
    if handset is None:
        raise protocol.ProtocolError(f"no handset {command.get('handset')!r}", "unknown_handset")
    return handset


def start_game(hub: CommandHost, command: Mapping[str, Any]) -> None:
    """The game start-up: who sits where, the cards (sent, or dealt from a deck), the options."""
    night = hub.session.night
    if night is not None and night.engine is not None and not night.engine.finished:
        # between rounds the session is in the lobby, but a game started there would be scored as the
        # night's round when the quizmaster finishes it
        raise IllegalAction("a quiz night is running: add the game to it as a round, or end the night first")
    game = command.get("game")
    seats = command.get("seats")
    options = command.get("options", {})
    if not isinstance(game, str):
        raise protocol.ProtocolError("start needs a game", "bad_command")
    if not isinstance(options, dict):
        raise protocol.ProtocolError("options must be an object", "bad_command")
    if seats is None:  # everyone accepted and online, in join order
        seats = [{"player": h.name, "handset": h.id} for h in hub.registry if h.accepted and h.online]
    if not isinstance(seats, list) or not all(isinstance(x, dict) for x in seats):
        raise protocol.ProtocolError('seats is a list of {"player", "handset"}', "bad_command")
    mapping: dict[str, str] = {}
    for seat in seats:
        player, hid = seat.get("player"), seat.get("handset")
        handset = hub.registry.get(str(hid))
        if handset is None or not handset.accepted:
            raise protocol.ProtocolError(f"handset {hid!r} is not at the table", "bad_command")
        if not isinstance(player, str) or not player.strip() or player in mapping:
            raise protocol.ProtocolError(f"bad or repeated player name {player!r}", "bad_command")
        mapping[player] = handset.id
    cards_raw = command.get("cards")
    if cards_raw is not None:
        if not isinstance(cards_raw, list) or not all(isinstance(c, dict) for c in cards_raw):
            raise protocol.ProtocolError("cards must be a list of objects", "bad_command")
        cards: Sequence[DealtCard] = [DealtCard(str(c.get("id", i)), c) for i, c in enumerate(cards_raw)]
    elif hub.decks is not None:
        cards = hub.decks(game, command)
    else:
        raise protocol.ProtocolError("no cards: name a deck or send cards", "bad_command")
    setup = GameSetup(game=game, players=list(mapping), options=options, cards=cards)
    hub.session.start_game(setup, mapping)
