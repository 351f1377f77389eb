"""A night's run-sheet can say "unseen only" for a round (issue 35): the round's plan keeps it, the session
asks the decks for unseen cards only, and a bad value is refused naming it."""

from __future__ import annotations

import pytest

from appliance.errors import MalformedInput
from appliance.games.night.plan import RoundPlan


def test_unseen_only_round_trips_through_a_run_sheet() -> None:
    plan = RoundPlan.from_json({"game": "buzzer", "deck": "buzzer-general", "unseen": True})
    assert plan.unseen is True and plan.to_json()["unseen"] is True
    assert RoundPlan.from_json(plan.to_json()) == plan
    assert "unseen" not in RoundPlan.from_json({"game": "buzzer"}).to_json()  # left out: every card may come


def test_unseen_must_be_true_or_false() -> None:
    with pytest.raises(MalformedInput, match="unseen is true or false"):
        RoundPlan.from_json({"game": "buzzer", "unseen": "yes"})


def test_a_round_planned_unseen_only_asks_the_decks_for_unseen_cards(tmp_path: object) -> None:
    from appliance.flows import flow_factory
    from appliance.games.dealt import DealtCard
    from appliance.session.night import NightRunner
    from appliance.session.session import Session

    asked: list[dict[str, object]] = []

    def cards(game: str, how: object) -> list[DealtCard]:
        asked.append(dict(how))  # type: ignore[call-overload]
        return [DealtCard(f"c{i}", {"question": f"Q{i}?", "answer": "A"}) for i in range(3)]

    session = Session(lambda: 0.0, flows=flow_factory)
    runner = NightRunner(session, None, cards)
    runner.start({"Ann": "ann", "Bob": "bob"},
                 [{"game": "buzzer", "deck": "pub", "unseen": True}, {"game": "buzzer", "deck": "pub"}])
    runner.start_round()
    runner.finish_round()
    runner.start_round()
    assert asked == [{"deck": "pub", "unseen": True}, {"deck": "pub"}]
