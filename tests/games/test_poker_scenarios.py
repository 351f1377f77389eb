"""Estimation poker scenario files (tests/scenarios/poker-*.json) and the poker scenario adapter.

Every rule id below is covered by at least one scenario file's ``rules`` list, and every file names
only ids from this list. The ids follow rules.md "Estimation poker" 1-12 (``poker-<rule>-<what>``).
What the TV may show before the showdown is not visible in a scenario's results and is tested on the
views instead (test_poker_engine.py, test_poker_properties.py).
"""

from __future__ import annotations

import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from appliance.box.replay_cli import main as replay
from appliance.errors import MalformedInput, QuizboxError
from appliance.games.base import HOST
from appliance.games.poker.actions import AllIn, Bet, Call, Check, EndGame, EnterRange, Fold, Raise, Reveal
from appliance.games.poker.refusals import CheckFacingBet
from appliance.games.poker.room import RoomPokerEngine
from appliance.games.poker.scenario import ADAPTER, parse_card, parse_step

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(SCENARIOS.glob("poker-*.json"))

RULES = (
    "poker-1-defaults",
    "poker-1-stack-and-ante-options",
    "poker-1-card-ante",
    "poker-2-first-option",
    "poker-2-first-rotates",
    "poker-2-rotation-skips-out-players",
    "poker-2-first-opens-every-round",
    "poker-2-next-active-opens",
    "poker-3-short-ante-all-in",
    "poker-4-no-range-folded",
    "poker-4-range-changed-before-betting",
    "poker-4-range-locked-refused",
    "poker-4-reversed-range-refused",
    "poker-4-numbers-in-any-form",
    "poker-5-check",
    "poker-5-check-facing-bet-refused",
    "poker-5-bet-at-least-ante",
    "poker-5-bet-below-ante-refused",
    "poker-5-raise-increment",
    "poker-5-raise-below-increment-refused",
    "poker-5-increment-resets-each-round",
    "poker-5-call",
    "poker-5-call-short-is-all-in",
    "poker-5-nothing-to-call-refused",
    "poker-5-fold-when-check-possible",
    "poker-5-allin-below-minimum",
    "poker-5-bet-when-bet-exists-refused",
    "poker-5-raise-without-bet-refused",
    "poker-5-out-of-turn-refused",
    "poker-5-more-than-stack-refused",
    "poker-5-negative-amount-refused",
    "poker-5-non-integer-amount-refused",
    "poker-6-short-allin-no-reopen",
    "poker-6-short-allins-add-up",
    "poker-6-full-raise-reopens",
    "poker-6-raise-nobody-can-answer-refused",
    "poker-5-allin-nobody-can-answer-taken",
    "poker-7-round-end",
    "poker-7-run-out",
    "poker-8-fold-to-one",
    "poker-8-fold-to-one-allin-shows-down",
    "poker-9-contains-beats-closer",
    "poker-9-narrowest-wins",
    "poker-9-closest-midpoint",
    "poker-9-equal-split",
    "poker-9-exact-decimals",
    "poker-9-side-pots",
    "poker-9-uncalled-returned",
    "poker-10-odd-chips-first-actor",
    "poker-10-odd-chips-nearest-clockwise",
    "poker-10-each-pot-split-alone",
    "poker-11-showdown-shows-ranges",
    "poker-11-folded-reveal",
    "poker-11-reveal-refused",
    "poker-12-out-of-chips",
    "poker-12-last-with-chips-wins",
    "poker-12-stopped-most-chips",
    "poker-12-stopped-tie-shared",
    "poker-12-no-input-after-end",
    "poker-13-dealt-round-robin",
    "poker-13-each-table-its-own-hand",
    "poker-13-ranges-lock-together",
    "poker-13-steps-interleave",
    "poker-13-hand-over-refused",
    "poker-13-waiting-single-player",
    "poker-14-final-table-forms",
    "poker-14-final-table-first-seat-then-rotation",
    "poker-15-last-with-chips-wins",
    "poker-15-stopped-most-chips",
    "poker-15-placement-across-the-room",
    "poker-malformed-step-refused",
)

