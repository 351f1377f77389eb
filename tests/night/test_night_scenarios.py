"""Quiz night scenario files (tests/scenarios/night/*.json) and ``quizbox replay`` of the ``night``
format (docs/scenarios.md, section "night"; docs/rules.md "Quiz night").

Every rule id below is covered by at least one file's ``rules`` list, and every file names only ids
from this list. What a file cannot show (changing the rounds still to come, abandoning a round,
stopping a round mid-question, kill -9) is tested on the engine and the session.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from appliance.box.replay import EXIT_AGREE, EXIT_DISAGREE, EXIT_MALFORMED
from appliance.box.replay_cli import main

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted((SCENARIOS / "night").glob("*.json"))
KINDS = ("confident", "poker", "allin", "squizz", "buzzer")

RULES = (
    "night-1-five-round-kinds",
    "night-1-round-seats-a-subset",
    "night-2-confident-winner-first",
    "night-2-confident-equal-totals-share",
    "night-2-poker-last-with-chips",
    "night-2-poker-knocked-out-lower",
    "night-2-poker-knockout-start-chips",
    "night-2-poker-room-across-tables",
    "night-2-allin-winner-first",
    "night-2-allin-reader-wins-without-chips",
    "night-2-allin-ran-out-earlier-lower",
    "night-2-allin-out-same-question-share",
    "night-2-squizz-points-then-correct",
    "night-2-squizz-share",
    "night-2-buzzer-points",
    *(f"night-2-stopped-{kind}" for kind in KINDS),
    "night-3-points-one-plus-below",
    "night-3-shared-place-same-points",
    "night-3-sat-out-scores-zero",
    "night-3-multiplier",
    "night-4-standing-sum",
    "night-4-tiebreak-two-way",
    "night-4-tiebreak-three-way",
    "night-4-tiebreak-another-card",
    "night-4-closest-by-absolute-difference",
    "night-4-not-tied-refused",
    "night-4-no-longer-tied-refused",
    "night-4-one-number-per-card",
    "night-4-still-tied-not-finished",
    "night-4-unfinished-round-not-finished",
    # Quizbox's decision where rules.md is silent (appliance.games.night.engine._resolve)
    "night-4-no-number-falls-behind",
)


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def replay(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, data: Any, name: str = "night.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


# -- the files -------------------------------------------------------------------------------------


def test_there_are_at_least_12_night_files_with_all_five_round_kinds() -> None:
    assert len(FILES) >= 12
    kinds = {round_["game"] for path in FILES for round_ in load(path)["rounds"]}
    assert kinds == set(KINDS)
    stopped = {round_["game"] for path in FILES for round_ in load(path)["rounds"] if round_.get("stopped")}
    assert stopped == set(KINDS)


def test_every_rule_is_covered_by_a_night_file() -> None:
    covered = {rule for path in FILES for rule in load(path)["rules"]}
    assert sorted(set(RULES) - covered) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_names_known_rules(path: Path) -> None:
    data = load(path)
    assert data["rules"], "a night file names the rules it covers"
    assert sorted({r for r in data["rules"] if not r.startswith("room-")} - set(RULES)) == []  # or the room's
    assert "expect" in data and all("expect" in round_ for round_ in data["rounds"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_passes_the_replay_check(path: Path) -> None:
    code, out, err = replay("--check", str(path))
    assert code == EXIT_AGREE, out + err
    assert out.startswith("ok ")


def test_replay_prints_rounds_and_the_final_result() -> None:
    code, out, _ = replay(str(SCENARIOS / "night" / "night-sitting-out.json"))
    assert code == EXIT_AGREE
    result = json.loads(out)
    assert set(result) == {"rounds", "final"}
    assert {"game", "questions", "final", "places", "points"} <= set(result["rounds"][0])
    assert {"standing", "tiebreak", "winners", "finished"} <= set(result["final"])
    allin, poker, buzzer = result["rounds"]
    assert [allin["game"], poker["game"], buzzer["game"]] == ["allin", "poker", "buzzer"]
    assert list(poker["places"]) == ["bob", "cat", "dan"]  # seated players only, seat order
    assert list(poker["points"]) == ["ann", "bob", "cat", "dan"]  # every night player
    assert poker["points"]["ann"] == 0 and len(poker["questions"]) == 1
    assert result["final"]["standing"] == {"ann": 4, "bob": 10, "cat": 3, "dan": 2}


def test_the_shared_contract_keys_mean_what_the_readme_says(tmp_path: Path) -> None:
    """A night written only with the README's keys (no Quizbox extras) plays."""
    night = {
        "game": "night",
        "players": ["ann", "bob", "cat"],
        "rounds": [
            {
                "game": "confident",
                "seats": ["ann", "bob", "cat"],
                "options": {"target": 15},
                "stopped": True,
                "multiplier": 3,
                "questions": [
                    {
                        "card": {"question": "Moon walkers?", "answer": "12"},
                        "steps": [
                            {"player": "ann", "range": ["10", "14"]},
                            {"player": "bob", "range": ["12", "12"]},
                            {"player": "cat", "range": ["1", "2"]},
                        ],
                        "note": "bob is exact",
                    }
                ],
                "expect": {"places": {"ann": 2, "bob": 1, "cat": 3}, "points": {"ann": 6, "bob": 9, "cat": 3}},
            }
        ],
        "expect": {"standing": {"ann": 6, "bob": 9, "cat": 3}, "tiebreak": [], "winners": ["bob"], "finished": True},
        "note": "free text",
    }
    code, out, err = replay("--check", write(tmp_path, night))
    assert code == EXIT_AGREE, out + err


