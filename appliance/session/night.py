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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from appliance.errors import IllegalAction, MalformedInput, QuizboxError
from appliance.games.base import HOST, JSON
from appliance.games.dealt import DealtCard
from appliance.games.night import (
    AbandonRound,
    FinishRound,
    NightEngine,
    RoundPlan,
    StartRound,
)
from appliance.games.night.state import Phase, Round
from appliance.infra.store import Store
from appliance.session.engine_flow import EngineFlow
from appliance.session.flow import GameSetup
from appliance.session.night_core import CARDS, HOST_STOP, ROUND, TIME, CardSource
from appliance.session.night_resume import NightResume
from appliance.session.night_room import NightRoom
from appliance.session.night_screen import NightScreen

if TYPE_CHECKING:
    from appliance.session.session import Session

log = logging.getLogger(__name__)

__all__ = ["CARDS", "HOST_STOP", "TIME", "CardSource", "NightRunner"]


class NightRunner(NightScreen, NightRoom, NightResume):
    def __init__(self, session: Session, store: Store | None = None, cards: CardSource | None = None) -> None:
        super().__init__(session, store, cards)
        session.night = self

    def start(
        self,
        seats: Mapping[str, str],
        rounds: Sequence[Mapping[str, Any] | RoundPlan],
        title: str = "",
        league_plan: str | None = None,
    ) -> None:
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
            night_id = self.store.create_night(
                title, list(seats), dict(seats), engine.options, teams={p: p for p in seats}, league_plan=league_plan
            )
        self.engine, self.night_id, self.seats, self.games = engine, night_id, dict(seats), {}
        self.league_plan = league_plan
        self.interval_until = None
        self.held = self.held_at = self.due_at = None
        self.colours, self.joining = {}, False
        self._keep_screen()  # the hold time set before goes on with the new night
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
        self._keep_screen()
        self.round_started = self.session.clock()
        self.session.start_game(setup, seats, game_id=game_id)

    def _game_log(self) -> list[JSON]:
        flow = self.session.flow
        if not isinstance(flow, EngineFlow):
            raise IllegalAction("the round in play has no game engine to score")
        return [action.to_json() for action in flow.engine.log]

    def finish_round(self, stopped: bool = True, why: str = HOST_STOP) -> None:
        """ "Finish now and score": the round in play is placed by its game's stopped rule (not abandoned)."""
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