REFUSALS = {
    "poker-call-short-goes-all-in.json": [],
    "poker-card-ante-and-rotation.json": ["NotYourTurn", "NotYourTurn"],
    "poker-defaults-check-down.json": ["NotYourTurn"] * 3,
    "poker-everyone-all-in-from-the-ante.json": ["WrongPhase"],
    "poker-fold-to-one-with-an-all-in-player.json": ["BelowMinimum"],
    "poker-folded-player-reveals.json": ["WrongPhase", "NothingToReveal", "NothingToReveal", "NothingToReveal"],
    "poker-full-raise-reopens.json": ["BelowMinimum"],
    "poker-increment-resets-each-round.json": ["BelowMinimum"] * 3,
    "poker-last-with-chips-wins.json": ["NotInQuestion", "WrongPhase", "WrongPhase", "NothingToReveal"],
    "poker-malformed-steps.json": ["MalformedInput"] * 8,
    "poker-next-active-player-opens.json": ["NotYourTurn"] * 2,
    "poker-one-player-left-runs-out.json": ["WrongPhase"],
    "poker-options-bet-raise-call.json": ["BelowMinimum"] * 3,
    "poker-raise-nobody-can-answer.json": ["NobodyToAnswer"],
    "poker-ranges-lock-and-no-range-folds.json": ["ReversedRange", "RangesLocked", "RangesLocked", "NotInQuestion"],
    "poker-refused-betting-actions.json": [
        "NothingToCall",
        "NothingToRaise",
        "NotEnoughChips",
        "BadAmount",
        "NotYourTurn",
        "CheckFacingBet",
        "AlreadyBet",
        "NotYourTurn",
        "NotEnoughChips",
    ],
    "poker-rotation-skips-out-player.json": ["NotInQuestion", "NotYourTurn", "NotInQuestion", "NotYourTurn"],
    "poker-short-all-in-bet-does-not-reopen.json": ["BelowMinimum", "NotReopened", "NotReopened"],
    "poker-short-all-ins-add-up.json": ["BelowMinimum", "NotYourTurn"],
    "poker-short-ante-all-in.json": ["NotYourTurn"],
    "poker-stopped-tie-shared.json": ["WrongPhase", "NotYourTurn"],
    "poker-room-two-tables-fold-and-showdown.json": ["RangesLocked", "NotYourTurn", "TableHandOver", "TableHandOver"],
    "poker-room-table-left-with-one-player-waits.json": ["WaitingAlone", "NotInQuestion", "WaitingAlone"],
    "poker-room-final-table-at-eight.json": ["NotInQuestion", "NotYourTurn", "NotYourTurn"],
    "poker-room-side-pots-and-outs-at-two-tables.json": ["TableHandOver"],
}
"""Why each ``expect_error`` step of a file is refused, in order: a refusal for the wrong reason
would pass ``--check`` unnoticed."""


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def check(path: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = replay(["--check", str(path)], out, err)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_refused_step_is_refused_for_its_reason(path: Path) -> None:
    data = load(path)
    engine = ADAPTER.new_engine(data["players"], data.get("options", {}))
    reasons = []
    for question in data["questions"]:
        ADAPTER.start_question(engine, question)
        for step in question["steps"]:
            try:
                ADAPTER.step(engine, step)
            except QuizboxError as exc:
                assert step.get("expect_error"), f"{step} refused: {exc}"
                reasons.append(type(exc).__name__)
        ADAPTER.finish_question(engine, question)
    assert reasons == REFUSALS.get(path.name, [])


def test_a_refused_step_not_marked_is_a_malformed_file(tmp_path: Path) -> None:
    data = load(SCENARIOS / "poker-options-bet-raise-call.json")
    del data["questions"][0]["steps"][3]["expect_error"]  # ann's bet of 19
    refused = tmp_path / "refused.json"
    refused.write_text(json.dumps(data), encoding="utf-8")
    code, output = check(refused)
    assert code == 2 and "bet to 19 refused: the minimum is 20" in output


# -- the adapter ---------------------------------------------------------------------------------------


def test_parse_step_reads_every_step_shape() -> None:
    assert parse_step({"player": "ann", "range": ["3M", "3,500,000"]}) == EnterRange(
        "ann", Decimal("3E+6"), Decimal(3500000)
    )
    assert parse_step({"player": "ann", "range": [-3, "2.5"]}) == EnterRange("ann", Decimal(-3), Decimal("2.5"))
    assert parse_step({"player": "ann", "action": "bet", "to": 20}) == Bet("ann", 20)
    assert parse_step({"player": "ann", "action": "raise", "to": 40, "expect_error": True}) == Raise("ann", 40)
    simple = {"check": Check, "call": Call, "fold": Fold, "allin": AllIn, "reveal": Reveal}
    for name, record in simple.items():
        assert parse_step({"player": "bob", "action": name}) == record("bob")
    assert parse_step({"player": HOST, "action": "end"}) == EndGame(HOST)
    assert parse_step({"player": "ann", "action": "end"}) == EndGame("ann")  # the engine refuses it


@pytest.mark.parametrize(
    "step",
    [
        {"action": "check"},
        {"player": 3, "action": "check"},
        {"player": "ann"},
        {"player": "ann", "range": ["1", "2"], "action": "check"},
        {"player": "ann", "range": "1-2"},
        {"player": "ann", "range": ["1", "2", "3"]},
        {"player": "ann", "range": [1.5, "2"]},
        {"player": "ann", "range": [True, "2"]},
        {"player": "ann", "action": "shove"},
        {"player": "ann", "action": "raise"},
        {"player": "ann", "action": "raise", "to": 2.5},
        {"player": "ann", "action": "bet", "to": True},
        {"player": "ann", "action": "allin", "to": 50},
        {"player": "ann", "to": 50},
        {"player": "ann", "pick": 0, "answer": True},
    ],
)
def test_parse_step_refuses_what_is_not_a_poker_step(step: dict[str, Any]) -> None:
    with pytest.raises(MalformedInput):
        parse_step(step)


@pytest.mark.parametrize(
    "card",
    [
        None,
        {"question": "Q", "answer": "1"},
        {"question": "Q", "answer": 206, "hints": ["a", "b"]},
        {"question": "Q", "answer": "lots", "hints": ["a", "b"]},
        {"question": "Q", "answer": "1", "hints": "a, b"},
        {"question": "Q", "answer": "1", "hints": ["a"]},
        {"question": "Q", "answer": "1", "hints": ["a", "b"], "ante": 2.5},
        {"question": "", "answer": "1", "hints": ["a", "b"]},
    ],
)
def test_a_card_that_cannot_be_read_is_malformed(card: Any) -> None:
    with pytest.raises(MalformedInput):
        parse_card(card, 10)


def test_the_card_ante_overrides_the_ante_option_for_its_question() -> None:
    assert parse_card({"question": "Q", "answer": "1", "hints": ["a", "b"], "ante": 40}, 10).ante == 40
    assert parse_card({"question": "Q", "answer": "1", "hints": ["a", "b"]}, 10).ante == 10


def started(players: list[str], ranges: dict[str, list[str]], options: dict[str, Any] | None = None) -> RoomPokerEngine:
    engine = ADAPTER.new_engine(players, options or {})
    assert isinstance(engine, RoomPokerEngine)
    ADAPTER.start_question(engine, {"card": {"question": "Q", "answer": "206", "hints": ["a", "b"]}})
    for player, pair in ranges.items():
        ADAPTER.step(engine, {"player": player, "range": pair})
    return engine


def test_the_first_action_step_starts_betting_and_a_refused_one_does_not() -> None:
    engine = started(["ann", "bob"], {"ann": ["200", "210"], "bob": ["0", "1"]})
    before = engine.snapshot()
    with pytest.raises(QuizboxError):
        ADAPTER.step(engine, {"player": "bob", "action": "check"})
    assert engine.snapshot() == before and engine.phase == "ranges"
    ADAPTER.step(engine, {"player": "bob", "range": ["205", "207"]})  # ranges are still open
    ADAPTER.step(engine, {"player": "ann", "action": "check"})
    assert engine.phase == "betting" and engine.to_act == "bob"


def test_a_refused_step_in_a_later_round_changes_nothing() -> None:
    engine = started(["ann", "bob", "cat"], {p: ["0", "500"] for p in ("ann", "bob", "cat")})
    for player in ("ann", "bob", "cat"):
        ADAPTER.step(engine, {"player": player, "action": "check"})
    ADAPTER.step(engine, {"player": "ann", "action": "bet", "to": 40})
    before = engine.snapshot()
    with pytest.raises(CheckFacingBet, match="round 2: the highest bet is 40"):
        ADAPTER.step(engine, {"player": "bob", "action": "check"})
    assert engine.snapshot() == before


def test_a_question_with_only_ranges_runs_out_when_nobody_can_bet() -> None:
    engine = started(["ann", "bob"], {"ann": ["200", "210"], "bob": ["0", "1"]}, {"stack": 10, "ante": 10})
    ADAPTER.finish_question(engine, {})
    assert engine.finished and engine.winners() == ["ann"]


def test_a_question_left_in_the_middle_of_betting_is_malformed() -> None:
    engine = started(["ann", "bob"], {"ann": ["200", "210"], "bob": ["0", "1"]})
    ADAPTER.step(engine, {"player": "ann", "action": "bet", "to": 20})
    with pytest.raises(MalformedInput, match="question 1 has no more steps but question 1, betting round 1: bob"):
        ADAPTER.finish_question(engine, {})


def test_a_question_without_ranges_cannot_start_betting() -> None:
    engine = started(["ann", "bob"], {})
    with pytest.raises(QuizboxError, match="nobody has entered a range"):
        ADAPTER.finish_question(engine, {})


def test_the_results_carry_the_readme_keys_and_the_extras() -> None:
    engine = started(["ann", "bob", "cat"], {"ann": ["200", "210"], "bob": ["150", "250"]})
    for step in (
        {"player": "ann", "action": "bet", "to": 100},
        {"player": "bob", "action": "fold"},
    ):
        ADAPTER.step(engine, step)
    ADAPTER.finish_question(engine, {})
    result = ADAPTER.question_result(engine)
    assert result == {
        "stacks": {"ann": 1020, "bob": 990, "cat": 990},
        "pots": [{"amount": 30, "eligible": ["ann"], "winners": ["ann"]}],
        "shares": [{"ann": 30}],
        "folded": ["bob", "cat"],
        "returned": {"ann": 100},
        "ranges": {},
        "answer": "206",
        "ante": 10,
        "first": "ann",
    }
    assert ADAPTER.final_result(engine) == {
        "stacks": {"ann": 1020, "bob": 990, "cat": 990},
        "winners": [],
        "finished": False,
        "ending": None,
    }


def test_no_question_result_before_a_question_is_played() -> None:
    with pytest.raises(MalformedInput, match="no question has been played"):
        ADAPTER.question_result(ADAPTER.new_engine(["ann", "bob"], {}))
