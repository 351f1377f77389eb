"""``quizbox replay`` against the scenario contract: unknown card keys (found by an audit written from the
contract alone).

The contract (docs/scenarios.md, "Common keys") says any key not listed makes the file malformed (exit 2),
so that a misspelt key cannot pass silently. Poker, All In and sQuizz cards once ignored them (Confident?
and tie-break cards did not): a misspelt poker ``"Ante": 40`` was dropped and the question played at the
option's ante, with exit 0.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from appliance.box.replay import EXIT_MALFORMED
from appliance.box.replay_cli import main

HINTS = ["More than 0.", "Fewer than 10."]
PROPOSITIONS = [
    {"label": "Yoda", "value": "900"},
    {"label": "Papa Smurf", "value": "542"},
    {"label": "Noah", "value": "950"},
]


def poker(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": "poker",
        "players": ["ann", "bob"],
        "options": {"stack": 100, "ante": 10},
        "questions": [
            {
                "card": card,
                "steps": [
                    {"player": "ann", "range": ["0", "1"]},
                    {"player": "bob", "range": ["0", "2"]},
                    {"player": "ann", "action": "allin"},
                    {"player": "bob", "action": "fold"},
                ],
            }
        ],
    }


def allin(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": "allin",
        "players": ["ann", "bob"],
        "questions": [
            {
                "card": card,
                "steps": [
                    {"player": "ann", "pick": 0, "answer": True},
                    {"player": "bob", "split": {"true": 15, "false": 0}},
                ],
            }
        ],
    }


def squizz(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": "squizz",
        "players": ["ann", "bob", "cat"],
        "questions": [
            {
                "card": card,
                "die": 2,
                "steps": [
                    {"player": "bob", "answer": "A", "token": 1},
                    {"player": "cat", "answer": "B", "token": 1},
                ],
            }
        ],
    }


CASES = {
    "poker-misspelt-ante": (
        poker({"question": "q", "answer": "1", "hints": HINTS, "Ante": 40}),
        "Ante",
    ),
    "poker-unit": (poker({"question": "q", "answer": "1", "hints": HINTS, "unit": "bones"}), "unit"),
    "allin-answer-on-card": (allin({"statements": ["a", "b", "c"], "answer": True}), "answer"),
    "squizz-answer-on-card": (squizz({"prompt": "Age of", "propositions": PROPOSITIONS, "answer": "A"}), "answer"),
}


def run(path: Path, *flags: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*flags, str(path)], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("flags", [(), ("--check",)], ids=["replay", "check"])
def test_an_unknown_card_key_makes_the_file_malformed(tmp_path: Path, name: str, flags: tuple[str, ...]) -> None:
    data, key = CASES[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(path, *flags)
    assert code == EXIT_MALFORMED, f"exit {code}; stdout: {out[:300]!r}; stderr: {err!r}"
    assert key in err, err


def test_a_confident_card_already_refuses_an_unknown_key(tmp_path: Path) -> None:
    """The behaviour the other games should match (passes today)."""
    data = {
        "game": "confident",
        "players": ["ann", "bob", "cat"],
        "questions": [{"card": {"question": "q", "answer": "1", "hint": "x"}, "steps": []}],
    }
    path = tmp_path / "confident.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(path, "--check")
    assert code == EXIT_MALFORMED
    assert "hint" in err
