"""Every game's scenario files (tests/scenarios/<game>-*.json) against its rule ids and the replay check.

What is the same for the four games is tested here once, parametrized by game; each game's own module
(test_<game>_scenarios.py) keeps its rule ids (``RULES``) and the tests of its adapter. The rule ids are
docs/rules.md's decisions (tests/test_rules_doc.py checks that they are all there).
"""

from __future__ import annotations

import importlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from appliance.box.replay_cli import main as replay

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
JSON = dict[str, Any]


@dataclass(frozen=True)
class Game:
    id: str
    at_least: int
    question_expect: frozenset[str] | None
    """Keys every question's expect has (poker: at least these); None when files choose."""
    final_expect: frozenset[str] | None
    exact_question_keys: bool = True

    @property
    def files(self) -> list[Path]:
        return sorted(SCENARIOS.glob(f"{self.id}-*.json"))

    @property
    def rules(self) -> tuple[str, ...]:
        rules: tuple[str, ...] = importlib.import_module(f"tests.games.test_{self.id}_scenarios").RULES
        return rules


GAMES = (
    Game("confident", 15, None, None),
    Game("poker", 25, frozenset({"stacks", "pots", "folded"}), frozenset({"stacks", "winners", "finished"}),
         exact_question_keys=False),
    Game("allin", 15, frozenset({"reader", "chips"}), frozenset({"chips", "winners", "finished"})),
    Game("squizz", 15, frozenset({"reader", "correct"}),
         frozenset({"scores", "correct_counts", "winners", "finished"})),
)
FILES = [(game, path) for game in GAMES for path in game.files]


def load(path: Path) -> JSON:
    data: JSON = json.loads(path.read_text(encoding="utf-8"))
    return data


def check(path: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = replay(["--check", str(path)], out, err)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_each_game_has_its_scenario_files(game: Game) -> None:
    assert len(game.files) >= game.at_least


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_rule_is_covered_by_a_scenario_file(game: Game) -> None:
    covered = {rule for path in game.files for rule in load(path)["rules"]}
    assert sorted(set(game.rules) - covered) == []


@pytest.mark.parametrize(("game", "path"), FILES, ids=lambda v: v.name if isinstance(v, Path) else "")
def test_each_file_names_known_rules_and_is_its_game(game: Game, path: Path) -> None:
    data = load(path)
    assert data["game"] == game.id
    assert data["rules"], "a scenario file names the rules it covers"
    assert sorted({r for r in data["rules"] if not r.startswith("room-")} - set(game.rules)) == []  # or the room's
    assert isinstance(data["description"], str) and data["description"]


@pytest.mark.parametrize(("game", "path"), FILES, ids=lambda v: v.name if isinstance(v, Path) else "")
def test_each_file_expects_every_question_and_the_final_result(game: Game, path: Path) -> None:
    data = load(path)
    if game.question_expect is not None:
        for question in data["questions"]:
            keys = set(question["expect"])
            assert keys == game.question_expect if game.exact_question_keys else game.question_expect <= keys
    if game.final_expect is not None:
        assert set(data["expect"]) == game.final_expect


@pytest.mark.parametrize(("game", "path"), FILES, ids=lambda v: v.name if isinstance(v, Path) else "")
def test_each_file_passes_the_replay_check(game: Game, path: Path) -> None:
    code, output = check(path)
    assert code == 0, output


def _wrong_poker(data: JSON) -> None:
    data["questions"][1]["expect"]["pots"][2]["winners"] = ["ann"]
    data["expect"]["stacks"]["dan"] = 59


def _wrong_allin(data: JSON) -> None:
    data["expect"]["winners"] = ["ann"]
    data["questions"][0]["expect"]["chips"]["cat"] = 1


def _wrong_squizz(data: JSON) -> None:
    data["expect"]["winners"] = ["ann", "bob"]


def _wrong_confident(data: JSON) -> None:
    data["questions"][0]["expect"]["points"]["ann"] = 2


@pytest.mark.parametrize(
    ("name", "spoil", "differences"),
    [
        ("poker-short-all-ins-add-up.json", _wrong_poker, ("expect.pots[2].winners[0]", "expect.stacks.dan")),
        ("allin-reader-wins-when-nobody-has-chips.json", _wrong_allin, ("expect.winners", "expect.chips.cat")),
        ("squizz-tie-more-correct-answers.json", _wrong_squizz, ("expect.winners",)),
        ("confident-moon.json", _wrong_confident, ("expect.points.ann",)),
    ],
    ids=lambda v: v.split("-")[0] if isinstance(v, str) else "",
)
def test_the_replay_check_fails_when_an_expectation_is_wrong(
    tmp_path: Path, name: str, spoil: Callable[[JSON], None], differences: tuple[str, ...]
) -> None:
    data = load(SCENARIOS / name)
    spoil(data)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data), encoding="utf-8")
    code, output = check(wrong)
    assert code == 1
    assert all(difference in output for difference in differences), output


@pytest.mark.parametrize(
    ("name", "question", "step"),
    [
        ("poker-options-bet-raise-call.json", 0, 4),  # ann's legal bet of 20
        ("allin-refused-splits.json", 0, -1),  # cat's legal split
        ("squizz-refused-answers.json", 0, None),  # its first legal answer
        ("confident-refusals.json", 0, None),  # its first legal board
    ],
    ids=lambda v: v.split("-")[0] if isinstance(v, str) else str(v),
)
def test_the_replay_check_fails_when_a_marked_step_is_accepted(tmp_path: Path, name: str, question: int,
                                                                step: int | None) -> None:
    data = load(SCENARIOS / name)
    steps = data["questions"][question]["steps"]
    target = steps[step] if step is not None else next(s for s in steps if not s.get("expect_error"))
    assert not target.get("expect_error"), "the chosen step is a legal one"
    target["expect_error"] = True
    accepted = tmp_path / "accepted.json"
    accepted.write_text(json.dumps(data), encoding="utf-8")
    code, output = check(accepted)
    assert code == 1 and "marked expect_error but the engine accepted it" in output


@pytest.mark.parametrize("path", sorted((SCENARIOS / "contract").glob("*.json")), ids=lambda p: p.name)
def test_the_contracts_own_examples_pass_the_replay_check(path: Path) -> None:
    code, output = check(path)
    assert code == 0, output
