"""docs/rules.md is the rules' one home: every rule the code or a test cites is there, each decision a
scenario file plays has exactly one id there, and nothing points outside the repository for them."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
GAMES = ("confident", "poker", "allin", "squizz")

SECTIONS = {
    "confident": "confident", "confident?": "confident", "estimation poker": "poker", "poker": "poker",
    "all in": "allin", "squizz": "squizz", "buzzer": "buzzer", "buzzer round": "buzzer", "quiz night": "night",
    "the room": "room", "room": "room", "the league": "league", "league": "league",
}
CITATION = re.compile(
    r"rules\.md[ \"']{0,3}"
    r"(confident\??|estimation poker|poker|all in|squizz|buzzer round|buzzer|quiz night|the room|room"
    r"|the league|league)"
    r"[\"']?,? (\d+)(?:-(\d+))?",
    re.IGNORECASE,
)
OUTSIDE = ("../shared", "shared/rules.md", "shared/scenarios", "/work/shared")


def _doc() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def rule_ids() -> list[str]:
    """The numbered rules' ids: the ``### id: title`` headings."""
    return re.findall(r"^### ([a-z]+-[a-z0-9]+): ", _doc(), re.MULTILINE)


def decision_ids() -> list[str]:
    """The decisions' ids: ``- `id`:`` items."""
    return re.findall(r"^- `([a-z0-9-]+)`: ", _doc(), re.MULTILINE)


def cited_decisions() -> set[str]:
    """Every decision id a scenario file plays or a scenario test lists."""
    cited: set[str] = set()
    for path in (ROOT / "tests" / "scenarios").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        cited.update(data.get("rules", []))
        for question in data.get("questions", []):
            cited.update(question.get("rules", []))
    for game in (*GAMES, "room"):
        cited.update(importlib.import_module(f"tests.games.test_{game}_scenarios").RULES)
    return cited


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    suffixes = {".py", ".md", ".json", ".html", ".js", ".toml", ".cfg", ".txt", ".sh", ".yml", ".yaml", ".service"}
    files = [ROOT / line for line in listed.splitlines() if Path(line).suffix in suffixes or line == "Makefile"]
    return [path for path in files if path.is_file()]


def test_every_decision_has_exactly_one_id_and_those_are_the_cited_ones() -> None:
    ids = decision_ids()
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert sorted(set(ids) - cited_decisions()) == [], "ids in docs/rules.md that nothing plays"
    assert sorted(cited_decisions() - set(ids)) == [], "ids played by a scenario but missing from docs/rules.md"


def test_each_decision_sits_under_its_game_and_rule() -> None:
    doc = _doc()
    for decision in decision_ids():
        heading = doc.rfind("\n### ", 0, doc.index(f"- `{decision}`: "))
        rule = doc[heading + 5: doc.index(":", heading)]
        game, _, number = rule.partition("-")
        assert decision.startswith(f"{game}-"), (decision, rule)
        if number.isdigit():
            assert decision.startswith(f"{rule}-"), (decision, rule)


def test_the_rule_ids_are_unique_and_numbered_in_order() -> None:
    ids = rule_ids()
    assert len(ids) == len(set(ids))
    for game in (*GAMES, "buzzer", "night", "room", "league"):
        numbers = [int(i.split("-")[1]) for i in ids if i.startswith(f"{game}-") and i.split("-")[1].isdigit()]
        assert numbers == list(range(1, len(numbers) + 1)), game


def test_every_rule_the_code_docs_and_tests_cite_is_in_docs_rules_md() -> None:
    known = set(rule_ids())
    missing: list[str] = []
    citations = 0
    for path in tracked_text_files():
        if path == RULES_DOC:
            continue
        for match in CITATION.finditer(path.read_text(encoding="utf-8", errors="replace")):
            game = SECTIONS[match.group(1).lower()]
            first = int(match.group(2))
            last = int(match.group(3) or first)
            citations += 1
            missing += [f"{path.relative_to(ROOT)}: {match.group(0)}" for n in range(first, last + 1)
                        if f"{game}-{n}" not in known]
    assert citations > 100  # the code cites its rules; a broken pattern would find none
    assert missing == []


@pytest.mark.parametrize("needle", OUTSIDE)
def test_nothing_refers_outside_the_repository_for_rules_or_scenarios(needle: str) -> None:
    found = [str(path.relative_to(ROOT)) for path in tracked_text_files()
             if needle in path.read_text(encoding="utf-8", errors="replace")
             and path != Path(__file__).resolve()]
    assert found == []


def test_the_league_section_has_its_five_rules() -> None:
    assert [i for i in rule_ids() if i.startswith("league-")] == [f"league-{n}" for n in range(1, 6)]