# -- exit codes ------------------------------------------------------------------------------------


def test_a_wrong_round_expect_fails_with_a_readable_difference(tmp_path: Path) -> None:
    data = load(SCENARIOS / "night" / "night-multiplier.json")
    data["rounds"][1]["expect"]["points"]["cat"] = 3
    code, out, _ = replay("--check", write(tmp_path, data))
    assert code == EXIT_DISAGREE
    assert "rounds[1].expect.points.cat: expected 3, got 6" in out


def test_a_wrong_question_expect_inside_a_round_fails(tmp_path: Path) -> None:
    data = load(SCENARIOS / "night" / "night-three-rounds.json")
    data["rounds"][0]["questions"][0]["expect"]["scores"]["bob"] = 2
    code, out, _ = replay("--check", write(tmp_path, data))
    assert code == EXIT_DISAGREE
    assert "rounds[0].questions[0].expect.scores.bob: expected 2, got 3" in out


def test_a_wrong_final_expect_fails(tmp_path: Path) -> None:
    data = load(SCENARIOS / "night" / "night-tiebreak-two-way.json")
    data["expect"]["tiebreak"] = [{"ann": "17.50", "bob": "20"}]
    code, out, _ = replay("--check", write(tmp_path, data))
    assert code == EXIT_DISAGREE
    assert 'expect.tiebreak[0].ann: expected "17.50", got "17.5"' in out


def test_a_rounds_final_is_compared_as_a_games_final_is_a_subset_of_keys(tmp_path: Path) -> None:
    # the contract: a round's ``final`` is "that game's final result, as in its own file", where the
    # expect names the keys it checks; an outside file names the contract's keys only (not ``ending``)
    data = load(SCENARIOS / "night" / "night-three-rounds.json")
    final = data["rounds"][0]["expect"]["final"]
    final.pop("ending", None)
    code, out, _ = replay("--check", write(tmp_path, data))
    assert code == EXIT_AGREE, out
    final["scores"] = {**final["scores"], "bob": final["scores"]["bob"] + 1}  # a named key still counts
    code, out, _ = replay("--check", write(tmp_path, data))
    assert code == EXIT_DISAGREE and "rounds[0].expect.final.scores.bob: expected" in out
    final["ending"] = "deck"  # and so does a named extra key
    code, out, _ = replay("--check", write(tmp_path, data))
    assert code == EXIT_DISAGREE and "rounds[0].expect.final.ending: expected" in out


