"""``quizbox replay [--check] FILE`` (appliance.box.replay): every scenario file, the shared examples, the
exit codes (0 agree, 1 disagree, 2 malformed or refused) and readable differences."""

from __future__ import annotations

import copy
import importlib.util
import io
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from appliance.box import replay
from appliance.box.replay import EXIT_AGREE, EXIT_DISAGREE, EXIT_MALFORMED, differences
from appliance.box.replay_cli import main
from appliance.errors import IllegalAction
from appliance.games.base import Engine

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_FILES = sorted((ROOT / "tests" / "scenarios").glob("*.json"))

# Verbatim copies of the contract's two examples (tests/scenarios/contract/, docs/scenarios.md).
CONFIDENT_MOON = """{
  "game": "confident",
  "players": ["ann", "bob", "cat", "dan"],
  "options": {"target": 15},
  "questions": [
    {
      "card": {"question": "The moon. How many people have been on it?", "answer": "12", "unit": "people"},
      "steps": [
        {"player": "ann", "range": ["8", "15"]},
        {"player": "bob", "range": ["5", "30"]},
        {"player": "cat", "range": ["12", "40"]},
        {"player": "dan", "range": ["20", "100"]}
      ],
      "expect": {"points": {"ann": 3, "bob": 1, "cat": 1, "dan": 0},
                 "scores": {"ann": 3, "bob": 1, "cat": 1, "dan": 0}}
    }
  ],
  "expect": {"finished": false}
}
"""

POKER_ALLIN_CALLED = """{
  "game": "poker",
  "players": ["ann", "bob", "cat"],
  "options": {"stack": 100, "ante": 10, "first": "ann"},
  "questions": [
    {
      "card": {"question": "How many bones are in an adult human body?", "answer": "206",
               "hints": ["More than 150.", "Fewer than 250."]},
      "steps": [
        {"player": "ann", "range": ["200", "210"]},
        {"player": "bob", "range": ["150", "250"]},
        {"player": "cat", "range": ["300", "400"]},
        {"player": "ann", "action": "allin"},
        {"player": "bob", "action": "call"},
        {"player": "cat", "action": "call"}
      ],
      "expect": {"stacks": {"ann": 300, "bob": 0, "cat": 0}}
    }
  ],
  "expect": {"winners": ["ann"], "finished": true}
}
"""

POKER_ABSENT = importlib.util.find_spec("appliance.games.poker") is None


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, data: Any, name: str = "scenario.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def moon() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CONFIDENT_MOON)
    return data


# -- every file passes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.name)
def test_every_scenario_file_passes_check(path: Path) -> None:
    code, out, err = run("--check", str(path))
    assert (code, err) == (EXIT_AGREE, ""), out
    assert out.startswith(f"ok {path}")


def test_there_are_scenario_files_for_confident() -> None:
    assert any(path.name.startswith("confident-") for path in SCENARIO_FILES)


def test_the_shared_confident_example_passes(tmp_path: Path) -> None:
    code, out, _ = run("--check", str(write(tmp_path, CONFIDENT_MOON)))
    assert code == EXIT_AGREE, out
    assert "1 question(s), 2 expect(s) agree" in out


@pytest.mark.skipif(POKER_ABSENT, reason="appliance.games.poker has not landed yet")
def test_the_shared_poker_example_passes(tmp_path: Path) -> None:
    code, out, _ = run("--check", str(write(tmp_path, POKER_ALLIN_CALLED)))
    assert code == EXIT_AGREE, out


# -- printing -----------------------------------------------------------------------------------------------


def test_replay_prints_the_result_as_json(tmp_path: Path) -> None:
    code, out, err = run(str(write(tmp_path, CONFIDENT_MOON)))
    assert (code, err) == (EXIT_AGREE, "")
    result = json.loads(out)
    assert set(result) == {"questions", "final"}
    (question,) = result["questions"]
    assert question["ranges"] == {"ann": ["8", "15"], "bob": ["5", "30"], "cat": ["12", "40"], "dan": ["20", "100"]}
    assert question["points"] == {"ann": 3, "bob": 1, "cat": 1, "dan": 0}
    assert result["final"]["winners"] == [] and result["final"]["finished"] is False


