"""``quizbox replay`` against the scenario contract: files written from the contract alone.

tests/scenarios/outside/ holds scenario files written as an outside checker would, from docs/scenarios.md's
contract part only, with every ``expect`` worked out by hand from the rulebooks and docs/rules.md
(Confident? boosts and variants, poker side pots / odd chips / midpoints / refusals, All In eliminations and
exclusions, sQuizz's correct-answers tie-break, a night with a tie-break). Each must pass ``--check``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from appliance.box.replay import EXIT_AGREE
from appliance.box.replay_cli import main

OUTSIDE = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "outside").glob("*.json"))


def test_there_are_outside_files() -> None:
    assert len(OUTSIDE) >= 15


@pytest.mark.parametrize("path", OUTSIDE, ids=[p.stem for p in OUTSIDE])
def test_an_outside_file_passes_check(path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--check", str(path)], out=out, err=err)
    assert (code, err.getvalue()) == (EXIT_AGREE, ""), out.getvalue()
    assert out.getvalue().startswith(f"ok {path}")
