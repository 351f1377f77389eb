"""A quiz night after a power cut: the night in the store resumes with its round in play."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from appliance.errors import IllegalAction, QuizboxError
from appliance.games.base import HOST, JSON
from appliance.games.night import (
    AbandonRound,
    FinishRound,
    NightEngine,
)
from appliance.session.engine_flow import EngineFlow
from appliance.session.night_core import NightCore

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