def test_an_accepted_expect_error_tiebreak_step_fails(tmp_path: Path) -> None:
    data = load(SCENARIOS / "night" / "night-tiebreak-two-way.json")
    data["tiebreak"][0]["steps"][1]["expect_error"] = True
    code, out, _ = replay("--check", write(tmp_path, data))
    assert code == EXIT_DISAGREE
    assert "marked expect_error but the engine accepted it" in out


def test_without_check_the_expects_are_ignored(tmp_path: Path) -> None:
    data = load(SCENARIOS / "night" / "night-multiplier.json")
    data["expect"]["winners"] = ["ann"]
    code, out, _ = replay(write(tmp_path, data))
    assert code == EXIT_AGREE and json.loads(out)["final"]["winners"] == ["cat"]


def _night(**changes: Any) -> dict[str, Any]:
    data = load(SCENARIOS / "night" / "night-multiplier.json")
    data.update(changes)
    return data


def _round_change(index: int, **changes: Any) -> dict[str, Any]:
    data = _night()
    data["rounds"][index].update(changes)
    return data


MALFORMED = [
    ("unknown top key", _night(round=[]), "unknown key(s) round"),
    ("a game other than night", {**_night(), "game": "poker"}, "rounds belong to a night file"),
    ("no players", {k: v for k, v in _night().items() if k != "players"}, "missing key(s) players"),
    ("duplicate players", _night(players=["ann", "ann", "cat"]), "must be different"),
    ("rounds not a list", _night(rounds={}), "rounds must be a JSON list"),
    ("round with players", _round_change(0, players=["ann"]), "no players of its own"),
    ("unknown round key", _round_change(0, expected={}), "unknown key(s) expected"),
    ("unknown round game", _round_change(0, game="bingo"), "unknown game"),
    ("stopped not bool", _round_change(0, stopped="yes"), "stopped must be true or false"),
    ("multiplier not whole", _round_change(0, multiplier=1.5), "multiplier must be a whole number"),
    ("negative multiplier", _round_change(0, multiplier=-1), "multiplier must be a whole number"),
    ("a stranger seated", _round_change(0, seats=["ann", "zed", "cat"]), "zed sit(s) the confident round"),
    ("a player seated twice", _round_change(0, seats=["ann", "ann", "cat"]), "sits the confident round twice"),
    ("too few seats for the game", _round_change(0, seats=["ann", "bob"]), "round 1 (Confident?)"),
    ("bad round option", _round_change(1, options={"lockout": "no"}), "lockout must be true or false"),
    ("a refused step not marked", _round_change(1, questions=[{"card": {}, "steps": [{"player": "zed", "press": 1}]}]),
     "refused"),
    ("tiebreak card without answer", _night(tiebreak=[{"card": {"question": "q"}, "steps": []}]),
     "missing key(s) answer"),
    ("tiebreak step with range", _night(tiebreak=[{"card": {"question": "q", "answer": "1"},
                                                   "steps": [{"player": "ann", "range": ["1", "2"]}]}]),
     "missing key(s) number"),
]


@pytest.mark.parametrize("name,data,message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_night_files_exit_2(tmp_path: Path, name: str, data: Any, message: str) -> None:
    code, out, err = replay("--check", write(tmp_path, data))
    assert code == EXIT_MALFORMED, out + err
    assert message in err


def test_a_round_left_in_play_before_another_round_is_malformed(tmp_path: Path) -> None:
    data = load(SCENARIOS / "night" / "night-unfinished-last-round.json")
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    code, _, err = replay("--check", write(tmp_path, data))
    assert code == EXIT_MALFORMED
    assert "rounds[2]: cannot start: rounds[1] is neither over nor stopped" in err


def test_a_tiebreak_number_that_is_not_a_number_is_refused(tmp_path: Path) -> None:
    data = load(SCENARIOS / "night" / "night-tiebreak-two-way.json")
    data["tiebreak"][0]["steps"][1]["number"] = "about three hundred"
    code, _, err = replay("--check", write(tmp_path, data))
    assert code == EXIT_MALFORMED and "tiebreak[0].steps[1] (ann): refused" in err
