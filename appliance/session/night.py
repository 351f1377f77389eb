"""A quiz night at the table: the session plays the night's rounds one after another.

The :class:`NightRunner` owns the pure :class:`~appliance.games.night.NightEngine` and its place in
the store; the session runs each round as an ordinary game (its own log in the ``games`` table). The
night's every action is stored before it counts, and the moments a power cut could split are one
transaction each: starting a round (the night's start, the round's game and the link between them),
finishing a round now or abandoning it (the night's end of the round and its game's status). A round
whose game ended by itself is scored from its stored log: after a restart, a night still ``playing`` a
round whose game is over in the store finishes that round from the game's stored log (rules.md Quiz
night 5); a round still running resumes as any game does (``Session.resume_stored``).

Between rounds the board shows the night's standing (``night`` scene), during an interval the
countdown (``night-interval``), at the end the podium (``night-podium``). The tie-break's numbers come
from the tied players' handsets (the ``number`` prompt) or, for a handset that cannot show it, from the
quizmaster on the admin page's night page.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from appliance.errors import IllegalAction, MalformedInput, QuizboxError
from appliance.games.base import HOST, JSON, Action
from appliance.games.dealt import DealtCard
from appliance.games.night import (
    AbandonRound,
    AddRound,
    CloseCard,
    CorrectScore,
    EnterNumber,
    FinishRound,
    JoinNight,
    MoveRound,
    NightEngine,
    RoundPlan,
    SeatRound,
    SkipRound,
    StartRound,
    TiebreakCard,
)
from appliance.games.night.state import Phase, Round
from appliance.games.numbers import format_plain, parse_number
from appliance.infra.store import Origin, Store, StoreError
from appliance.league.payloads import new_result_id, night_result
from appliance.session.engine_flow import EngineFlow
from appliance.session.flow import GameSetup, info
from firmware import protocol

if TYPE_CHECKING:
    from appliance.session.session import Session

log = logging.getLogger(__name__)

CardSource = Callable[[str, Mapping[str, Any]], Sequence[DealtCard]]
"""(game, {"deck": id}) -> the cards to deal, as the hub's deck source gives them."""

MAX_INTERVAL_SECONDS = 3600

NEXT_GRACE_SECONDS = 4.0
"""After a round ends, the host's *next* waits this long before it starts the next round: the standing's
animation plays, and a *next* pressed twice for the round's last question cannot skip into the next
round (the night page's "Start the next round" is not held back)."""

MAX_HOLD_SECONDS = 600

CARDS, TIME, HOST_STOP = "cards", "time", "host"
"""Why a round stopped early (its stored game result's ``night.why``): its card count, its time box, the
quizmaster's finish now."""

ROUND, TIEBREAK = "round", "tiebreak"
"""What the board holds (:attr:`NightRunner.held`): a round's own final screen, the last tie-break card."""


