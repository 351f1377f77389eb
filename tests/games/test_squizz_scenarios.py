"""sQuizz scenario files (tests/scenarios/squizz-*.json) and the sQuizz scenario adapter.

Every rule id below is covered by at least one scenario file's ``rules`` list, and every file names
only ids from this list. The ids follow rules.md "sQuizz" 1-6, plus ``squizz-close-*`` for the
host's close of the answers (the product's decision, appliance.games.squizz.actions.Close). What a
scenario cannot show is tested elsewhere: hidden token values and answers (the views: test_squizz_engine.py and
test_squizz_properties.py), a card refused for equal values (a malformed file, below), team forming
(test_squizz_table.py).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from appliance.box.replay_cli import main as replay
from appliance.errors import DeckError, MalformedInput
from appliance.games.squizz import Answer, Close, EndGame, SquizzEngine
from appliance.games.squizz.scenario import ADAPTER, parse_step

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(SCENARIOS.glob("squizz-*.json"))

RULES = (
    *(f"squizz-1-table-{count}-players" for count in range(2, 9)),
    "squizz-1-every-token-used",
    "squizz-1-teams",
    "squizz-2-first-reader-default",
    "squizz-2-first-reader-option",
    "squizz-2-one-read-per-lap",
    "squizz-3-die-smallest",
    "squizz-3-die-middle",
    "squizz-3-die-largest",
    "squizz-4-values-any-number-form",
    "squizz-4-negative-and-fractional-values",
    "squizz-4-label-is-text-letter-is-position",
    "squizz-5-reader-does-not-answer",
    "squizz-5-bad-answer-refused",
    "squizz-5-token-outside-set-refused",
    "squizz-5-token-used-once",
    "squizz-5-double-answer-refused",
    "squizz-5-unknown-player-refused",
    "squizz-5-correct-token-scores",
    "squizz-5-wrong-token-lost",
    "squizz-5-correct-public",
    "squizz-6-most-points-wins",
    "squizz-6-tie-more-correct-wins",
    "squizz-6-tie-shared",
    "squizz-6-no-winner-before-end",
    "squizz-malformed-step-refused",
    # the product's decision where rules.md is silent (appliance.games.squizz.actions.Close)
    "squizz-close-missing-answers",
    "squizz-close-uses-lowest-token",
    "squizz-close-refused-outside-answering",
    "squizz-close-only-by-host",
    # the room form (docs/rules.md squizz-room)
    "squizz-room-nobody-reads",
    "squizz-room-above-8-only-form",
    "squizz-room-readers-false",
    "squizz-room-tokens-option",
    "squizz-room-default-tokens",
    "squizz-room-k-cards",
    "squizz-room-every-token-used",
    "squizz-room-scoring",
    "squizz-room-forty",
)

MALFORMED = {
    "squizz-room-tokens-with-readers.json": "option tokens belongs to the room form (readers false)",
    "squizz-room-tokens-without-readers-option.json": "option tokens belongs to the room form (readers false)",
    "squizz-room-first-reader.json": "option first_reader belongs to the form with readers",
    "squizz-room-first-reader-readers-false.json": "option first_reader belongs to the form with readers",
    "squizz-room-readers-true-above-8.json": "with readers seats 2 to 8 players, got 9",
    "squizz-room-tokens-13.json": "option tokens must be a whole number from 2 to 12, got 13",
}
"""tests/scenarios/malformed/: room-form option combinations the contract calls malformed (exit 2)."""

YODA = {
    "prompt": "Age of...",
    "propositions": [
        {"label": "Yoda", "value": "900"},
        {"label": "Papa Smurf", "value": "542"},
        {"label": "Noah", "value": "950"},
    ],
}


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_full_games_use_every_token_of_every_player_exactly_once() -> None:
    """rules.md sQuizz 1 and docs/rules.md squizz-room, checked on the files themselves: the accepted steps of
    a finished game use each player's tokens 1..N (the rulebook's table; in the room form 1..``tokens``, 6
    unless set) once each, over exactly N questions in the room form; the host's close uses up the lowest
    unused token of each answerer who had not answered (the product's decision)."""
    finished = [load(path) for path in FILES if load(path)["expect"]["finished"]]
    assert len(finished) >= 11
    closed = rooms = 0
    for data in finished:
        room = len(data["players"]) > 8 or data.get("options", {}).get("readers") is False
        if room:
            highest = data.get("options", {}).get("tokens", 6)
            assert len(data["questions"]) == highest
            rooms += 1
        else:
            highest = {2: 6, 3: 6, 4: 6, 5: 8, 6: 5, 7: 6, 8: 7}[len(data["players"])]
        used: dict[str, list[int]] = {p: [] for p in data["players"]}
        for question in data["questions"]:
            reader = question["expect"]["reader"]
            assert (reader is None) == room
            answered = set() if reader is None else {reader}
            for step in question["steps"]:
                if step.get("expect_error"):
                    continue
                if step["player"] == "":  # the host's close
                    for player in (p for p in data["players"] if p not in answered):
                        used[player].append(min(set(range(1, highest + 1)) - set(used[player])))
                    closed += 1
                    continue
                used[step["player"]].append(step["token"])
                answered.add(step["player"])
            if room:  # nobody reads: every player is in on every card
                assert answered == set(data["players"])
        assert all(sorted(tokens) == list(range(1, highest + 1)) for tokens in used.values())
    assert closed > 0
    assert rooms >= 3


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_room_form_option_mistakes_make_the_file_malformed(name: str) -> None:
    """The contract: ``tokens`` with readers, ``first_reader`` in the room form and ``readers`` true above 8
    players are malformed files (exit 2, with and without --check), refused before any question."""
    path = SCENARIOS / "malformed" / name
    for flags in (["--check"], []):
        out, err = io.StringIO(), io.StringIO()
        assert replay([*flags, str(path)], out, err) == 2
        assert out.getvalue() == ""
        assert "players/options: refused: sQuizz " + MALFORMED[name] in err.getvalue()


def test_every_malformed_room_file_is_checked() -> None:
    assert sorted(p.name for p in (SCENARIOS / "malformed").glob("squizz-*.json")) == sorted(MALFORMED)


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_card_with_equal_values_makes_the_file_malformed(tmp_path: Path) -> None:
    """rules.md sQuizz 4: such a card is refused, so the replay cannot play the file (exit 2)."""
    card = json.loads(json.dumps(YODA))
    card["propositions"][2]["value"] = "900.0"
    data = {"game": "squizz", "players": ["ann", "bob"], "questions": [{"card": card, "die": 2, "steps": []}]}
    err = io.StringIO()
    assert replay(["--check", write(tmp_path, data)], io.StringIO(), err) == 2
    assert "the three values must all be different" in err.getvalue()


# -- the adapter ----------------------------------------------------------------------------------


def test_parse_step_reads_an_answer_and_the_hosts_close() -> None:
    assert parse_step({"player": "bob", "answer": "C", "token": 4, "expect_error": False}) == Answer("bob", "C", 4)
    assert parse_step({"player": "", "action": "close"}) == Close("", "host")
    assert parse_step({"player": "", "action": "close", "reason": "timeout"}) == Close("", "timeout")
    assert parse_step({"player": "", "action": "end"}) == EndGame("")


@pytest.mark.parametrize(
    "step",
    [
        {"answer": "A", "token": 1},
        {"player": None, "answer": "A", "token": 1},
        {"player": "bob", "answer": "A"},
        {"player": "bob", "token": 1},
        {"player": "bob", "answer": "A", "token": 1, "double": True},
        {"player": "bob", "answer": "A", "token": "1"},
        {"player": "", "action": "end", "reason": "timeout"},
        {"player": "", "action": "close", "reason": "bored"},
        {"player": "", "action": "close", "answer": "A"},
        {"player": "", "reason": "timeout"},
    ],
)
def test_parse_step_refuses_what_is_not_an_answer(step: dict[str, Any]) -> None:
    with pytest.raises(MalformedInput):
        parse_step(step)


@pytest.mark.parametrize(
    "question,error",
    [({"card": YODA}, MalformedInput), ({"card": {"prompt": "p"}, "die": 1}, DeckError)],
)
def test_a_question_needs_its_die_and_a_valid_card_and_nothing_is_applied_without(
    question: dict[str, Any], error: type[Exception]
) -> None:
    engine = ADAPTER.new_engine(["ann", "bob"], {})
    with pytest.raises(error):
        ADAPTER.start_question(engine, question)
    assert engine.log == []


def test_a_question_that_ends_before_every_answer_is_malformed() -> None:
    engine = ADAPTER.new_engine(["ann", "bob", "cat"], {})
    question = {"card": YODA, "die": 2, "steps": []}
    ADAPTER.start_question(engine, question)
    ADAPTER.step(engine, {"player": "bob", "answer": "A", "token": 1})
    with pytest.raises(MalformedInput, match="question 1 has no more steps but .* waiting for answers from cat"):
        ADAPTER.finish_question(engine, question)


def test_results_follow_the_readme_keys() -> None:
    engine = ADAPTER.new_engine(["ann", "bob", "cat"], {"first_reader": "bob"})
    assert isinstance(engine, SquizzEngine)
    question = {"card": YODA, "die": 2, "steps": []}
    ADAPTER.start_question(engine, question)
    ADAPTER.step(engine, {"player": "cat", "answer": "A", "token": 6})
    ADAPTER.step(engine, {"player": "ann", "answer": "C", "token": 2})
    ADAPTER.finish_question(engine, question)
    result = ADAPTER.question_result(engine)
    assert {k: result[k] for k in ("reader", "correct")} == {"reader": "bob", "correct": ["cat"]}
    assert (result["die"], result["correct_answer"], result["answers"]) == (2, "A", {"ann": "C", "cat": "A"})
    assert ADAPTER.final_result(engine) == {
        "scores": {"ann": 0, "bob": 0, "cat": 6},
        "correct_counts": {"ann": 0, "bob": 0, "cat": 1},
        "winners": [],
        "finished": False,
    }
