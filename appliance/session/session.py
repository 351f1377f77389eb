"""The session: one game at a time, and the only part of the appliance that knows time.

It seats handsets as players, turns the game flow's prompts into prompts with ids (an input answering an
old id is refused as stale), applies inputs, runs the clock (answer time limits, pause), and produces the
public board state. It publishes nothing itself: the hub asks it what changed after each event.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import random
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from appliance.edge.handsets import Handset
from appliance.edge.handsets import revision as handsets_revision
from appliance.errors import IllegalAction, MalformedInput, NoGame, QuizboxError
from appliance.games.dealt import DealtCard
from appliance.infra.store import Origin, Store, StoreError
from appliance.session.engine_flow import WAITING, EngineFlow
from appliance.session.flow import FlowLookup, GameFlow, GameSetup, info
from firmware import protocol
from firmware.protocol import MAX_PAYLOAD

log = logging.getLogger(__name__)

JSON = dict[str, Any]
Clock = Callable[[], float]

LOBBY, PLAYING, RESULTS = "lobby", "playing", "results"
UNDO_NOTE = "Taken back: "
"""The board's note after an undo (it goes once the entries close): it asks the player to answer again."""


class StalePrompt(IllegalAction):
    """The input answers a prompt that is no longer the handset's current one."""

    code: ClassVar[str] = "stale"


class NotSeated(IllegalAction):
    """The handset has no seat in the game being played."""

    code: ClassVar[str] = "not_seated"


class AlreadyIn(IllegalAction):
    """Another device of the team answered first (rules.md room-6)."""

    code: ClassVar[str] = "already_in"


class Paused(IllegalAction):
    """The quizmaster paused the game."""

    code: ClassVar[str] = "paused"


@dataclass
class _Sent:
    body: bytes  # the body as canonical compact JSON: compared to spot a change, spliced into the wire form
    id: str
    kind: str


EVERYONE = None
"""``Session.pending``: every handset's prompt may have changed (the safe fallback)."""


LOOK_AT_TV = "Look at the TV."
"""The line a question prompt starts with while the card on the table has a picture (docs/protocol.md 1.4)."""