class NightRunner:
    def __init__(self, session: Session, store: Store | None = None, cards: CardSource | None = None) -> None:
        self.session = session
        self.store = store
        self.cards = cards
        self.engine: NightEngine | None = None
        self.night_id: int | None = None
        self.seats: dict[str, str] = {}
        """Player -> handset id for the whole night."""
        self.games: dict[int, int] = {}
        """Round number -> the game id that plays it."""
        self.round_started: float | None = None
        self.round_ended: float | None = None
        self.interval_until: float | None = None
        self.held: str | None = None
        """The final screen the board holds (rules.md Quiz night 6): ROUND, TIEBREAK or None. A screen, not
        a night action: the night's log (replay, persistence, undo) is the same with or without it."""
        self.held_at: float | None = None
        self.due_at: float | None = None
        """When the round in play became due (its last card revealed): a hold time counts from there."""
        self.colours: dict[str, str] = {}
        """Player -> their colour for the whole night: the colour of the handset they first sat at (a team's
        colour is the team's: a seat moved to another handset keeps it, issue 31.7)."""
        self.joining = False
        """Between rounds the TV shows the lobby's join QR code instead of the standing (latecomers)."""
        self.hold_seconds: int | None = None
        """The quizmaster's hold time for final screens (None: held until *next*)."""
        self._syncing = False
        self.box = ""
        """This box's id: a night started from a league plan needs it for its result (rules.md The league 5)."""
        self.league_plan: str | None = None
        """The league plan tonight plays, if any: its result goes to the league's outbox when it ends."""
        self.league_table: list[JSON] | None = None
        """The league's season table as the league last sent it: the TV shows it between rounds (read-only)."""
        session.night = self

    # -- the night -----------------------------------------------------------------------------------

    @property
    def active(self) -> bool:
        return self.engine is not None

    def _engine(self) -> NightEngine:
        if self.engine is None:
            raise IllegalAction("no night is running")
        return self.engine

    def start(self, seats: Mapping[str, str], rounds: Sequence[Mapping[str, Any] | RoundPlan], title: str = "",
              league_plan: str | None = None) -> None:
        """A new night for ``seats`` (player -> handset id, seat order) with its run-sheet. Every player is a
        team the box keeps with the devices it sat at (rules.md The league 1); ``league_plan`` names the
        league plan the run-sheet came from (rules.md The league 2)."""
        if league_plan is not None and not self.box:
            raise IllegalAction("this box has no id to sign a league result with")
        if self.engine is not None and not self.engine.finished:
            raise IllegalAction("a night is already running; end it first")
        if self.session.state == "playing" and self.session.flow is not None and not self.session.flow.finished:
            raise IllegalAction("a game is running; end it before the night starts")
        if len(set(seats.values())) != len(seats):
            raise MalformedInput("one handset is seated twice")
        plans = [plan if isinstance(plan, RoundPlan) else RoundPlan.from_json(plan) for plan in rounds]
        engine = NightEngine(list(seats), {"title": title, "rounds": plans})
        night_id = None
        if self.store is not None:
            night_id = self.store.create_night(title, list(seats), dict(seats), engine.options,
                                               teams={p: p for p in seats}, league_plan=league_plan)
        self.engine, self.night_id, self.seats, self.games = engine, night_id, dict(seats), {}
        self.league_plan = league_plan
        self.interval_until = None
        self.held = self.held_at = self.due_at = None
        self.colours = {}
        self.session.to_lobby()

    def end(self) -> None:
        """The quizmaster ends the night now: a round in play is abandoned; the night is stored as
        abandoned unless it was finished."""
        engine = self._engine()
        if engine.phase == Phase.PLAYING.value:
            self.abandon_round()
        if self.store is not None and self.night_id is not None and not engine.finished:
            self.store.finish_night(self.night_id, engine.public_view(), status="abandoned")
        self.engine, self.night_id, self.seats, self.games = None, None, {}, {}
        self.held = self.held_at = self.due_at = None
        self.colours = {}
        self.session.to_lobby()

    def _apply(self, action: Action, origin: Origin | None = None) -> None:
        """Apply a night action and store it (with ``origin``: the handset input it came from, stored as
        that handset's last acked one); on a store failure the night is as before (and raises)."""
        engine = self._engine()
        engine.apply(action)
        if self.store is None or self.night_id is None:
            return
        try:
            self.store.append_night_actions(self.night_id, len(engine.log) - 1, [action.to_json()], origin)
        except StoreError:
            self.engine = NightEngine.rebuild(engine.players, engine.options, engine.log[:-1])
            raise
        self._finish_if_over()

    def _finish_if_over(self) -> None:
        engine = self._engine()
        if engine.finished and self.store is not None and self.night_id is not None:
            league = None
            if self.league_plan is not None:  # rules.md The league 5: only a night from a league plan
                result_id = new_result_id(self.box, self.night_id)
                league = (result_id, night_result(engine, box=self.box, result_id=result_id, plan=self.league_plan,
                                                  seats=self.seats, teams={}, finished=self.store.clock()))
            self.store.finish_night(self.night_id, engine.public_view(), league=league)

    # -- the rounds still to come --------------------------------------------------------------------

    def add_round(self, plan: Mapping[str, Any], before: int | None = None) -> None:
        self._apply(AddRound(HOST, RoundPlan.from_json(plan), before))
        self.session._changed()

    def skip_round(self, number: int) -> None:
        self._apply(SkipRound(HOST, number))
        self.session._changed()

    def move_round(self, number: int, before: int | None) -> None:
        self._apply(MoveRound(HOST, number, before))
        self.session._changed()

    def seat_round(self, number: int, seats: Sequence[str]) -> None:
        self._apply(SeatRound(HOST, number, tuple(seats)))
        self.session._changed()

    def interval(self, seconds: int) -> None:
        """An interval screen counting down ``seconds`` (between rounds only; not stored)."""
        engine = self._engine()
        if engine.phase != Phase.BETWEEN.value:
            raise IllegalAction(f"an interval is for between rounds: {engine.status()}")
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not 0 <= seconds <= MAX_INTERVAL_SECONDS:
            raise MalformedInput(f"an interval is 0 to {MAX_INTERVAL_SECONDS} seconds, got {seconds!r}")
        self.interval_until = self.session.clock() + seconds if seconds else None
        self.session._changed()

    def join(self, team: str, handset_id: str) -> None:
        """A latecomer joins the night in progress on ``handset_id`` with 0 points so far (rules.md Quiz
        night 1); refused, changing nothing, when that handset already seats a player of the night."""
        engine = self._engine()
        holder = self.player_at(handset_id)
        if holder is not None:
            raise IllegalAction(f"that handset is {holder}'s in this quiz night")
        action = JoinNight.of(team)
        engine.verify(action)
        seats = {**self.seats, team: handset_id}
        if self.store is not None and self.night_id is not None:
            self.store.join_night(self.night_id, len(engine.log), action.to_json(), seats)
        engine.apply(action)
        self.seats = seats
        self.session._changed()

    def show_join(self, show: bool) -> None:
        """The join QR code (the lobby screen) on the TV between rounds, or the standing again."""
        engine = self._engine()
        if show and (self.session.state == "playing" or engine.phase == Phase.PLAYING.value):
            raise IllegalAction("the join QR code shows between rounds; a round is in play")
        self.joining = show
        self.session._changed()

    def correct_score(self, team: str, points: int, reason: str) -> None:
        """The quizmaster adds (or takes) ``points`` to ``team``'s standing with a reason: a night action,
        stored and replayed like any (rules.md Quiz night 7)."""
        self._apply(CorrectScore.of(team, points, reason))
        self.session._changed()

    # -- playing a round ---------------------------------------------------------------------------

    def setup_for(self, round_: Round) -> GameSetup:
        """The round's game as the session sets it up: its seats, options and its deck's cards (a card
        count stops the round after that many questions: :meth:`due`)."""
        plan = round_.plan
        cards: Sequence[DealtCard] = ()
        if plan.deck or plan.game != "buzzer":
            if self.cards is None:
                raise IllegalAction(f"round {round_.number} needs cards but this box has no decks")
            how: dict[str, Any] = {"deck": plan.deck} if plan.deck else {}
            if plan.unseen:
                how["unseen"] = True  # only cards this box has never dealt (docs/decks.md)
            cards = self.cards(plan.game, how)
        options: dict[str, Any] = dict(plan.options)
        if plan.game == "buzzer" and plan.cards is not None and not cards:
            options["questions"] = plan.cards
        return GameSetup(game=plan.game, players=list(round_.seats), options=options, cards=list(cards))

    def start_round(self) -> None:
        """Start the next round still to come: the night's start, its game, and the session plays it."""
        engine = self._engine()
        engine.verify(StartRound.now())
        round_ = engine.next_round
        assert round_ is not None
        setup = self.setup_for(round_)
        seats = {p: self.seats[p] for p in round_.seats}
        self.session.flows(setup.game)(setup, self.session.rng, self.session.game_time())  # refuses a bad set-up now
        action = StartRound.now()
        game_id = None
        if self.store is not None and self.night_id is not None:
            from appliance.session.session import setup_json

            game_id = self.store.start_night_round(
                self.night_id, len(engine.log), action.to_json(), round_.number, setup.game, setup_json(setup), seats
            )
            self.games[round_.number] = game_id
        engine.apply(action)
        self.interval_until = None
        self.held, self.held_at, self.due_at, self.joining = None, None, None, False
        self.round_started = self.session.clock()
        self.session.start_game(setup, seats, game_id=game_id)

    def _game_log(self) -> list[JSON]:
        flow = self.session.flow
        if not isinstance(flow, EngineFlow):
            raise IllegalAction("the round in play has no game engine to score")
        return [action.to_json() for action in flow.engine.log]

    def finish_round(self, stopped: bool = True, why: str = HOST_STOP) -> None:
        """"Finish now and score": the round in play is placed by its game's stopped rule (not abandoned)."""
        engine = self._engine()
        round_ = engine.playing
        if round_ is None:
            raise IllegalAction(f"no round is in play: {engine.status()}")
        action = FinishRound(HOST, tuple(self._game_log()), stopped)
        engine.verify(action)
        self._end_round(action, "finished", why)

    def abandon_round(self) -> None:
        """The round in play ends without counting (distinct from finishing it now)."""
        engine = self._engine()
        action = AbandonRound(HOST)
        engine.verify(action)
        self._end_round(action, "abandoned")

    def _end_round(self, action: FinishRound | AbandonRound, status: str, why: str = HOST_STOP) -> None:
        engine = self._engine()
        round_ = engine.playing
        assert round_ is not None
        game_id = self.games.get(round_.number)
        flow = self.session.flow
        if isinstance(action, FinishRound) and action.stopped and isinstance(flow, EngineFlow) and not flow.finished:
            # the round's end by its game's stopped rule, on the board (sQuizz's totals revealed) and in the
            # game's stored result (its winners, "stopped"); the night's log holds the round's log as it stood
            with contextlib.suppress(QuizboxError):
                flow.finish_now(self.session.game_time())
        if self.store is not None and self.night_id is not None and game_id is not None:
            result = dict(flow.board()) if flow is not None else {}
            result["night"] = {"round": round_.number, "end": action.kind}
            if isinstance(action, FinishRound) and action.stopped:
                result["night"]["why"] = why
            self.store.end_night_round(self.night_id, len(engine.log), action.to_json(), game_id, result, status)
        engine.apply(action)
        self.round_ended = self.session.clock()
        self._finish_if_over()
        self.session.state = "results"  # the game's status is stored above: the lobby must not abandon it
        if isinstance(action, AbandonRound):
            self.session.to_lobby()
            return
        self._hold(ROUND)
        self.session._changed()

    def _hold(self, what: str) -> None:
        self.held, self.held_at, self.due_at = what, self.session.clock(), None

    def release(self) -> None:
        """The held final screen makes way: for the night's standing (or podium)."""
        if self.held is None:
            raise IllegalAction("no final screen is held")
        held, self.held, self.held_at = self.held, None, None
        self.round_ended = self.session.clock()
        if held == ROUND and self.session.state != "playing":
            self.session.to_lobby()
        else:
            self.session._changed()

    def hold_for(self, seconds: int | None) -> None:
        """How long a final screen stays (None: until the quizmaster's *next*)."""
        if seconds is not None and (not isinstance(seconds, int) or isinstance(seconds, bool)
                                    or not 1 <= seconds <= MAX_HOLD_SECONDS):
            raise MalformedInput(f"a hold time is 1 to {MAX_HOLD_SECONDS} seconds (or none), got {seconds!r}")
        self.hold_seconds = seconds
        self.session._changed()

    def sync(self) -> bool:
        """After every session change: a round whose game ended by itself is scored from its log; a
        round whose game the quizmaster ended (End the game, Back to the lobby) is abandoned. True when
        the night changed."""
        if self._syncing or self.engine is None or self.engine.phase != Phase.PLAYING.value:
            return False
        self._syncing = True
        before = len(self.engine.log)
        try:
            round_ = self.engine.playing
            assert round_ is not None
            flow = self.session.flow
            ours = self.session.game_id == self.games.get(round_.number) or self.store is None
            if flow is not None and ours and flow.finished:
                self._apply(FinishRound(HOST, tuple(self._game_log())))
                self.round_ended = self.session.clock()
                self._hold(ROUND)  # the game's own last screen stays until the quizmaster moves on
            elif flow is None or not ours or self.session.state != "playing":
                self._apply(AbandonRound(HOST))
                self.round_ended = self.session.clock()
        except QuizboxError as exc:
            log.error("the night could not follow its round: %s", exc)
            self.session.message, self.session.message_until = str(exc), None
        finally:
            self._syncing = False
        return self.engine is not None and len(self.engine.log) != before

    def due(self) -> bool:
        """Whether the round in play has reached its card count or its time box and is between
        questions: its last reveal is on the board, and *next* finishes it (rules.md Quiz night 2: the
        round's card count or time box ran out, it is placed by its game's stopped rule; night-6)."""
        return self.due_reason() is not None

    def due_reason(self) -> str | None:
        """Why the round in play is due: CARDS (its card count) or TIME (its time box); None if it is not."""
        engine = self.engine
        flow = self.session.flow
        if engine is None or engine.phase != Phase.PLAYING.value or self.session.state != "playing":
            return None
        if not isinstance(flow, EngineFlow) or flow.finished or not flow.ready_for_card():
            return None
        round_ = engine.playing
        assert round_ is not None
        plan = round_.plan
        if plan.cards is not None and flow.cards_dealt >= plan.cards:
            return CARDS
        started = self.round_started
        if plan.minutes is not None and started is not None and self.session.clock() - started >= plan.minutes * 60:
            return TIME
        return None

    def tick(self) -> bool:
        """With a hold time set: a final screen held that long makes way, a round due that long (its
        last reveal on the board, :meth:`due`) is finished. Without one both wait for *next*
        (rules.md Quiz night 6). True when something changed."""
        now, hold = self.session.clock(), self.hold_seconds
        if self.held is not None:
            if hold is not None and self.held_at is not None and now - self.held_at >= hold:
                self.release()
                return True
            return False
        if not self.due():
            self.due_at = None
            return False
        if self.due_at is None:
            self.due_at = now
        if hold is not None and now - self.due_at >= hold:
            self.finish_round(stopped=True, why=self.due_reason() or HOST_STOP)
            return True
        return False

    def next(self) -> str:
        """The host's *next* when it belongs to the night: the held final screen makes way, the round
        in play that is due is finished (its final screen held), or the next round starts."""
        if self.held is not None:
            self.release()
            return "the final screen made way for the night's standing"
        why = self.due_reason()
        if why is not None:
            self.finish_round(stopped=True, why=why)
            return "round finished: its card count or time box is up"
        self.start_round()
        return "round started"

    # -- the tie-break -------------------------------------------------------------------------------------

    def tiebreak_card(self, question: str, answer: str) -> None:
        self._apply(TiebreakCard.deal(question, parse_number(answer)))
        if self.held is not None:
            self.release()  # the card replaces the last round's final screen
        self.session._changed()

    def enter_number(self, player: str, number: str, origin: Origin | None = None) -> None:
        """A tied player's number (typed by the quizmaster, or from their handset with ``origin``)."""
        self._apply(EnterNumber(player, parse_number(number)), origin)
        self._hold_last_card()
        self.session._changed()

    def _hold_last_card(self) -> None:
        """The tie-break card that decided the night stays up with its answer and numbers."""
        engine = self._engine()
        if engine.finished and engine.cards:
            self._hold(TIEBREAK)

    def move_seat(self, player: str, handset_id: str) -> tuple[int, dict[str, str]] | None:
        """``player``'s seat moves to ``handset_id`` in the round being played: the night's seat moves too
        (the later rounds seat the player there). Refused, changing nothing, when that handset is another
        player's in the night (one sitting this round out). Returns what the store keeps with the round's
        seats (appliance.infra.store.Store.update_seats), or None when the night does not seat ``player``."""
        if self.engine is None or self.engine.phase != Phase.PLAYING.value or player not in self.seats:
            return None  # no round of a night on the table: a one-off game's seat
        holder = self.player_at(handset_id)
        if holder is not None and holder != player:
            raise IllegalAction(f"that handset is {holder}'s in this quiz night")
        self.seats = {p: (handset_id if p == player else hid) for p, hid in self.seats.items()}
        return None if self.night_id is None else (self.night_id, dict(self.seats))

    def player_at(self, handset_id: str) -> str | None:
        """The night's player whose handset ``handset_id`` is, if any."""
        return next((p for p, hid in self.seats.items() if hid == handset_id), None)

    def number_from(self, handset_id: str, data: Mapping[str, Any], origin: Origin | None = None) -> str:
        """A tied player's number from their handset's ``number`` prompt (protocol 1.2); the ack's message.
        Refused (nothing changes) when the handset's player is not waiting for a number now."""
        player = self.player_at(handset_id)
        card = self.engine.card if self.engine is not None else None
        if player is None or card is None or player not in card.waiting_for:
            raise IllegalAction("no tie-break number is wanted from you now")
        number = data.get("number")
        if not isinstance(number, str):
            raise MalformedInput(f"a tie-break number is text, got {number!r}")
        self.enter_number(player, number, origin)
        return f"number {number} in"

    def close_card(self) -> None:
        self._apply(CloseCard(HOST))
        self._hold_last_card()
        self.session._changed()

    # -- the host's *next* -------------------------------------------------------------------------

    def wants_next(self) -> bool:
        """Whether the host's *next* belongs to the night now: between rounds (start the next one, once
        :data:`NEXT_GRACE_SECONDS` have passed since the last round ended), or a round that is due
        (:meth:`due`)."""
        engine = self.engine
        between = engine is not None and engine.phase == Phase.BETWEEN.value and self.session.state != "playing"
        now, ended = self.session.clock(), self.round_ended
        if self.held is not None:
            return True  # a final screen: *next* moves on to the standing (which then waits its grace)
        settled = ended is None or now - ended >= NEXT_GRACE_SECONDS
        return (between and settled) or self.due()

    # -- after a power cut -----------------------------------------------------------------------------

    def resume(self) -> bool:
        """Resume the night in the store, if one is running; True if one resumed. Call it instead of
        ``Session.resume_stored`` (it resumes the round in play itself)."""
        if self.store is None:
            return self.session.resume_stored()
        stored = self.store.unfinished_night()
        if stored is None:
            return self.session.resume_stored()
        try:
            engine = NightEngine(stored.players, stored.options)
            for data in stored.log:
                engine.apply(engine.action_from_json(data))
        except QuizboxError as exc:
            self.store.finish_night(stored.id, {"error": str(exc)}, status="abandoned")
            self.session.message, self.session.message_until = f"could not resume night {stored.id}: {exc}", None
            log.error("%s", self.session.message)
            return self.session.resume_stored()
        self.engine, self.night_id, self.seats, self.games = engine, stored.id, dict(stored.seats), dict(stored.rounds)
        self.league_plan = stored.league_plan
        round_ = engine.playing
        if round_ is not None:
            game = self.store.game(self.games[round_.number]) if round_.number in self.games else None
            if game is not None and game.status == "running":
                self.session.resume_stored()
                self.round_started = self.session.clock()
            elif game is not None and game.status == "finished":
                self._finish_from_store(game.setup, game.log)
            else:
                self._apply(AbandonRound(HOST))
        self.session.message = f"resumed the night ({engine.status()})"
        self.session.message_until = self.session.clock() + 30
        self.session._changed()
        return True

    def _finish_from_store(self, setup: JSON, log_entries: Sequence[JSON]) -> None:
        """The round's game ended before the power cut, the night had not scored it yet: score it from
        the game's stored log."""
        from appliance.session.session import setup_from_json

        game_setup = setup_from_json(setup)
        flow = self.session.flows(game_setup.game)(game_setup, self.session.rng, self.session.game_time())
        flow.restore(list(log_entries), self.session.game_time())
        if not isinstance(flow, EngineFlow):
            raise IllegalAction("the stored round has no game engine to score")
        self._apply(FinishRound(HOST, tuple(a.to_json() for a in flow.engine.log)))

    # -- what the TV and the handsets see --------------------------------------------------------------

    def decorate(self, state: JSON) -> JSON:
        """The board state with the night: its view, and between rounds its own scene."""
        engine = self.engine
        if engine is not None and engine.finished and self.session.game_id not in (None, *self.games.values()):
            self.engine = engine = None  # a game after the night: the podium makes way for it
        if engine is None:
            return state
        view = engine.public_view()
        view["id"] = self.night_id
        view["hold"] = self.hold_seconds
        view["joining"] = self.joining
        view["seated"] = sorted(self.seats.values())  # the handsets the night seats (a latecomer takes another)
        state["night"] = view
        names = {hid: player for player, hid in self.seats.items()}
        # the night's players by name, each in the colour they had when they first sat (copies: the session
        # keeps its list); a moved seat keeps its team's colour
        players = []
        for entry in state.get("players", []):
            if isinstance(entry, dict) and entry.get("handset") in names:
                player = names[entry["handset"]]
                colour = self.colours.setdefault(player, str(entry.get("colour", "")))
                entry = {**entry, "name": player, "colour": colour}
            players.append(entry)
        state["players"] = players
        if self.held == ROUND and self.session.flow is None:
            self.held = None  # the quizmaster went back to the lobby from a stale page: nothing to hold
        if self.held == ROUND:  # the round's own final screen (rules.md Quiz night 6)
            state["held"] = True
            state["can_advance"] = self.wants_next()
            return state
        if self.held == TIEBREAK:  # the deciding card's answer and numbers, before the podium
            state["scene"], state["held"] = "night-tiebreak", True
            state["can_advance"] = self.wants_next()
            return state
        if self.session.state == "playing":
            if self.due():
                state["can_advance"] = True
            return state
        if engine.finished or engine.phase in (Phase.TIEBREAK.value, Phase.CARD.value):
            state["scene"] = "night-podium" if engine.finished else "night-tiebreak"
        elif self.joining and engine.phase == Phase.BETWEEN.value:
            state["scene"] = "lobby"  # the join QR code for latecomers (the TV adds how to join)
        elif self.interval_until is not None and self.session.clock() < self.interval_until:
            state["scene"] = "night-interval"
            state["remaining"] = max(0, int(self.interval_until - self.session.clock() + 0.999))
        else:
            state["scene"] = "night"
            if self.league_table is not None:
                view["league"] = self.league_table[:10]  # the league's top ten, read-only, between rounds
        state["can_advance"] = self.wants_next()
        return state

    def prompt(self, handset_id: str) -> JSON | None:
        """Between rounds, every player's handset shows their night place (None while a round plays)."""
        engine = self.engine
        player = self.player_at(handset_id)
        if engine is None or self.session.state == "playing" or player is None or self.held == ROUND:
            return None  # a round's final screen: the game's own last word
        standing, places = engine.standing(), engine.places()
        card = engine.card
        if card is not None and player in card.waiting_for:  # one exact number (or the quizmaster types it)
            return {"kind": protocol.NUMBER, "title": "Tie-break!", "text": card.question[: protocol.MAX_TEXT],
                    "unit": ""}
        if card is not None and player in card.numbers:
            return info("Locked in", f"Your number: {format_plain(card.numbers[player])}. The closest to the "
                        "answer wins the tie-break.", wait=True)
        if engine.finished:
            title = "You won the night!" if player in engine.winners() else "The night is over"
        else:
            title = "Quiz night"
        points = standing[player]
        return info(title, f"Place {places[player]} with {points} point{'' if points == 1 else 's'}",
                    wait=not engine.finished)


# -- the admin's night commands (the hub's ``{"cmd": "night_..."}``) ------------------------------------------
