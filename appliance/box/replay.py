"""``quizbox replay FILE`` and ``quizbox replay --check FILE``: a whole game from a scenario file.

The file format is the contract in docs/scenarios.md; this module owns the common part
(reading, strict validation, ``expect`` comparison, exit codes) and hands each game's part to the
game's :class:`~appliance.games.scenario.ScenarioAdapter` (``appliance.games.<game>.scenario.ADAPTER``).

* ``replay FILE`` plays the file and prints ``{"questions": [...], "final": {...}}`` as JSON;
* ``replay --check FILE`` also compares each question's ``expect`` with its result and the top-level
  ``expect`` with the final result, and prints every difference.

Exit codes: 0 all agree; 1 an ``expect`` disagrees or a step marked ``expect_error`` was accepted (or an
engine changed its state while refusing a step); 2 the file is malformed or a step not marked
``expect_error`` was refused (any :class:`~appliance.errors.QuizboxError`). Without ``--check`` the
``expect`` keys are not compared; an accepted ``expect_error`` step is still reported and exits 1.

Besides the game's keys a file may carry ``description`` and ``note`` (free text for the reader) and
``rules`` (a list of rule ids it covers), at the top level and on a question; they do not affect the
replay. Any other unknown key is refused, so that a misspelt ``expect`` cannot pass silently; so is a key a
step of the game does not have (the adapter's ``step_keys``), even on a step marked ``expect_error``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from appliance.errors import MalformedInput, QuizboxError
from appliance.games import registry
from appliance.games.base import JSON, Engine
from appliance.games.scenario import IGNORED_STEP_KEYS, ScenarioAdapter

EXIT_AGREE = 0
EXIT_DISAGREE = 1
EXIT_MALFORMED = 2

TOP_REQUIRED = ("game", "players", "questions")
FREE_TEXT = ("description", "note")
"""Keys for the reader, top level and per question: text, ignored by the replay."""
TOP_OPTIONAL = ("options", "expect", *FREE_TEXT, "rules")
QUESTION_REQUIRED = ("card", "steps")
QUESTION_OPTIONAL = ("expect", *FREE_TEXT, "rules")
QUESTION_EXTRA: Mapping[str, tuple[str, ...]] = {
    spec.id: spec.question_keys for spec in registry.SPECS if spec.adapter is not None
}
"""Question keys each game with a scenario format adds to the common ones (README: sQuizz's ``die``)."""

MAX_FILE_BYTES = 4_000_000
"""A scenario is a game's worth of inputs; anything bigger is refused before parsing."""


class ScenarioError(MalformedInput):
    """The file cannot be replayed: malformed, or a step not marked ``expect_error`` was refused."""


@dataclass(frozen=True)
class Step:
    where: str
    data: Mapping[str, Any]
    expect_error: bool


@dataclass(frozen=True)
class Question:
    where: str
    data: Mapping[str, Any]
    steps: tuple[Step, ...]
    expect: Mapping[str, Any] | None


@dataclass(frozen=True)
class Scenario:
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    questions: tuple[Question, ...]
    expect: Mapping[str, Any] | None


@dataclass
class Replay:
    """What playing a scenario gave: the printed result and the problems that make ``--check`` fail
    whatever the ``expect`` keys say."""

    questions: list[JSON] = field(default_factory=list)
    final: JSON = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def result(self) -> JSON:
        return {"questions": self.questions, "final": self.final}


# -- reading and validating the file ---------------------------------------------------------------


def _fail(where: str, message: str) -> NoReturn:
    raise ScenarioError(f"{where}: {message}" if where else message)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ScenarioError(f"duplicate key {key!r} in one JSON object")
        data[key] = value
    return data


def _no_constant(name: str) -> NoReturn:
    raise ScenarioError(f"{name} is not JSON (numbers are written as text where they matter)")


def read_file(path: Path) -> Any:
    """The JSON in ``path``; ScenarioError if it cannot be read, is too big or is not strict JSON."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        _fail("", f"cannot read the file ({exc.strerror or exc})")
    if len(raw) > MAX_FILE_BYTES:
        _fail("", f"the file is {len(raw)} bytes; a scenario is at most {MAX_FILE_BYTES}")
    try:
        return json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        _fail("", f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})")
    except json.JSONDecodeError as exc:
        _fail("", f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")


def _object(value: Any, where: str, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        _fail(where, f"{what} must be a JSON object, got {_kind(value)}")
    return value


def _list(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        _fail(where, f"{what} must be a JSON list, got {_kind(value)}")
    return value


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number") + f" ({json.dumps(value)[:60]})"


def _keys(data: Mapping[str, Any], where: str, required: Sequence[str], optional: Sequence[str]) -> None:
    missing = [key for key in required if key not in data]
    if missing:
        _fail(where, f"missing key(s) {', '.join(missing)}")
    unknown = sorted(set(data) - set(required) - set(optional))
    if unknown:
        _fail(where, f"unknown key(s) {', '.join(unknown)} (known: {', '.join([*required, *optional])})")


def _players(top: Mapping[str, Any]) -> list[str]:
    """A file's ``players``: different, non-empty names (game and night files alike)."""
    players = _list(top["players"], "players", "players")
    if not players or not all(isinstance(p, str) and p for p in players):
        _fail("players", f"players must be a non-empty list of non-empty names, got {json.dumps(players)}")
    if len(set(players)) != len(players):
        _fail("players", f"player names must be different, got {json.dumps(players)}")
    return players


def load(data: Any) -> Scenario:
    """Validate the common part of a scenario (README "Common keys"); ScenarioError says where."""
    top = _object(data, "", "a scenario file")
    if "rounds" in top:
        _fail("rounds", f'rounds belong to a night file ("game": "night"); a {top.get("game")} file has questions')
    _keys(top, "the file", TOP_REQUIRED, TOP_OPTIONAL)
    game = top["game"]
    if game not in registry.GAMES:
        _fail("game", f"unknown game {game!r}; expected one of {', '.join(registry.IDS)} (or a night file)")
    players = _players(top)
    options = _object(top.get("options", {}), "options", "options")
    _reader_keys(top, "")
    expect = None if "expect" not in top else _object(top["expect"], "expect", "expect")
    extra = QUESTION_EXTRA.get(game, ())
    questions = tuple(
        _question(item, f"questions[{index}]", extra)
        for index, item in enumerate(_list(top["questions"], "questions", "questions"))
    )
    return Scenario(game, tuple(players), options, questions, expect)


def _reader_keys(data: Mapping[str, Any], where: str) -> None:
    """``description`` and ``note`` are text and ``rules`` a list of rule ids; none affects the replay."""
    prefix = f"{where}." if where else ""
    for key in FREE_TEXT:
        if key in data and not isinstance(data[key], str):
            _fail(prefix + key, f"{key} must be text (it is free text for the reader), got {_kind(data[key])}")
    rules = _list(data.get("rules", []), prefix + "rules", "rules")
    if not all(isinstance(rule, str) for rule in rules):
        _fail(prefix + "rules", "rules must be a list of rule ids (text)")


def _question(item: Any, where: str, extra: Sequence[str]) -> Question:
    data = _object(item, where, "a question")
    _keys(data, where, QUESTION_REQUIRED, (*QUESTION_OPTIONAL, *extra))
    _reader_keys(data, where)
    _object(data["card"], f"{where}.card", "card")
    steps = []
    for index, raw in enumerate(_list(data["steps"], f"{where}.steps", "steps")):
        step_where = f"{where}.steps[{index}]"
        step = _object(raw, step_where, "a step")
        if not isinstance(step.get("player"), str):
            _fail(step_where, f'a step needs a player name ("" for the host), got {json.dumps(step)}')
        marked = step.get("expect_error", False)
        if not isinstance(marked, bool):
            _fail(step_where, f"expect_error must be true or false, got {json.dumps(marked)}")
        steps.append(Step(f"{step_where} ({step['player'] or 'host'})", step, marked))
    expect = None if "expect" not in data else _object(data["expect"], f"{where}.expect", "expect")
    return Question(where, data, tuple(steps), expect)


# -- playing ---------------------------------------------------------------------------------------


def adapter_for(game: str) -> ScenarioAdapter:
    adapter = registry.spec(game).adapter
    if adapter is None:
        _fail("game", f"the {game} game has no scenario adapter in this build (no scenario format yet)")
    return adapter


def play(scenario: Scenario) -> Replay:
    """Play every question; ScenarioError if the file cannot be replayed (README exit code 2)."""
    adapter = adapter_for(scenario.game)
    replay = Replay()
    try:
        engine = adapter.new_engine(list(scenario.players), scenario.options)
    except QuizboxError as exc:
        _fail("players/options", f"refused: {exc}")
    replay.questions = play_questions(adapter, engine, scenario.questions, replay.problems)
    try:
        replay.final = adapter.final_result(engine)
    except QuizboxError as exc:
        _fail("final", f"no final result: {exc}")
    return replay


def play_questions(
    adapter: ScenarioAdapter, engine: Engine, questions: Sequence[Question], problems: list[str]
) -> list[JSON]:
    """Play ``questions`` on ``engine`` and return their results; a refused step marked
    ``expect_error`` that changed the state, or an accepted one, is added to ``problems``."""
    for question in questions:  # before anything is played: a key the game does not know is the file's fault
        for step in question.steps:
            unknown = sorted(set(step.data) - IGNORED_STEP_KEYS - adapter.step_keys)
            if unknown:
                _fail(step.where, f"unknown key(s) {', '.join(map(str, unknown))} in a {adapter.game} step "
                                  f"(known: player, expect_error, {', '.join(sorted(adapter.step_keys))}); "
                                  "a misspelt key makes the file malformed, even on a step marked expect_error")
    results: list[JSON] = []
    for question in questions:
        try:
            adapter.start_question(engine, question.data)
        except QuizboxError as exc:
            _fail(question.where, f"the question could not start: {exc}")
        for step in question.steps:
            play_step(engine, functools.partial(adapter.step, engine, step.data), step, problems)
        try:
            adapter.finish_question(engine, question.data)
            results.append(adapter.question_result(engine))
        except QuizboxError as exc:
            _fail(question.where, f"the question could not finish: {exc}")
    return results


def play_step(engine: Engine, apply: Callable[[], None], step: Step, problems: list[str]) -> None:
    """Apply one step; a refusal is an error unless the step is marked ``expect_error``, and then
    the engine's state must be exactly as before it."""
    before = engine.snapshot()
    try:
        apply()
    except QuizboxError as exc:
        if not step.expect_error:
            _fail(step.where, f"refused: {exc}")
        if engine.snapshot() != before:
            problems.append(f"{step.where}: refused ({exc}) but the engine state changed")
        return
    if step.expect_error:
        problems.append(f"{step.where}: marked expect_error but the engine accepted it")


# -- comparing -------------------------------------------------------------------------------------


def differences(expected: Any, actual: Any, where: str) -> list[str]:
    """Every place ``actual`` differs from ``expected`` (exact JSON equality; true is not 1)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key in expected:
            if key not in actual:
                found.append(f"{where}.{key}: expected {_show(expected[key])}, but the result has no {key!r}")
            else:
                found += differences(expected[key], actual[key], f"{where}.{key}")
        found += [
            f"{where}.{key}: not expected, but the result has {_show(actual[key])}"
            for key in actual
            if key not in expected
        ]
        return found
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        found = []
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            found += differences(want, got, f"{where}[{index}]")
        return found
    if _same(expected, actual):
        return []
    return [f"{where}: expected {_show(expected)}, got {_show(actual)}"]


def _same(expected: Any, actual: Any) -> bool:
    """Equal JSON scalars: same type (true is not 1, "3" is not 3), except that 3 and 3.0 agree."""
    numbers = (int, float)
    if type(expected) in numbers and type(actual) in numbers:
        return bool(expected == actual)
    return type(expected) is type(actual) and not isinstance(expected, dict | list) and expected == actual


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    return text if len(text) <= 200 else text[:197] + "..."


def check(scenario: Scenario, replay: Replay) -> list[str]:
    """Every disagreement between the file's ``expect`` keys and the replay, plus its problems."""
    found = list(replay.problems)
    for question, result in zip(scenario.questions, replay.questions, strict=True):
        for key, want in (question.expect or {}).items():
            where = f"{question.where}.expect.{key}"
            if key not in result:
                found.append(f"{where}: the question result has no {key!r} (it has {', '.join(result)})")
            else:
                found += differences(want, result[key], where)
    for key, want in (scenario.expect or {}).items():
        if key not in replay.final:
            found.append(f"expect.{key}: the final result has no {key!r} (it has {', '.join(replay.final)})")
        else:
            found += differences(want, replay.final[key], f"expect.{key}")
    return found


# -- the command -----------------------------------------------------------------------------------
