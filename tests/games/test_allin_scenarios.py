"""All In scenario files (tests/scenarios/allin-*.json) and the All In scenario adapter.

Every rule id below is covered by at least one scenario file's ``rules`` list, and every file names
only ids from this list. The ids follow rules.md "All In" 1-6, plus ``allin-close-*`` for the host's close of the
splits (the product's decision, appliance.games.allin.actions.Close); rules about what the TV may show
before a reveal are not observable in a scenario's results and are tested on the views instead
(test_allin_engine.py, test_allin_properties.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from appliance.errors import MalformedInput
from appliance.games.allin import AllInEngine, Close, EndGame, Read, Split
from appliance.games.allin.scenario import ADAPTER, parse_step
from appliance.games.base import HOST

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(SCENARIOS.glob("allin-*.json"))

RULES = (
    "allin-1-default-chips",
    "allin-1-chips-option",
    "allin-1-two-players",
    "allin-1-six-players",
    "allin-1-max-players-option",
    "allin-1-one-exclusion-per-game",
    "allin-2-reader-rotation",
    "allin-2-reader-without-chips",
    "allin-3-pick-statement",
    "allin-3-bad-pick-refused",
    "allin-3-only-reader-answers",
    "allin-3-read-once",
    "allin-4-exclusion",
    "allin-4-exclude-self-refused",
    "allin-4-exclude-no-chips-refused",
    "allin-4-exclude-unknown-refused",
    "allin-4-exclusion-leaves-nobody",
    "allin-5-split-all-chips",
    "allin-5-split-not-adding-up-refused",
    "allin-5-negative-split-refused",
    "allin-5-split-before-read-refused",
    "allin-5-reader-does-not-bet",
    "allin-5-excluded-does-not-bet",
    "allin-5-no-chips-does-not-bet",
    "allin-5-double-split-refused",
    "allin-5-wrong-side-lost",
    "allin-6-last-with-chips-wins",
    "allin-6-excluded-can-win",
    "allin-6-reader-wins-when-nobody",
    "allin-6-deck-out-most-chips",
    "allin-6-deck-out-tie-shared",
    "allin-6-end-only-between-questions",
    "allin-6-end-only-by-host",
    "allin-6-no-input-after-end",
    "allin-malformed-step-refused",
    # the product's decision where rules.md is silent (appliance.games.allin.actions.Close)
    "allin-close-missing-bettors",
    "allin-close-reader-passes",
    "allin-close-sat-out-can-win",
    "allin-close-refused-outside-betting",
    "allin-close-only-by-host",
)


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


# -- the adapter ----------------------------------------------------------------------------------


def test_parse_step_reads_the_three_step_shapes() -> None:
    assert parse_step({"player": "ann", "pick": 2, "answer": False}) == Read("ann", 2, False)
    assert parse_step({"player": "ann", "pick": 0, "answer": True, "exclude": "bob"}) == Read("ann", 0, True, "bob")
    assert parse_step({"player": "bob", "split": {"true": 3, "false": 4}, "expect_error": True}) == Split("bob", 3, 4)
    assert parse_step({"player": HOST, "action": "end"}) == EndGame(HOST)
    assert parse_step({"player": HOST, "action": "close"}) == Close(HOST, "host")
    assert parse_step({"player": HOST, "action": "close", "reason": "timeout"}) == Close(HOST, "timeout")


@pytest.mark.parametrize(
    "step",
    [
        {"pick": 0, "answer": True},
        {"player": 3, "pick": 0, "answer": True},
        {"player": "ann"},
        {"player": "ann", "answer": True},
        {"player": "ann", "pick": 0, "answer": True, "split": {"true": 1, "false": 0}},
        {"player": "bob", "split": [3, 4]},
        {"player": "bob", "split": {"true": 3, "false": 4, "maybe": 1}},
        {"player": "", "action": "stop"},
        {"player": "", "action": "close", "reason": "bored"},
        {"player": "", "action": "end", "reason": "timeout"},
        {"player": "", "reason": "timeout"},
        {"player": "ann", "range": ["1", "2"]},
    ],
)
def test_parse_step_refuses_what_is_not_an_allin_step(step: dict[str, Any]) -> None:
    with pytest.raises(MalformedInput):
        parse_step(step)


def test_question_without_a_card_is_malformed() -> None:
    engine = ADAPTER.new_engine(["ann", "bob"], {})
    with pytest.raises(MalformedInput, match="card with statements"):
        ADAPTER.start_question(engine, {"steps": []})
    assert engine.log == []


def test_a_question_that_ends_before_every_split_is_malformed() -> None:
    engine = ADAPTER.new_engine(["ann", "bob", "cat"], {"chips": 2})
    question = {"card": {"statements": ["a", "b", "c"]}, "steps": []}
    ADAPTER.start_question(engine, question)
    ADAPTER.step(engine, {"player": "ann", "pick": 0, "answer": True})
    ADAPTER.step(engine, {"player": "bob", "split": {"true": 2, "false": 0}})
    with pytest.raises(MalformedInput, match="question 1 has no more steps but .* waiting for splits from cat"):
        ADAPTER.finish_question(engine, question)


def test_results_follow_the_readme_keys() -> None:
    engine = ADAPTER.new_engine(["ann", "bob", "cat"], {"chips": 2})
    assert isinstance(engine, AllInEngine)
    question = {"card": {"statements": ["a", "b", "c"]}, "steps": []}
    ADAPTER.start_question(engine, question)
    for step in (
        {"player": "ann", "pick": 1, "answer": False, "exclude": "cat"},
        {"player": "bob", "split": {"true": 2, "false": 0}},
    ):
        ADAPTER.step(engine, step)
    ADAPTER.finish_question(engine, question)
    result = ADAPTER.question_result(engine)
    assert {k: result[k] for k in ("reader", "chips")} == {"reader": "ann", "chips": {"ann": 2, "bob": 0, "cat": 2}}
    assert (result["pick"], result["answer"], result["excluded"], result["lost"]) == (1, False, "cat", {"bob": 2})
    final = ADAPTER.final_result(engine)
    assert {k: final[k] for k in ("chips", "winners", "finished")} == {
        "chips": {"ann": 2, "bob": 0, "cat": 2},
        "winners": [],
        "finished": False,
    }
