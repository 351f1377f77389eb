"""Confident? scenario files (tests/scenarios/confident-*.json) and the Confident scenario adapter.

Every rule id below is covered by at least one scenario file's ``rules`` list, and every file names
only ids from this list. The ids follow rules.md "Confident?" 1-8 (the number after ``confident-``);
the others are refusals that rules.md does not number. What the TV may show before the reveal is not
observable in a scenario's results and is tested on the views (test_confident_engine.py).
(tests/test_replay.py runs ``--check`` on every file.)
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from appliance.errors import MalformedInput
from appliance.games.base import HOST
from appliance.games.confident.actions import Answer, Close, EndGame, Settle, StartQuestion
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.confident.scenario import ADAPTER, parse_card, parse_step

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(SCENARIOS.glob("confident-*.json"))

RULES = (
    "confident-1-correct-inclusive",
    "confident-1-size-exact",
    "confident-1-bottom-above-top-refused",
    "confident-2-base-scoring",
    "confident-2-equal-smallest-all-3",
    "confident-3-everyone-correct-biggest-0",
    "confident-3-all-equal-size-all-3",
    "confident-4-no-range",
    "confident-4-timed-out",
    "confident-5-several-boosts-one-question",
    "confident-5-boost-once-per-game",
    "confident-5-boost-used-without-effect",
    "confident-5-boosts-belong-to-players",
    "confident-5-refused-boost-not-used",
    "confident-6-copy-chain",
    "confident-6-copy-cycle",
    "confident-6-copy-into-cycle",
    "confident-6-copy-no-range",
    "confident-6-copy-self-refused",
    "confident-6-copies-before-swaps",
    "confident-6-swap-pair",
    "confident-6-swap-web",
    "confident-6-swap-empty-board",
    "confident-6-swap-refused",
    "confident-6-double",
    "confident-6-double-negative",
    "confident-7-single-winner",
    "confident-7-smallest-size-wins",
    "confident-7-tie-shares",
    "confident-7-deck-ran-out",
    "confident-7-deck-ran-out-tie",
    "confident-8-final-hurdle",
    "confident-8-nail-it",
    "confident-8-fast-play",
    "confident-8-top-two",
    "confident-8-minus-points",
    "confident-8-two-players",
    "confident-8-two-players-double-only",
    "confident-answer-twice-refused",
    "confident-refused-out-of-phase",
    "confident-malformed-step-refused",
)


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_rules_md_confident_item_has_a_rule_id() -> None:
    assert {rule.split("-")[1] for rule in RULES if rule.split("-")[1].isdigit()} == {str(n) for n in range(1, 9)}


@pytest.mark.parametrize("variant", ["final_hurdle", "nail_it", "fast_play", "top_two", "minus_points", "two_players"])
def test_each_variant_is_played_by_a_scenario_file(variant: str) -> None:
    assert any(variant in load(path).get("options", {}).get("variants", []) for path in FILES)


# -- the adapter --------------------------------------------------------------------------------------------


def test_parse_card() -> None:
    card = parse_card({"question": "How far?", "answer": "3.2M", "unit": "km"})
    assert card == StartQuestion(HOST, "How far?", Decimal(3_200_000), "km")
    assert parse_card({"question": "How many?", "answer": "12"}).unit == ""


@pytest.mark.parametrize(
    ("card", "match"),
    [
        ("12", "a Confident card is an object"),
        ({"question": "Q?"}, "needs question and answer"),
        ({"question": "Q?", "answer": "12", "hint": "x"}, "unknown Confident card key\\(s\\) hint"),
        ({"question": "Q?", "answer": 12}, "must be given as text"),
        ({"question": "Q?", "answer": "12", "unit": 3}, "unit is text"),
        ({"question": "", "answer": "12"}, "needs a question"),
    ],
)
def test_bad_cards_are_malformed(card: object, match: str) -> None:
    with pytest.raises(MalformedInput, match=match):
        parse_card(card)


@pytest.mark.parametrize(
    ("step", "action"),
    [
        ({"player": "ann", "range": ["1", "2k"]}, Answer("ann", (Decimal(1), Decimal(2000)))),
        ({"player": "ann", "copy": "bob", "double": True}, Answer("ann", copy="bob", double=True)),
        (
            {"player": "ann", "range": ["1", "2"], "swap": ["bob", "cat"]},
            Answer("ann", (Decimal(1), Decimal(2)), swap=("bob", "cat")),
        ),
        ({"player": "ann", "expect_error": True}, Answer("ann")),
        ({"player": "", "action": "close"}, Close(HOST, "timeout")),
        ({"player": "", "action": "close", "reason": "everyone_in"}, Close(HOST, "everyone_in")),
        ({"player": "", "action": "settle"}, Settle(HOST)),
        ({"player": "", "action": "end"}, EndGame(HOST)),
    ],
)
def test_parse_step(step: dict[str, Any], action: object) -> None:
    assert parse_step(step) == action


@pytest.mark.parametrize(
    ("step", "match"),
    [
        ({"range": ["1", "2"]}, "a step needs a player name"),
        ({"player": "ann", "guess": "5"}, "unknown key\\(s\\) guess in ann's step"),
        ({"player": "ann", "range": "1-2"}, "a range is \\[bottom, top\\]"),
        ({"player": "ann", "range": ["1", "2", "3"]}, "a range is \\[bottom, top\\]"),
        ({"player": "ann", "range": ["1,5", "2"]}, "ambiguous"),
        ({"player": "ann", "range": ["1", "2"], "swap": "bob"}, "a swap is \\[name, name\\]"),
        ({"player": "ann", "range": ["1", "2"], "double": 1}, "double is true or false"),
        ({"player": "ann", "copy": 7}, "the name to copy must be text"),
        ({"player": "", "action": "shout"}, 'a host step \\(player ""\\) is'),
        ({"player": "", "range": ["1", "2"]}, 'a host step \\(player ""\\) is'),
        ({"player": "", "action": "settle", "reason": "timeout"}, "only close takes a reason"),
        ({"player": "", "action": "close", "reason": "bored"}, "entries close for one of"),
    ],
)
def test_bad_steps_are_malformed(step: dict[str, Any], match: str) -> None:
    with pytest.raises(MalformedInput, match=match):
        parse_step(step)


def test_finish_question_closes_and_settles_unless_steps_did() -> None:
    engine = ADAPTER.new_engine(["ann", "bob", "cat"], {})
    assert isinstance(engine, ConfidentEngine)
    question = {"card": {"question": "Q?", "answer": "5"}}
    ADAPTER.start_question(engine, question)
    ADAPTER.step(engine, {"player": "ann", "range": ["4", "6"]})
    ADAPTER.finish_question(engine, question)
    assert engine.current is not None and engine.current.closed is not None
    assert engine.current.closed.value == "timeout"
    assert ADAPTER.question_result(engine)["points"] == {"ann": 3, "bob": 0, "cat": 0}
    ADAPTER.start_question(engine, question)
    for player in ("ann", "bob", "cat"):
        ADAPTER.step(engine, {"player": player, "range": ["0", "10"]})
    ADAPTER.finish_question(engine, question)
    assert engine.current.closed.value == "everyone_in"
    log_length = len(engine.log)
    ADAPTER.finish_question(engine, question)  # already settled: nothing more to do
    assert len(engine.log) == log_length


def test_results_before_any_settlement_are_refused() -> None:
    engine = ADAPTER.new_engine(["ann", "bob", "cat"], {})
    with pytest.raises(MalformedInput, match="no question has been settled"):
        ADAPTER.question_result(engine)
    assert ADAPTER.final_result(engine) == {
        "scores": {"ann": 0, "bob": 0, "cat": 0},
        "winners": [],
        "finished": False,
        "ending": None,
    }


def test_question_result_has_the_contract_keys_first() -> None:
    engine = ADAPTER.new_engine(["ann", "bob", "cat"], {})
    question = {"card": {"question": "Q?", "answer": "5"}}
    ADAPTER.start_question(engine, question)
    ADAPTER.step(engine, {"player": "ann", "range": ["4", "6"]})
    ADAPTER.finish_question(engine, question)
    result = ADAPTER.question_result(engine)
    assert list(result)[:3] == ["ranges", "points", "scores"]
    assert result["ranges"] == {"ann": ["4", "6"], "bob": None, "cat": None}
