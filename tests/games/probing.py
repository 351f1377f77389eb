"""What the games' hypothesis properties share: probing an engine with inputs it may refuse."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import strategies as st

from appliance.errors import IllegalAction
from appliance.games.base import Action, Engine


def refuse_probes(engine: Engine, data: st.DataObject, candidates: Sequence[Action]) -> None:
    """Try one or two of ``candidates`` now: each the engine refuses raises IllegalAction and leaves the
    snapshot exactly as it was (a refused input changes nothing)."""
    for action in data.draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=2), label="probes"):
        if engine.can(action):
            continue
        before = engine.snapshot()
        with pytest.raises(IllegalAction):
            engine.apply(action)
        assert engine.snapshot() == before
