"""A quiz night after a power cut: the night in the store resumes with its round in play."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from appliance.errors import IllegalAction, QuizboxError
from appliance.games.base import HOST, JSON, Action
from appliance.games.night import (
    AbandonRound,
    FinishRound,
    NightEngine,
    StartRound,
)
from appliance.games.night.state import Phase
from appliance.session.engine_flow import EngineFlow
from appliance.session.night_core import MAX_HOLD_SECONDS, ROUND, NightCore

log = logging.getLogger(__name__)


class NightResume(NightCore):
    # -- after a power cut -----------------------------------------------------------------------------

    def resume(self) -> bool:
        """Resume the night in the store, if one is running; True if one resumed. Call it instead of
        ``Session.resume_stored`` (it resumes the round in play itself)."""
        if self.store is None:
            return self.session.resume_stored()
        stored = self.store.unfinished_night()
        if stored is None:
            return self.session.resume_stored()
        last: tuple[int, Action] | None = None
        """The round that started or ended last, and how (the night's log tells which round finished last)."""
        try:
            engine = NightEngine(stored.players, stored.options)
            for data in stored.log:
                action = engine.action_from_json(data)
                playing = engine.playing
                engine.apply(action)
                if isinstance(action, StartRound) and engine.playing is not None:
                    last = (engine.playing.number, action)
                elif isinstance(action, FinishRound | AbandonRound) and playing is not None:
                    last = (playing.number, action)
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
                self._finish_from_store(game.setup, game.log, game.seats, game.id)
            else:
                self._apply(AbandonRound(HOST))
        self._screen_back(stored.screen, last if round_ is None else None)
        self.session.message = f"resumed the night ({engine.status()})"
        self.session.message_until = self.session.clock() + 30
        self.session._changed()
        return True

    def _finish_from_store(self, setup: JSON, log_entries: Sequence[JSON], seats: dict[str, str], game_id: int) -> None:
        """The round's game ended before the power cut, the night had not scored it yet: score it from
        the game's stored log, and hold its final screen."""
        from appliance.session.session import setup_from_json

        game_setup = setup_from_json(setup)
        flow = self.session.flows(game_setup.game)(game_setup, self.session.rng, self.session.game_time())
        flow.restore(list(log_entries), self.session.game_time())
        if not isinstance(flow, EngineFlow):
            raise IllegalAction("the stored round has no game engine to score")
        self._apply(FinishRound(HOST, tuple(a.to_json() for a in flow.engine.log)))
        self.session.show_ended(flow, game_setup, seats, game_id, len(log_entries))
        self._hold(ROUND)  # the round's own final screen, which the power cut did not let the TV hold

    def _screen_back(self, screen: JSON, last: tuple[int, Action] | None) -> None:
        """What the quizmaster set for the night's screens comes back after a restart (its hold time, the
        join QR code), and the final screen the TV held: the round that finished last (``last``: its number
        and the action that ended it) on its own final screen.
        What the stored screen says that no longer fits the night is left out (the standing shows)."""
        engine = self._engine()
        hold = screen.get("hold")
        valid = isinstance(hold, int) and not isinstance(hold, bool) and 1 <= hold <= MAX_HOLD_SECONDS
        self.hold_seconds = hold if valid and isinstance(hold, int) else None
        self.joining = screen.get("joining") is True and engine.phase == Phase.BETWEEN.value
        # a held tie-break card is not brought back: the card that decides the night finishes it, and a
        # finished night does not resume (the box starts in its lobby; the night is in Past nights)
        if screen.get("held") == ROUND and last is not None and isinstance(last[1], FinishRound):
            self._round_back(last[0], last[1])

    def _round_back(self, number: int, finish: FinishRound) -> None:
        """Round ``number``'s game, over, back on the board as it ended (its stopped rule applied again when
        the night finished it early): its final screen, held until *next*."""
        from appliance.session.session import setup_from_json

        assert self.store is not None
        game = self.store.game(self.games[number]) if number in self.games else None
        if game is None:
            return
        try:
            setup = setup_from_json(game.setup)
            flow = self.session.flows(setup.game)(setup, self.session.rng, self.session.game_time())
            flow.restore(list(game.log), self.session.game_time())
            if finish.stopped and isinstance(flow, EngineFlow) and not flow.finished:
                flow.finish_now(self.session.game_time())
        except QuizboxError as exc:
            log.error("round %d's final screen could not be shown again: %s", number, exc)
            return
        self.session.show_ended(flow, setup, game.seats, game.id, len(game.log))
        self._hold(ROUND)