def encode_body(body: Mapping[str, Any]) -> bytes:
    """A prompt body as canonical compact JSON (sorted keys: equal bodies give equal bytes)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


class Session:
    def __init__(
        self,
        clock: Clock,
        rng: random.Random | None = None,
        box_name: str = "Quizbox",
        store: Store | None = None,
        *,
        flows: FlowLookup,
    ) -> None:
        self.clock = clock
        self.flows = flows  # game id -> its flow factory: appliance.flows.flow_factory, or a test's own
        self.store = store
        self.game_id: int | None = None
        self._stored = 0  # how many of the flow's log entries are in the store
        self._marked = 0  # how many of the set-up's cards are marked used in the store
        self.rng = rng or random.Random()
        self.box_name = box_name
        self.state = LOBBY
        self.flow: GameFlow | None = None
        self.setup: GameSetup | None = None
        self.seats = {}  # player -> handset id
        self.paused_at: float | None = None
        self.paused_total = 0.0
        self.auto_advance: float | None = None  # demo autopilot: seconds before an automatic *next*
        self._idle_since = clock()
        self._counter = 0
        self._sent: dict[str, _Sent] = {}
        # players whose prompt may have changed since the prompts were last rebuilt; EVERYONE (None) after
        # anything but a player's input (a new question, a phase change, pause, seating...)
        self.pending: set[str] | None = EVERYONE
        self._players: tuple[Any, list[JSON], frozenset[str]] | None = None  # _room's last, and what it showed
        self.version = 0  # bumps on every change the board should see
        self.message = ""  # a line for the board and admin (errors, hints for the quizmaster)
        self.sound_plays: dict[int, int] = {}  # card index -> times its sound was asked for again
        self.message_until: float | None = None  # an informational message fades; errors stay
        self._store_failed = False
        self.seat_codes: dict[str, str] = {}  # player -> the code that retakes their seat from another handset
        # handset id -> the player whose seat was retaken from it with the seat code: it is told so
        self.retaken: dict[str, str] = {}
        # rules.md room-6: device id -> the id of the team's own handset, for a team's second phone or
        # handset (the hub keeps it, appliance/edge/teams.py); such a device plays as its team's handset
        self.devices: dict[str, str] = {}
        # player -> (the prompt counter, the device) at that player's last accepted input: a team's other
        # device answering a screen from before it is told the team is in, not that its screen is old
        self._answered: dict[str, tuple[int, str]] = {}
        self.night: Any = None
        """The quiz night being played, if any (an appliance.session.night.NightRunner sets itself here)."""

    # -- time ------------------------------------------------------------------------------------------

    def game_time(self) -> float:
        """The clock the flows see: it stands still while paused."""
        now = self.clock()
        if self.paused_at is not None:
            now = self.paused_at
        return now - self.paused_total

    # -- seating and games -----------------------------------------------------------------------------

    @property
    def seats(self) -> dict[str, str]:
        """player -> handset id, in seat order."""
        return self._seats

    @seats.setter
    def seats(self, seats: dict[str, str]) -> None:
        self._seats = dict(seats)
        self._player_by_handset = {hid: player for player, hid in self._seats.items()}

    def player_of(self, handset_id: str) -> str | None:
        """The player ``handset_id`` plays as: its own seat's, or its team's (a team's second device)."""
        return self._player_by_handset.get(self.devices.get(handset_id, handset_id))

    def set_devices(self, devices: Mapping[str, str]) -> None:
        """The hub's links of a team's other devices to its handset (appliance/edge/teams.py): every
        prompt is looked at again, and the board lists the teams anew."""
        if dict(devices) != self.devices:
            self.devices = dict(devices)
            self._changed()

    def team_of(self, handset_id: str) -> str:
        """The id of the handset whose seat ``handset_id`` plays: its team's, or its own."""
        return self.devices.get(handset_id, handset_id)

    def _new_seat_codes(self) -> None:
        """Fresh seat codes (4 digits, not the game's RNG: they are no part of the game)."""
        self.seat_codes = {player: f"{secrets.randbelow(10_000):04d}" for player in self.seats}
        self.retaken = {}

    def move_seat(self, player: str, handset: Handset, current: Handset | None, code: str | None = None) -> str:
        """Seats belong to players: ``player``'s seat goes to ``handset`` (the quizmaster's move, or the
        player's own with the seat code the TV shows while their handset is offline). The game is the
        player's, so nothing they entered is lost; the old handset goes back to waiting."""
        if self.flow is None or self.state != PLAYING:
            raise NoGame("no game is running: seats are set when a game starts")
        if player not in self.seats:
            raise MalformedInput(f"{player!r} has no seat in this game (seats: {', '.join(self.seats)})")
        if not handset.accepted:
            raise IllegalAction(f"handset {handset.name} is not at the table yet")
        holder = self.player_of(handset.id)
        if holder == player:
            return f"{player} is already on {handset.name}"
        if holder is not None:
            raise IllegalAction(f"{handset.name} already holds {holder}'s seat")
        if code is not None:
            typed = "".join(str(code).split())
            if current is not None and current.online:
                raise IllegalAction(f"{player}'s handset is online: ask the quizmaster to move the seat")
            if typed != self.seat_codes.get(player):
                raise IllegalAction(f"wrong seat code for {player}")
        # a quiz night's round: the night's seat moves too (refused if the handset is another night player's)
        night = self.night.move_seat(player, handset.id) if self.night is not None else None
        old = self.seats[player]
        self.seats = {p: (handset.id if p == player else hid) for p, hid in self.seats.items()}
        self.seat_codes[player] = f"{secrets.randbelow(10_000):04d}"  # a code retakes a seat once
        self.retaken.pop(handset.id, None)
        if code is not None:  # the seat's own handset is told when it comes back (issue 32)
            self.retaken[old] = player
        self.forget(old)
        self.forget(handset.id)
        if self.store is not None and self.game_id is not None:
            try:
                self.store.update_seats(self.game_id, dict(self.seats), night)
            except StoreError as exc:  # the move stands in memory; a restart would seat the old handset
                self._store_trouble(exc)
        self._changed()
        return f"{player}'s seat is now on {handset.name}"

    def start_game(self, setup: GameSetup, seats: Mapping[str, str], game_id: int | None = None) -> None:
        """Start ``setup`` with ``seats`` (player -> handset id); refuses bad set-ups, changing nothing.
        ``game_id``: the game is already in the store (a night's round, stored with its start)."""
        if self.state == PLAYING and self.flow is not None and not self.flow.finished:
            raise IllegalAction("a game is already running; end it first")
        missing = [p for p in setup.players if p not in seats]
        if missing:
            raise MalformedInput(f"no handset seated for {', '.join(missing)}")
        if len(set(seats.values())) != len(seats):
            raise MalformedInput("one handset is seated twice")
        for player, handset_id in seats.items():
            if handset_id in self.devices:  # rules.md room-6: it plays on its team's seat
                raise MalformedInput(f"{handset_id} (seated for {player}) plays for another team's seat: "
                                     "seat that team's own handset")
        self._unpause()  # a pause left over from the last game ends here
        flow = self.flows(setup.game)(setup, self.rng, self.game_time())
        if self.store is not None and game_id is None:
            try:
                game_id = self.store.create_game(setup.game, setup_json(setup), dict(seats))
            except StoreError as exc:  # refused; the TV and the admin page's message line say why
                self._store_trouble(exc)
                raise
            self._store_failed = False
        self.flow, self.setup, self.seats, self.game_id = flow, setup, dict(seats), game_id
        self._new_seat_codes()
        self._stored = self._marked = 0
        self.sound_plays = {}
        self.state = PLAYING
        self.message = ""
        self._persist()
        self._changed()

    def resume_stored(self) -> bool:
        """Resume the unfinished game in the store, if any (after a power cut); True if one resumed.

        The state is rebuilt from the stored log; a running time limit starts again in full."""
        if self.store is None:
            return False
        stored = self.store.unfinished_game()
        if stored is None:
            return False
        setup = setup_from_json(stored.setup)
        try:
            flow = self.flows(setup.game)(setup, self.rng, self.game_time())
            flow.restore(stored.log, self.game_time())
        except QuizboxError as exc:
            self.store.finish_game(stored.id, {"error": str(exc)}, status="abandoned")
            self.message, self.message_until = f"could not resume game {stored.id}: {exc}", None
            log.error("%s", self.message)
            return False
        self.flow, self.setup, self.seats, self.game_id = flow, setup, dict(stored.seats), stored.id
        self._new_seat_codes()
        self._stored = len(stored.log)
        self._marked = flow.cards_dealt
        self.state = RESULTS if flow.finished else PLAYING
        self.message = f"resumed game {stored.id} after a restart"
        self.message_until = self.clock() + 30
        log.info("%s (%d actions)", self.message, len(stored.log))
        self._changed()
        return True

    def show_ended(self, flow: GameFlow, setup: GameSetup, seats: Mapping[str, str], game_id: int,
                   stored: int) -> None:
        """A game already over (its status stored) back on the board, as it ended: a quiz night's round
        whose final screen the TV held before a restart. ``stored``: how much of its log is in the store."""
        self.flow, self.setup, self.seats, self.game_id = flow, setup, dict(seats), game_id
        self._new_seat_codes()
        self._stored, self._marked = stored, flow.cards_dealt
        self.state = RESULTS
        self._changed()

    def _persist(self, origin: Origin | None = None) -> None:
        """Store the flow's new log entries durably (with ``origin``: as that handset's last acked input);
        on failure roll the flow back to what is stored and raise StoreError (the input is then refused,
        not acked)."""
        if self.store is None or self.flow is None or self.game_id is None or self.setup is None:
            return
        entries = self.flow.log()
        new = entries[self._stored:]
        try:
            if new:
                self.store.append_actions(self.game_id, self._stored, new, origin)
        except StoreError as exc:
            self._store_trouble(exc)
            self._rebuild(entries[: self._stored])  # back to what is stored: the input is refused
            raise
        self._stored = len(entries)
        try:  # the inputs are safe now; what follows is bookkeeping, and a failure there refuses nothing
            dealt = [c.id for c in self.setup.cards[self._marked: self.flow.cards_dealt]]
            if dealt:  # the box remembers played cards, to deal others next time
                self.store.mark_used(dealt)
                self._marked += len(dealt)
            if self.flow.finished:
                self.store.finish_game(self.game_id, self.flow.board())
        except StoreError as exc:
            self._store_trouble(exc)
            return
        if self._store_failed:  # the disk has room again
            self._store_failed, self.message = False, ""

    def _store_trouble(self, exc: StoreError) -> None:
        if self.message != str(exc):  # log a failing disk once, not on every retry
            log.error("store failed: %s", exc)
        self.message, self.message_until, self._store_failed = str(exc), None, True

    def _rebuild(self, entries: list[JSON]) -> GameFlow:
        """The game rebuilt from ``entries`` of its log (undo, a failed write); the ante clock and other
        running timers carry over from the flow it replaces."""
        assert self.setup is not None
        old = self.flow
        flow = self.flows(self.setup.game)(self.setup, self.rng, self.game_time())
        flow.restore(entries, self.game_time())
        if isinstance(old, EngineFlow) and isinstance(flow, EngineFlow):
            flow.started_at = old.started_at
        self.flow = flow
        self.state = RESULTS if flow.finished else PLAYING
        return flow

    def end_game(self) -> None:
        if self.flow is None:
            raise NoGame()
        if self.store is not None and self.game_id is not None and not self.flow.finished:
            self.store.finish_game(self.game_id, self.flow.board(), status="abandoned")
        self._unpause()
        self.state = RESULTS
        self._changed()

    def finish_now(self) -> None:
        """The quizmaster's "finish now and score": the game ends by its own stopped rule (most points or
        chips wins, ties share; a question still open is void) and is stored as finished, with winners.
        :meth:`end_game` is the other ending: abandoned, no winner."""
        flow = self._running()
        finish = getattr(flow, "finish_now", None)
        if finish is None:
            raise IllegalAction(f"{self.setup.game if self.setup else 'this game'} cannot be finished and scored")
        self._unpause()
        finish(self.game_time())
        self.state = RESULTS
        self._persist()
        self._changed()

    def to_lobby(self) -> None:
        """Back to the lobby; a game still running is stored as abandoned (it must not come back after
        a restart)."""
        if self.state == PLAYING and self.flow is not None and not self.flow.finished:
            self.end_game()
        self._unpause()
        self.state, self.flow, self.setup, self.seats = LOBBY, None, None, {}
        self.seat_codes = {}
        self._changed()

    def _unpause(self) -> None:
        if self.paused_at is not None:
            self.paused_total += self.clock() - self.paused_at
            self.paused_at = None

    # -- host controls -----------------------------------------------------------------------------------

    def advance(self) -> None:
        flow = self._running()
        if self.paused_at is not None:
            raise Paused("the game is paused: resume first")
        if not flow.can_advance():
            waiting_for = getattr(flow, "waiting_for", None)  # a flow may say why, and what to do
            raise IllegalAction(str(waiting_for()) if callable(waiting_for) else WAITING)
        flow.advance(self.game_time())
        if flow.finished:
            self.state = RESULTS
        self._persist()
        self._changed()

    def skip(self) -> None:
        flow = self._running()
        if self.paused_at is not None:
            raise Paused("the game is paused: resume first")
        flow.skip(self.game_time())
        if flow.finished:  # skipping the last card ends the game the game's way
            self.state = RESULTS
        self._persist()
        self._changed()

    def undo(self) -> str:
        """Undo the last accepted player input (and the host steps after it), rebuilt from the log."""
        flow = self._running()
        if self.setup is None:
            raise NoGame()
        entries = flow.log()
        last = self._last_input(entries)
        if last is None:
            raise IllegalAction("no player input to undo yet")
        if self.store is not None and self.game_id is not None:
            self.store.truncate_actions(self.game_id, last)
        self._rebuild(entries[:last])
        self._stored = last
        player = entries[last].get("player")
        self.message = f"{UNDO_NOTE}{player}'s last answer. {player}, please answer again."
        self.message_until = self.clock() + 30
        self._changed()
        return f"took back {player}'s last input ({entries[last].get('kind')})"

    @staticmethod
    def _last_input(entries: list[JSON]) -> int | None:
        return next((i for i in range(len(entries) - 1, -1, -1) if entries[i].get("player")), None)

    def last_input(self) -> JSON | None:
        """Whose input *undo* would take back now, and its kind (the admin page names it and asks first)."""
        if self.flow is None or self.state != PLAYING:
            return None
        entries = self.flow.log()
        last = self._last_input(entries)
        return None if last is None else {"player": entries[last].get("player"), "kind": entries[last].get("kind")}

    @property
    def times_presses(self) -> bool:
        """Whether the game in play orders presses by when they happened (the buzzer, rules.md Buzzer
        round 2): the hub keeps the handsets' clock offsets fresh then (appliance/edge/clocksync.py)."""
        return self.state == PLAYING and bool(getattr(self.flow, "times_presses", False))

    def current_card(self) -> int | None:
        """The index (in the set-up's cards) of the card on the table, or None."""
        if self.flow is None or self.state != PLAYING or self.flow.cards_dealt == 0:
            return None
        return self.flow.cards_dealt - 1

    def flow_commands(self) -> tuple[str, ...]:
        """The running game's own quizmaster commands (the buzzer's arm/right/wrong/close), if any."""
        commands: tuple[str, ...] = getattr(self.flow, "commands", ())
        return commands if self.state == PLAYING else ()

    def flow_command(self, name: str, args: Mapping[str, Any]) -> str:
        """A game's own quizmaster command, stored like *next*."""
        flow = self._running()
        if self.paused_at is not None:
            raise Paused("the game is paused: resume first")
        command = getattr(flow, "command", None)
        if command is None:
            raise IllegalAction(f"{self.setup.game if self.setup else 'this game'} has no command {name!r}")
        message = str(command(name, args, self.game_time()))
        if flow.finished:
            self.state = RESULTS
        self._persist()
        self._changed()
        return message

    def pause(self) -> None:
        self._running()
        if self.paused_at is None:
            self.paused_at = self.clock()
            self._changed()

    def resume(self) -> None:
        self._running()
        if self.paused_at is not None:
            self._unpause()
            self._changed()

    def _running(self) -> GameFlow:
        if self.flow is None or self.state != PLAYING:
            raise NoGame()
        return self.flow

    # -- inputs --------------------------------------------------------------------------------------------

    def handle_input(self, handset_id: str, prompt_id: str, kind: str, data: Mapping[str, Any],
                     origin: Origin | None = None) -> str:
        """Apply one handset input; returns the ack message. Raises a QuizboxError on refusal. ``origin``
        (handset, seq, prompt id on the wire) is stored with it: after a power cut, what a handset says
        it had acked is checked against it (appliance/box/recovery.py)."""
        sent = self._sent.get(handset_id)
        if sent is None or sent.id != prompt_id:
            self._already_in(handset_id, prompt_id)
            raise StalePrompt("that screen is old; look again")
        if sent.kind != kind:
            if sent.kind == "info":
                raise StalePrompt("this screen takes no input")
            raise MalformedInput(f"this screen takes a {sent.kind}, not a {kind}")
        if kind == protocol.NUMBER and self.night is not None and self.state != PLAYING:
            # a quiz night's tie-break, between rounds: the night's own input (durable before the ack)
            return str(self.night.number_from(self.team_of(handset_id), data, origin))
        player = self.player_of(handset_id)
        if player is None or self.flow is None or self.state != PLAYING:
            raise NotSeated("you are not in this game")
        if self.paused_at is not None:
            raise Paused("game paused")
        if (self.pending is EVERYONE or player in self.pending) and encode_body(self._flow_prompt(player)) != sent.body:
            # an earlier input changed this player's prompt and the new one is not out yet (the hub
            # publishes after acking): the input answers a screen that is already old (compared as sent:
            # a picture question's "Look at the TV." made every answer to it look old)
            self._already_in(handset_id, prompt_id)
            raise StalePrompt("that screen is old; look again")
        message = self.flow.handle(player, kind, data, self.game_time())
        self._answered[player] = (self._counter, handset_id)
        # whose prompt the input may have changed, as the flow says (a flow that does not say: everyone)
        touched: set[str] | None = getattr(self.flow, "touched", EVERYONE)
        ended = self.flow.finished
        if ended:
            self.state = RESULTS
        self._persist(origin)  # durable BEFORE the hub acks
        if ended:  # every screen: a handset with no seat stops offering to take a seat back
            self._changed()
        else:  # an input changes only the game: the prompt of a handset with no seat in it stays as it was
            self._changed(set(self.seats) if touched is EVERYONE else touched)
        return message

    def _already_in(self, handset_id: str, prompt_id: str) -> None:
        """Raise AlreadyIn when another device of ``handset_id``'s team had an input accepted since the
        prompt ``prompt_id`` was built for it (rules.md room-6: a later input is refused as already in)."""
        player = self.player_of(handset_id)
        answered = self._answered.get(player) if player is not None else None
        if answered is None or answered[1] == handset_id or not prompt_id[1:].isdigit():
            return
        if answered[0] >= int(prompt_id[1:]):
            raise AlreadyIn("your team is in already")

    def tick(self) -> bool:
        """Run due deadlines and the autopilot; True when something changed."""
        flow = self.flow
        if self.night is not None and self.paused_at is None and self.night.tick():
            return True
        if flow is None or self.state != PLAYING or self.paused_at is not None:
            return False
        changed = False
        deadline = flow.deadline()
        if deadline is not None and self.game_time() >= deadline:
            flow.on_deadline(self.game_time())
            changed = True
        if (
            self.auto_advance is not None
            and flow.can_advance()
            and not flow.waiting_for_players()  # the autopilot never closes players' entries
            and self.clock() - self._idle_since >= self.auto_advance
            and not (self.night is not None and self.night.due())  # a night round's last reveal stays
        ):
            flow.advance(self.game_time())
            changed = True
        if changed:
            if flow.finished:
                self.state = RESULTS
            # on StoreError the flow is rolled back; board and admin show session.message; retried next tick
            with contextlib.suppress(StoreError):
                self._persist()
            self._changed()
        return changed

    def _changed(self, touched: Iterable[str] | None = EVERYONE) -> None:
        """Something changed; ``touched``: the only players whose prompt it can have changed (a player's
        input, as the flow says), or EVERYONE."""
        self.version += 1
        self._idle_since = self.clock()
        if touched is EVERYONE or self.pending is EVERYONE:
            self.pending = EVERYONE
        else:
            self.pending.update(touched)
        if self.night is not None and self.night.sync():
            self.pending = EVERYONE  # a night's round just ended and was scored: every handset's place changed

    # -- what the handsets and the TV see ---------------------------------------------------------------

    def prompt_body(self, handset: Handset) -> JSON:
        if not handset.accepted:
            return info("Hello!", f"Ask the quizmaster to accept {handset.id}", wait=True)
        player = self.player_of(handset.id)
        if self.night is not None and (between := self.night.prompt(self.team_of(handset.id))) is not None:
            return dict(between)
        if self.flow is None or player is None:
            # the game's state only as far as running or over (an input that ends the game rebuilds every
            # prompt; any other rebuilds only the seated players')
            if self.flow is not None and self.state == PLAYING and handset.id in self.retaken:
                return info("Seat taken", f"{self.retaken[handset.id]}'s seat was taken on another handset with "
                            "its seat code. If that was not your team, tell the quizmaster now.", wait=True)
            if self.flow is not None and self.seats and self.state == PLAYING:  # over: no seat to take back
                # never "take back your seat" to a handset that never had one (issue 31, 8)
                return info(self.box_name, f"You are {handset.name}, not seated in this game: the quizmaster "
                            "seats you. Played on a handset that went offline? Ask for its seat code.", wait=True)
            return info(self.box_name, f"You are {handset.name}. Waiting for the next game.", wait=True)
        if self.paused_at is not None:
            return info("Paused", "The quizmaster paused the game.", wait=True)
        body = self._flow_prompt(player)
        if self.state == RESULTS and (body.get("kind") != "info" or body.get("wait")):
            # a game's own last word stays (an info that waits for nothing); a prompt, or a screen still
            # waiting for the others (a game the quizmaster ended midway: "Locked in", "Waiting for the
            # others' ranges"), says it is over
            return info("Game over", "Look at the TV for the results.")
        return body

    def _flow_prompt(self, player: str) -> JSON:
        """The running flow's prompt for ``player`` as a handset is sent it: a picture question's text starts
        "Look at the TV." (a handset's small screen cannot show it; protocol revision 1.4)."""
        assert self.flow is not None
        body = self.flow.prompt(player)
        if self.state == PLAYING and body.get("kind") != "info" and self.card_media().get("image"):
            text = f"{LOOK_AT_TV} {body.get('text', '')}".strip()
            body = {**body, "text": text[:protocol.MAX_TEXT]}
        return body

    def prompt_for(self, handset: Handset, fresh: bool = False) -> tuple[JSON, bool]:
        """The full prompt (with id) for ``handset`` and whether it differs from the last one sent."""
        sent, body, changed = self._rebuild_prompt(handset)
        return {"v": 1, "id": sent.id, **body}, changed or fresh

    def _rebuild_prompt(self, handset: Handset) -> tuple[_Sent, JSON, bool]:
        body = self.prompt_body(handset)
        key = encode_body(body)  # the one serialisation of this prompt (wire_prompt splices it)
        sent = self._sent.get(handset.id)
        if sent is not None and sent.body == key:
            return sent, body, False
        self._counter += 1
        sent = _Sent(key, f"p{self._counter}", str(body.get("kind")))
        self._sent[handset.id] = sent
        return sent, body, True

    def changed_prompts(self, handsets: Iterable[Handset], narrowed: bool = False,
                        find: Callable[[str], Handset | None] | None = None) -> list[tuple[Handset, JSON]]:
        """The prompts that changed since they were last sent, with ids.

        By default every handset's prompt is rebuilt. ``narrowed``: only those of the players in
        :attr:`pending` (everyone's when pending is EVERYONE; none when nothing changed since the last
        rebuild): the hub's path after an input, when it knows nothing else changed meanwhile. ``find``
        (a handset by id) lets that path look up the players' few handsets instead of going through the
        room's: with 256 handsets that filter was a tenth of the rebuild after a bet (issue 22)."""
        pending, self.pending = self.pending, set()
        if narrowed and pending is not EVERYONE:
            if find is not None:  # in seat order, each seat's own handset, then its team's other devices
                ids = [hid for player, hid in self.seats.items() if player in pending]
                if self.devices:
                    ids += [d for d, team in self.devices.items() if self._player_by_handset.get(team) in pending]
                found = (find(hid) for hid in ids)
                handsets = [h for h in found if h is not None]
            else:
                handsets = [h for h in handsets if self.player_of(h.id) in pending]
        out = []
        for handset in handsets:
            sent, body, changed = self._rebuild_prompt(handset)
            if changed:
                out.append((handset, {"v": 1, "id": sent.id, **body}))
        return out

    def wire_prompt(self, handset_id: str, wire_id: str) -> bytes | None:
        """The last prompt built for ``handset_id`` as protocol v1 bytes with id ``wire_id``, from its one
        serialisation; None when there is none or it exceeds the protocol's size (then the caller fits it)."""
        sent = self._sent.get(handset_id)
        if sent is None or len(sent.body) < 3:
            return None
        wire = b'{"v":1,"id":' + json.dumps(wire_id).encode() + b"," + sent.body[1:]
        return wire if len(wire) <= MAX_PAYLOAD else None

    def forget(self, handset_id: str) -> None:
        self._sent.pop(handset_id, None)

    def sent_id(self, handset_id: str) -> str | None:
        """The id of the last prompt built for ``handset_id`` (local to this run), or None."""
        sent = self._sent.get(handset_id)
        return None if sent is None else sent.id

    def board_players(self, handsets: Iterable[Handset], colour: Callable[[str], str]) -> list[JSON]:
        """The board's list of the handsets at the table. It changes only when a handset or a seat does,
        not on an input: the list last built is kept and given again (the same object: the hub keeps its
        JSON too) while nothing it shows changed."""
        return self._room(list(handsets), colour)[0]

    def _room(self, handsets: list[Handset], colour: Callable[[str], str]) -> tuple[list[JSON], frozenset[str]]:
        """board_players' list, and the ids of the accepted handsets online; both kept while nothing they
        show changes (built after every input, each was a walk through the room's 256 handsets)."""
        key = (handsets_revision(), tuple(map(id, handsets)), tuple(self.seats.items()), colour,
               tuple(self.devices.items()))
        if self._players is not None and self._players[0] == key:
            return self._players[1], self._players[2]
        players = []
        online = set()
        seated = self._player_by_handset
        holders = set(seated.values())
        for handset in handsets:
            if not handset.accepted:
                continue
            if handset.id in self.devices:  # a team's second device: the team is listed once, by its own
                if handset.online:  # handset; the seat is not away while any device of it is online
                    online.add(self.devices[handset.id])
                continue
            if handset.online:
                online.add(handset.id)
            name = seated.get(handset.id, handset.name)
            if handset.id not in seated and name in holders:
                name = f"{name} (no seat)"  # its seat is on another handset: one team is listed once
            players.append(
                {
                    "name": name,
                    "handset": handset.id,
                    "colour": colour(handset.id),
                    "online": handset.online,
                    "battery": handset.battery,
                    "rssi": handset.rssi,
                    "seated": handset.id in seated,
                }
            )
        self._players = (key, players, frozenset(online))
        return players, self._players[2]

    def board_state(self, handsets: Iterable[Handset], colour: Callable[[str], str]) -> JSON:
        state = self._board_state(handsets, colour)
        return self.night.decorate(state) if self.night is not None else state

    def _board_state(self, handsets: Iterable[Handset], colour: Callable[[str], str]) -> JSON:
        players, online = self._room(list(handsets), colour)
        flow = self.flow
        deadline = flow.deadline() if flow is not None else None
        return {
            "v": 1,
            "box": self.box_name,
            "scene": self.state,
            "game": self.setup.game if self.setup else None,
            "paused": self.paused_at is not None,
            "players": players,
            "seats": list(self.seats),
            "view": flow.board(self.game_time()) if flow is not None else None,
            # whole seconds (rounded up): the board is republished once a second, and counts down itself
            "remaining": None if deadline is None else max(0, math.ceil(deadline - self.game_time())),
            "can_advance": bool(flow is not None and self.state == PLAYING and flow.can_advance()),
            # players are being asked for something: *next* would stop waiting for them
            "waiting": bool(flow is not None and self.state == PLAYING and flow.waiting_for_players()),
            "message": self._message_now(),
            # the ending the quizmaster chose: "stopped" (finish now and score), "abandoned" (no winner)
            "ending": self._ending(),
            # seats whose handset is offline: the quizmaster has their codes (never this public board: a
            # stranger in the room took a seat with the code the TV showed, issue 32)
            "seats_away": [p for p, hid in self.seats.items()
                           if self.state == PLAYING and hid not in online and p in self.seat_codes],
            # the card on the table's picture and sound: media references, never their bytes (issue 34)
            "media": self.card_media(),
            "version": self.version,
        }

    def card_media(self) -> JSON:
        """``{"image": ref, "audio": ref, "card": index, "plays": n}`` of the card on the table, as far as it
        has a picture or a sound (``plays``: how often the quizmaster asked for its sound again)."""
        index = self.current_card()
        if index is None or self.setup is None or index >= len(self.setup.cards):
            return {}
        fields = self.setup.cards[index].fields
        media: JSON = {key: fields[key] for key in ("image", "audio") if isinstance(fields.get(key), str)}
        if media:
            media.update(card=index, plays=self.sound_plays.get(index, 0))
        return media

    def play_sound(self) -> str:
        """The quizmaster's "play the sound again": the TV plays the card's sound from its start."""
        index = self.current_card()
        if index is None or "audio" not in self.card_media():
            raise IllegalAction("the card on the table has no sound")
        self.sound_plays[index] = self.sound_plays.get(index, 0) + 1
        self._changed(())
        return "the sound plays again"

    def away_codes(self, handsets: Iterable[Handset], colour: Callable[[str], str]) -> dict[str, str]:
        """The seat codes of seats whose handset is offline: for the admin page only (the admin state)."""
        online = self._room(list(handsets), colour)[1]
        if self.state != PLAYING:
            return {}
        return {p: self.seat_codes[p] for p, hid in self.seats.items() if hid not in online and p in self.seat_codes}

    def _message_now(self) -> str:
        if self.message_until is not None and self.clock() >= self.message_until:
            return ""
        if self.message.startswith(UNDO_NOTE) and not (self.state == PLAYING and self.flow is not None
                                                     and self.flow.waiting_for_players()):
            return ""  # an undo's note is about the entries being made: it goes once they close
        return self.message

    def _ending(self) -> str | None:
        if self.state != RESULTS or self.flow is None:
            return None
        if not self.flow.finished:
            return "abandoned"
        return "stopped" if getattr(self.flow, "stopped", False) else "finished"


def setup_json(setup: GameSetup) -> JSON:
    """A set-up as stored: everything needed to make the same flow again."""
    return {
        "game": setup.game,
        "players": list(setup.players),
        "options": dict(setup.options),
        "cards": [{"id": c.id, "fields": dict(c.fields)} for c in setup.cards],
    }


def setup_from_json(data: JSON) -> GameSetup:
    try:
        return GameSetup(
            game=str(data["game"]),
            players=[str(p) for p in data["players"]],
            options=dict(data["options"]),
            cards=[DealtCard(str(c["id"]), dict(c["fields"])) for c in data["cards"]],
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise MalformedInput(f"stored game set-up is damaged: {exc}") from exc
