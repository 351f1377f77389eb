"""``quizbox replay [--check] FILE`` for a ``night`` file (docs/scenarios.md, section "night").

A night file has ``players`` (everyone of the night, seat order), ``rounds`` and optionally
``tiebreak``, ``expect``, ``description``, ``note``, ``rules``, and ``"game": "night"`` (a file with
``rounds`` and no ``game`` is a night too). Each round is a game file's content without ``players``:
``game`` (one of the four games, or ``buzzer``: docs/scenarios.md), ``seats`` (default every
player), ``options``, ``questions``, optional ``multiplier`` (1), ``stopped`` (the quizmaster ended
the round after its last listed question), ``expect``, ``description``, ``note``, ``rules``.

Each round is played exactly as its game's own file, through the game's scenario adapter; then
its game's log goes to the night engine (:class:`~appliance.games.night.FinishRound`), which places
the round from that log alone. A round neither over nor ``stopped`` after its last question leaves
the night unfinished: allowed for the last round (the night is then not ``finished``), malformed
before another round (the next round cannot start while one is in play).

Tie-break cards are played in order while players are tied for first once every round is over;
cards after the tie is broken (or with no tie) are not played, and their steps are refused like any
number from a player who is not tied. A card whose tied players did not all enter a number is closed
after its steps (those who entered are compared).

Printed result: ``{"rounds": [...], "final": {...}}``; each round ``game``, ``questions``, ``final``,
``places``, ``points`` (plus ``seats``, ``multiplier``, ``stopped``, ``status``); the final result
``standing``, ``tiebreak``, ``winners``, ``finished`` (plus ``places``: the night's places, the
tie-break ordering those who were tied). Exit codes as for a game file.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from appliance.box.replay import (
    QUESTION_EXTRA,
    Question,
    ScenarioError,
    Step,
    _fail,
    _keys,
    _list,
    _object,
    _players,
    _question,
    adapter_for,
    differences,
    play_questions,
    play_step,
)
from appliance.errors import QuizboxError
from appliance.games.base import HOST, JSON
from appliance.games.night import KINDS, CloseCard, EnterNumber, FinishRound, NightEngine, StartRound, TiebreakCard
from appliance.games.night.plan import RoundPlan
from appliance.games.night.state import SCORED, Phase
from appliance.games.numbers import parse_number

NIGHT = "night"
TOP_REQUIRED = ("players", "rounds")
TOP_OPTIONAL = ("game", "tiebreak", "expect", "description", "note", "rules")
ROUND_REQUIRED = ("game", "questions")
ROUND_OPTIONAL = ("seats", "options", "multiplier", "stopped", "expect", "description", "note", "rules")
CARD_REQUIRED = ("card", "steps")
CARD_OPTIONAL = ("description", "note")
TIEBREAK_CARD_KEYS = ("question", "answer")
TIEBREAK_CARD_OPTIONAL = ("unit",)


@dataclass(frozen=True)
class NightRound:
    where: str
    plan: RoundPlan
    stopped: bool
    questions: tuple[Question, ...]
    expect: Mapping[str, Any] | None


@dataclass(frozen=True)
class NightCard:
    where: str
    question: str
    answer: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Night:
    players: tuple[str, ...]
    rounds: tuple[NightRound, ...]
    cards: tuple[NightCard, ...]
    expect: Mapping[str, Any] | None


@dataclass
class NightReplay:
    rounds: list[JSON] = field(default_factory=list)
    final: JSON = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def result(self) -> JSON:
        return {"rounds": self.rounds, "final": self.final}


def is_night(data: Any) -> bool:
    """Whether a scenario file is a night: ``"game": "night"``, or ``rounds`` and no ``game``."""
    return isinstance(data, dict) and (data.get("game") == NIGHT or ("rounds" in data and "game" not in data))


# -- reading ---------------------------------------------------------------------------------------


def load(data: Any) -> Night:
    """Validate a night file (README "night"); ScenarioError says where."""
    top = _object(data, "", "a night file")
    _keys(top, "the night file", TOP_REQUIRED, TOP_OPTIONAL)
    if top.get("game", NIGHT) != NIGHT:
        _fail("game", f"a night file's game is {NIGHT!r}, got {json.dumps(top['game'])}")
    players = _players(top)
    _free_text(top, "")
    rounds = tuple(_round(item, f"rounds[{i}]") for i, item in enumerate(_list(top["rounds"], "rounds", "rounds")))
    cards = tuple(
        _card(item, f"tiebreak[{i}]") for i, item in enumerate(_list(top.get("tiebreak", []), "tiebreak", "tiebreak"))
    )
    expect = None if "expect" not in top else _object(top["expect"], "expect", "expect")
    return Night(tuple(players), rounds, cards, expect)


def _free_text(data: Mapping[str, Any], where: str) -> None:
    prefix = f"{where}." if where else ""
    for key in ("description", "note"):
        if key in data and not isinstance(data[key], str):
            _fail(f"{prefix}{key}", f"{key} must be text")
    rules = _list(data.get("rules", []), f"{prefix}rules", "rules")
    if not all(isinstance(rule, str) for rule in rules):
        _fail(f"{prefix}rules", "rules must be a list of rule ids (text)")


def _round(item: Any, where: str) -> NightRound:
    data = _object(item, where, "a round")
    if "players" in data:
        _fail(where, "a round has no players of its own: its seats name the night's players who sit it")
    _keys(data, where, ROUND_REQUIRED, ROUND_OPTIONAL)
    game = data["game"]
    if game not in KINDS:
        _fail(f"{where}.game", f"unknown game {json.dumps(game)}; a round is one of {', '.join(KINDS)}")
    _free_text(data, where)
    stopped = data.get("stopped", False)
    if not isinstance(stopped, bool):
        _fail(f"{where}.stopped", f"stopped must be true or false, got {json.dumps(stopped)}")
    options = _object(data.get("options", {}), f"{where}.options", "options")
    seats = data.get("seats")
    if seats is not None:
        _list(seats, f"{where}.seats", "seats")
    try:
        plan = RoundPlan(game, seats, options, data.get("multiplier", 1))
    except QuizboxError as exc:
        _fail(where, str(exc))
    extra = QUESTION_EXTRA.get(game, ())
    questions = tuple(
        _question(q, f"{where}.questions[{i}]", extra)
        for i, q in enumerate(_list(data["questions"], f"{where}.questions", "questions"))
    )
    expect = None if "expect" not in data else _object(data["expect"], f"{where}.expect", "expect")
    return NightRound(where, plan, stopped, questions, expect)


def _card(item: Any, where: str) -> NightCard:
    data = _object(item, where, "a tie-break card")
    _keys(data, where, CARD_REQUIRED, CARD_OPTIONAL)
    card = _object(data["card"], f"{where}.card", "card")
    _keys(card, f"{where}.card", TIEBREAK_CARD_KEYS, TIEBREAK_CARD_OPTIONAL)
    question, answer = card["question"], card["answer"]
    if not isinstance(question, str) or not isinstance(answer, str):
        _fail(f"{where}.card", "a tie-break card's question and answer are text (the answer in any number form)")
    steps = []
    for index, raw in enumerate(_list(data["steps"], f"{where}.steps", "steps")):
        step_where = f"{where}.steps[{index}]"
        step = _object(raw, step_where, "a step")
        _keys(step, step_where, ("player", "number"), ("expect_error",))
        if not isinstance(step["player"], str):
            _fail(step_where, f"a step needs a player name, got {json.dumps(step)}")
        marked = step.get("expect_error", False)
        if not isinstance(marked, bool):
            _fail(step_where, f"expect_error must be true or false, got {json.dumps(marked)}")
        steps.append(Step(f"{step_where} ({step['player']})", step, marked))
    return NightCard(where, question, answer, tuple(steps))


# -- playing ---------------------------------------------------------------------------------------


def play(night: Night) -> NightReplay:
    """Play every round, then the tie-break; ScenarioError if the file cannot be replayed."""
    replay = NightReplay()
    try:
        engine = NightEngine(list(night.players), {"rounds": [r.plan for r in night.rounds]})
    except QuizboxError as exc:
        _fail("rounds", f"refused: {exc}")
    for number, round_ in enumerate(night.rounds):
        if engine.phase != Phase.BETWEEN.value:
            previous = night.rounds[number - 1].where
            _fail(round_.where, f"cannot start: {previous} is neither over nor stopped after its last question")
        engine.apply(StartRound.now())
        replay.rounds.append(_play_round(engine, round_, replay.problems))
    replay.final = {
        "standing": engine.standing(),
        "tiebreak": _play_tiebreak(engine, night.cards, replay.problems),
        "winners": engine.winners(),
        "finished": engine.finished,
        "places": engine.places(),
    }
    return replay


def _play_round(night: NightEngine, round_: NightRound, problems: list[str]) -> JSON:
    playing = night.playing
    assert playing is not None
    adapter = adapter_for(round_.plan.game)
    try:
        game = adapter.new_engine(list(playing.seats), round_.plan.options)
    except QuizboxError as exc:
        _fail(round_.where, f"refused: {exc}")
    questions = play_questions(adapter, game, round_.questions, problems)
    over = game.finished or round_.stopped
    if over:
        try:
            night.apply(FinishRound.of(game.log, stopped=round_.stopped))
        except QuizboxError as exc:
            _fail(round_.where, f"the round could not be scored: {exc}")
        assert playing.engine is not None
        game = playing.engine
    try:
        final = adapter.final_result(game)
    except QuizboxError as exc:
        _fail(round_.where, f"no final result: {exc}")
    scored = playing.status in SCORED
    return {
        "game": round_.plan.game,
        "questions": questions,
        "final": final,
        "places": dict(playing.places) if scored else {},
        "points": dict(playing.points) if scored else dict.fromkeys(night.players, 0),
        "seats": list(playing.seats),
        "multiplier": round_.plan.multiplier,
        "stopped": round_.stopped,
        "status": playing.status.value,
    }


def _play_tiebreak(night: NightEngine, cards: Sequence[NightCard], problems: list[str]) -> list[dict[str, str]]:
    played: list[dict[str, str]] = []
    for card in cards:
        opened = night.phase == Phase.TIEBREAK.value
        if opened:
            try:
                night.apply(TiebreakCard.deal(card.question, parse_number(card.answer)))
            except QuizboxError as exc:
                _fail(f"{card.where}.card", f"refused: {exc}")
        for step in card.steps:
            play_step(night, functools.partial(_enter, night, step.data), step, problems)
        if opened:
            if night.card is not None:
                night.apply(CloseCard(HOST))
            played.append(night.cards[-1].distances_json())
    return played


def _enter(night: NightEngine, step: Mapping[str, Any]) -> None:
    number = step["number"]
    if isinstance(number, bool) or not isinstance(number, str | int):
        raise ScenarioError(f"a tie-break number is text in any number form, got {json.dumps(number)}")
    night.apply(EnterNumber(step["player"], parse_number(str(number))))


# -- comparing -------------------------------------------------------------------------------------


def check(night: Night, replay: NightReplay) -> list[str]:
    """Every disagreement between the file's ``expect`` keys and the replay, plus its problems."""
    found = list(replay.problems)
    for round_, result in zip(night.rounds, replay.rounds, strict=True):
        for question, question_result in zip(round_.questions, result["questions"], strict=True):
            found += _compare(question.expect, question_result, f"{question.where}.expect", "question")
        expect = dict(round_.expect or {})
        final = expect.pop("final", None)
        found += _compare(expect, result, f"{round_.where}.expect", "round")
        if isinstance(final, Mapping):  # "that game's final result, as in its own file": the keys it names
            found += _compare(final, result["final"], f"{round_.where}.expect.final", "round's final")
        elif final is not None:
            found += differences(final, result["final"], f"{round_.where}.expect.final")
    found += _compare(night.expect, replay.final, "expect", "final")
    return found


def _compare(expect: Mapping[str, Any] | None, result: Mapping[str, Any], where: str, what: str) -> list[str]:
    found: list[str] = []
    for key, want in (expect or {}).items():
        if key not in result:
            found.append(f"{where}.{key}: the {what} result has no {key!r} (it has {', '.join(result)})")
        else:
            found += differences(want, result[key], f"{where}.{key}")
    return found