def test_replay_without_check_ignores_expect(tmp_path: Path) -> None:
    data = moon()
    data["expect"] = {"finished": True}
    code, out, _ = run(str(write(tmp_path, data)))
    assert code == EXIT_AGREE
    assert json.loads(out)["final"]["finished"] is False


def test_python_dash_m_runs_the_driver(tmp_path: Path) -> None:
    path = write(tmp_path, CONFIDENT_MOON)
    done = subprocess.run(
        [sys.executable, "-m", "appliance.box.replay_cli", "--check", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == EXIT_AGREE, done.stdout + done.stderr
    assert "agree" in done.stdout


# -- disagreements: exit 1 -------------------------------------------------------------------------------


def test_a_wrong_expect_fails_with_a_readable_difference(tmp_path: Path) -> None:
    data = moon()
    data["questions"][0]["expect"]["points"]["bob"] = 3
    data["expect"] = {"finished": True, "winners": []}
    code, out, _ = run("--check", str(write(tmp_path, data)))
    assert code == EXIT_DISAGREE
    assert "questions[0].expect.points.bob: expected 3, got 1" in out
    assert "expect.finished: expected true, got false" in out
    assert "FAILED" in out and "2 difference(s)" in out


def test_an_expect_key_the_result_lacks_fails(tmp_path: Path) -> None:
    data = moon()
    data["questions"][0]["expect"] = {"stacks": {"ann": 3}}
    data["expect"] = {"champion": "ann"}
    code, out, _ = run("--check", str(write(tmp_path, data)))
    assert code == EXIT_DISAGREE
    assert "questions[0].expect.stacks: the question result has no 'stacks'" in out
    assert "expect.champion: the final result has no 'champion'" in out


def test_a_partial_nested_expect_is_not_equal(tmp_path: Path) -> None:
    data = moon()
    data["questions"][0]["expect"] = {"points": {"ann": 3}}
    code, out, _ = run("--check", str(write(tmp_path, data)))
    assert code == EXIT_DISAGREE
    assert "questions[0].expect.points.bob: not expected, but the result has 1" in out


def test_an_accepted_expect_error_step_fails(tmp_path: Path) -> None:
    data = moon()
    data["questions"][0]["steps"][1]["expect_error"] = True
    path = write(tmp_path, data)
    code, out, _ = run("--check", str(path))
    assert code == EXIT_DISAGREE
    assert "questions[0].steps[1] (bob): marked expect_error but the engine accepted it" in out
    code, out, err = run(str(path))
    assert code == EXIT_DISAGREE and "marked expect_error" in err
    assert json.loads(out)["questions"][0]["points"]["bob"] == 1


def test_a_refusal_that_changes_the_state_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = replay.adapter_for("confident")

    class Leaky:
        game = "confident"

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def step(self, engine: Engine, step: Mapping[str, Any]) -> None:
            engine.log.append(engine.log[0])  # a broken engine: records, then refuses
            raise IllegalAction("refused after all")

    monkeypatch.setattr(replay, "adapter_for", lambda game: Leaky())
    data = moon()
    data["questions"][0]["steps"] = [dict(step, expect_error=True) for step in data["questions"][0]["steps"]]
    data["questions"][0].pop("expect")
    code, out, _ = run("--check", str(write(tmp_path, data)))
    assert code == EXIT_DISAGREE
    assert "questions[0].steps[0] (ann): refused (refused after all) but the engine state changed" in out


# -- malformed files and refused steps: exit 2 -----------------------------------------------------------


def broken(change: Any) -> dict[str, Any]:
    data = moon()
    change(data)
    return data


MALFORMED: list[tuple[str, Any, str]] = [
    ("not json", "{", "not JSON: Expecting property name enclosed in double quotes at line 1, column 2"),
    ("a list", "[]", "a scenario file must be a JSON object, got a list"),
    ("duplicate key", '{"game": "confident", "game": "poker"}', "duplicate key 'game'"),
    ("NaN", CONFIDENT_MOON.replace('"target": 15', '"target": NaN'), "NaN is not JSON"),
    ("unknown game", broken(lambda d: d.update(game="chess")), "game: unknown game 'chess'; expected one of"),
    ("no players", broken(lambda d: d.pop("players")), "the file: missing key(s) players"),
    ("unknown key", broken(lambda d: d.update(expects={})), "the file: unknown key(s) expects"),
    ("players text", broken(lambda d: d.update(players="ann")), "players must be a JSON list, got text"),
    ("players empty", broken(lambda d: d.update(players=[])), "non-empty list of non-empty names"),
    ("players repeat", broken(lambda d: d.update(players=["ann", "ann", "bob"])), "must be different"),
    ("options list", broken(lambda d: d.update(options=[])), "options must be a JSON object, got a list"),
    ("rules text", broken(lambda d: d.update(rules="x")), "rules must be a JSON list"),
    ("description number", broken(lambda d: d.update(description=3)), "description must be text"),
    ("note number", broken(lambda d: d.update(note=3)), "note must be text"),
    ("question note list", broken(lambda d: d["questions"][0].update(note=["x"])),
     "questions[0].note: note must be text"),
    ("question unknown", broken(lambda d: d["questions"][0].update(notes="x")),
     "questions[0]: unknown key(s) notes"),
    ("expect list", broken(lambda d: d.update(expect=[])), "expect must be a JSON object"),
    ("questions object", broken(lambda d: d.update(questions={})), "questions must be a JSON list"),
    ("question no card", broken(lambda d: d["questions"][0].pop("card")), "questions[0]: missing key(s) card"),
    ("question extra", broken(lambda d: d["questions"][0].update(die=1)), "questions[0]: unknown key(s) die"),
    ("card text", broken(lambda d: d["questions"][0].update(card="Q")), "questions[0].card: card must be a JSON"),
    ("steps object", broken(lambda d: d["questions"][0].update(steps={})), "questions[0].steps: steps must be"),
    ("step list", broken(lambda d: d["questions"][0]["steps"].append([])), "questions[0].steps[4]: a step must"),
    (
        "step no player",
        broken(lambda d: d["questions"][0]["steps"][0].pop("player")),
        "questions[0].steps[0]: a step needs a player name",
    ),
    (
        "expect_error text",
        broken(lambda d: d["questions"][0]["steps"][0].update(expect_error="yes")),
        "expect_error must be true or false",
    ),
    ("bad option", broken(lambda d: d.update(options={"target": "15"})), "players/options: refused: Confident option"),
    (
        "bad card",
        broken(lambda d: d["questions"][0]["card"].update(answer="lots")),
        "questions[0]: the question could not start: not a number 'lots'",
    ),
    (
        "refused step",
        broken(lambda d: d["questions"][0]["steps"][1].update(range=["30", "5"])),
        "questions[0].steps[1] (bob): refused: bob cannot write range 30 to 5: the bottom 30 is above the top 5",
    ),
    (
        "malformed step",
        broken(lambda d: d["questions"][0]["steps"][2].update(range=["1,5", "2"])),
        "questions[0].steps[2] (cat): refused: not a number '1,5'",
    ),
    (
        "after the end",
        broken(lambda d: d.update(options={"target": 3}, questions=d["questions"] * 2)),
        "questions[1]: the question could not start: cannot ask a new question: the game is over (ann won)",
    ),
]


MISSPELT = {
    "confident": "confident-moon.json",
    "poker": "poker-call-short-goes-all-in.json",
    "allin": "allin-two-laps.json",
    "squizz": "squizz-close-uses-lowest-token.json",
    "buzzer": "buzzer-order-lockout-points.json",
}


@pytest.mark.parametrize("game", sorted(MISSPELT))
def test_a_misspelt_step_key_makes_the_file_malformed_even_on_a_step_marked_expect_error(
    tmp_path: Path, game: str
) -> None:
    """A step refused only for its unknown key satisfied its expect_error mark (an outside check's file
    passed with "exlude" where "exclude" would have been accepted): the contract says any key not listed
    makes the file malformed, exit 2."""
    data = json.loads((ROOT / "tests" / "scenarios" / MISSPELT[game]).read_text())
    assert data["game"] == game
    data["questions"][0]["steps"].insert(0, {"player": data["players"][0], "exlude": "x", "expect_error": True})
    code, out, err = run("--check", str(write(tmp_path, data)))
    assert code == EXIT_MALFORMED, (out, err)
    assert f"questions[0].steps[0] ({data['players'][0]}): unknown key(s) exlude in a {game} step" in err


@pytest.mark.parametrize(("name", "data", "message"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_files_and_refused_steps_exit_2(tmp_path: Path, name: str, data: Any, message: str) -> None:
    path = write(tmp_path, data)
    for flags in (("--check",), ()):
        code, out, err = run(*flags, str(path))
        assert code == EXIT_MALFORMED, (name, out, err)
        assert out == ""
        assert err.startswith(f"quizbox replay: {path}: ")
        assert message in err


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run("--check", str(tmp_path / "nope.json"))
    assert code == EXIT_MALFORMED
    assert "cannot read the file" in err
    assert err.count(str(tmp_path / "nope.json")) == 1, err  # the path once (main names the file)


def test_a_file_that_is_not_utf8_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"game": "caf\xe9"}'.encode("latin-1"))
    code, _, err = run(str(path))
    assert code == EXIT_MALFORMED
    assert "not UTF-8 text" in err


def test_a_game_without_its_scenario_adapter_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered game with no scenario format (its registry entry has no adapter) exits 2; the
    buzzer round has one (docs/scenarios.md, Quizbox's extension)."""
    from dataclasses import replace

    from appliance.games import registry

    scenario = {"game": "buzzer", "players": ["Ann", "Bob"], "questions": []}
    code, out, _ = run(str(write(tmp_path, scenario)))
    assert code == EXIT_AGREE and json.loads(out)["final"] == {"scores": {"Ann": 0, "Bob": 0}, "winners": [],
                                                               "finished": False}
    monkeypatch.setitem(registry.GAMES, "buzzer", replace(registry.GAMES["buzzer"], adapter=None))
    code, _, err = run(str(write(tmp_path, scenario)))
    assert code == EXIT_MALFORMED
    assert "the buzzer game has no scenario adapter in this build" in err


@pytest.mark.parametrize("argv", [[], ["--check"], ["--bogus", "x.json"], ["a.json", "b.json"]])
def test_bad_command_lines_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == EXIT_MALFORMED
    assert "usage: quizbox replay" in capsys.readouterr().err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == EXIT_AGREE
    assert "--check" in capsys.readouterr().out


# -- the comparison ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual", "found"),
    [
        ({"a": 1}, {"a": 1}, []),
        (3, 3.0, []),
        (True, 1, ["x: expected true, got 1"]),
        (1, True, ["x: expected 1, got true"]),
        ("3", 3, ['x: expected "3", got 3']),
        (None, [], ["x: expected null, got []"]),
        ([1, 2], [1, 2, 3], ["x: expected [1, 2], got [1, 2, 3]"]),
        ([1, 2], [1, 3], ["x[1]: expected 2, got 3"]),
        (
            {"a": {"b": 1}},
            {"a": {"b": 2, "c": 3}},
            ["x.a.b: expected 1, got 2", "x.a.c: not expected, but the result has 3"],
        ),
        ({"a": 1, "b": 2}, {"a": 1}, ["x.b: expected 2, but the result has no 'b'"]),
        ({"a": 1}, [1], ['x: expected {"a": 1}, got [1]']),
    ],
)
def test_differences_are_exact_and_located(expected: Any, actual: Any, found: list[str]) -> None:
    assert differences(copy.deepcopy(expected), actual, "x") == found


def test_note_and_description_are_free_text_ignored_at_both_levels(tmp_path: Path) -> None:
    """The scenario contract: ``note`` and ``description`` (top level and per question) are ignored."""
    plain = json.loads(CONFIDENT_MOON)
    noted = json.loads(CONFIDENT_MOON)
    noted.update(note="for the reader", description="the moon")
    noted["questions"][0].update(note="a question note", description="and its description", rules=["x"])
    results = []
    for name, data in (("plain.json", plain), ("noted.json", noted)):
        path = str(write(tmp_path, data, name))
        assert run("--check", path)[0] == EXIT_AGREE
        code, out, err = run(path)
        assert (code, err) == (EXIT_AGREE, "")
        results.append(json.loads(out))
    assert results[0] == results[1] and results[0]["questions"]
