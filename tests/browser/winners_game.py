"""The test game ``guess`` (tests/support/guess.py) with a ``winners`` entry in its view, as every real game's
view has one (the admin page shows the game's own winners and never decides them)."""

from __future__ import annotations

from typing import Any

from appliance.session.flow import GameSetup, register_flow
from tests.support.guess import GuessFlow


class WinnersFlow(GuessFlow):
    game = "winners"

    def board(self) -> dict[str, Any]:
        view = super().board()
        best = max(self.scores.values()) if self.done and self.scores else None
        view["winners"] = [p for p, s in self.scores.items() if s == best] if best is not None else []
        return view


def make_winners(setup: GameSetup, rng: Any, now: float) -> WinnersFlow:
    return WinnersFlow(setup, rng)


register_flow("winners", make_winners)
