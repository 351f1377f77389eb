"""No text overflows its box, is cut, or is drawn below the minimum size: for every scene at 720p,
1080p and 4K, with the longest player names, the longest texts of the shipped decks, texts at the deck
validator's length limits, and full tables."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

import pytest

from appliance.board import compose
from appliance.board.canvas import Canvas
from appliance.board.theme import MIN_TEXT_UNITS, font
from appliance.decks.model import AllInCard, EstimationCard, SquizzCard
from appliance.decks.shipped import shipped_decks
from appliance.decks.validate import MAX_LENGTH
from firmware.protocol import MAX_NAME
from tests.board.fixtures import Play, board_states, envelope

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]

LONG_NAMES = {
    # names at the protocol's limit (24 characters), wide letters first
    "Ann": "Wolfgang-Amadeus-Mozartt",
    "Bob": "Maximilian Alexander III",
    "Cat": "Bartholomew Higginbottom",
    "Dan": "Anne-Sophie Vandermeulen",
    "Eve": "Étienne Montgomery-Woods",
}


def replace(value: Any, mapping: Mapping[str, str]) -> Any:
    """``value`` with every string (and dict key) equal to a key of ``mapping`` replaced."""
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [replace(v, mapping) for v in value]
    if isinstance(value, dict):
        return {replace(k, mapping): replace(v, mapping) for k, v in value.items()}
    return value


def words_of(length: int) -> str:
    """Realistic text of exactly ``length`` characters (words of 4-11 letters)."""
    pieces, lengths, i = [], [7, 4, 11, 5, 9, 6, 8], 0
    while sum(len(p) + 1 for p in pieces) < length:
        pieces.append("Wmgkhqzdabe"[: lengths[i % len(lengths)]])
        i += 1
    return " ".join(pieces)[:length].strip()


@lru_cache(maxsize=1)
def longest_deck_texts() -> dict[str, str]:
    """The longest question, hint, unit, statement, prompt, proposition text and value shipped."""
    best: dict[str, str] = {}

    def keep(key: str, text: str) -> None:
        if len(text) > len(best.get(key, "")):
            best[key] = text

    for deck in shipped_decks():
        for card in deck.cards:
            if isinstance(card, EstimationCard):
                keep("question", card.question)
                keep("unit", card.unit)
                for hint in card.hints:
                    keep("hint", hint)
            elif isinstance(card, AllInCard):
                for statement in card.statements:
                    keep("statement", statement)
            elif isinstance(card, SquizzCard):
                keep("prompt", card.prompt)
                for proposition in card.propositions:
                    keep("text", proposition.text)
                    keep("value", str(proposition.value))
    return best


def limit_texts() -> dict[str, str]:
    return {key: words_of(MAX_LENGTH[key]) for key in ("question", "hint", "unit", "statement", "prompt", "text")}


TEXT_SLOTS = {
    # fixture text -> the kind of deck text that takes its place
    "The moon. How many people have walked on its surface?": "question",
    "How high is Mount Everest, in metres (the 2020 survey)?": "question",
    "people": "unit",
    "Higher than 8,000 m.": "hint",
    "Between 8,800 and 8,900 m.": "hint",
    "I once sang karaoke in front of more than a hundred people.": "statement",
    "I have never broken a bone.": "statement",
    "Which of these animals lives longest?": "prompt",
    "Greenland shark": "text",
    "Domestic cat": "text",
    "Galápagos giant tortoise": "text",
}


def with_texts(state: dict[str, Any], texts: Mapping[str, str]) -> dict[str, Any]:
    mapping = {fixture: texts[kind] for fixture, kind in TEXT_SLOTS.items() if kind in texts}
    return replace(replace(state, LONG_NAMES), mapping)  # type: ignore[no-any-return]


def problems(canvas: Canvas) -> list[str]:
    """Every way a text on ``canvas`` breaks the rules, in words."""
    found = []
    minimum = canvas.theme.min_text
    width, height = canvas.surface.get_size()
    for p in canvas.placements:
        bx, by, bw, bh = p.box
        rx, ry, rw, rh = p.rect
        if p.below_min or p.px < minimum:
            found.append(f"{p.text!r} drawn at {p.px}px, below the minimum {minimum}px")
        if rx < bx or ry < by or rx + rw > bx + bw or ry + rh > by + bh:
            found.append(f"{p.text!r} overflows its box {p.box}: {p.rect}")
        if rx < 0 or ry < 0 or rx + rw > width or ry + rh > height:
            found.append(f"{p.text!r} leaves the screen: {p.rect}")
        if "".join(p.lines).replace(" ", "") != p.text.replace(" ", "").replace("\n", ""):
            found.append(f"{p.text!r} was cut: {p.lines}")
    return found


def missing_glyphs(canvas: Canvas) -> set[str]:
    """Characters drawn as the font's 'missing glyph' box (compared with a private-use character)."""
    missing = set()
    for role in ("title", "body"):
        face = font(role, 40)
        tofu = face.metrics("\ue000")[0]
        for p in canvas.placements:
            for char in set(p.text) - {" ", "\n"}:
                if face.metrics(char)[0] == tofu:
                    missing.add(char)
    return missing


def crowd_states() -> Iterator[tuple[str, dict[str, Any]]]:
    """Full tables: eight players (six for All In), twelve handsets in the lobby."""
    eight = [f"Player number {i} of eight"[:MAX_NAME] for i in range(1, 9)]
    twelve = [f"{name[:21]} {i:02d}" for i in range(3) for name in LONG_NAMES.values()][:12]
    yield "lobby-12", envelope(None, None, twelve, scene="lobby", offline=twelve[3:5],
                               join={"url": "http://quizbox.local:8080/join", "address": "quizbox.local:8080"})
    confident = Play("confident", eight)
    q = {"card": {"question": "How many?", "answer": "12"}}
    confident.start(q)
    for index, name in enumerate(eight[:5]):
        confident.step({"player": name, "range": [str(index), str(10 ** (index + 1))]})
    yield "confident-question-8", envelope("confident", confident.view(), eight, remaining=55.0)
    confident.finish(q)
    yield "confident-reveal-8", envelope("confident", confident.view(), eight)
    squizz = Play("squizz", eight)
    card = {"prompt": "Largest?", "propositions": [{"label": "x", "value": "1"},
                                                  {"label": "y", "value": "2"},
                                                  {"label": "z", "value": "3"}]}
    squizz.start({"card": card, "die": 3})
    yield "squizz-question-8", envelope("squizz", squizz.view(), eight)
    for name in eight[1:]:
        squizz.step({"player": name, "answer": "C", "token": squizz.engine.private_view(name)["tokens"][0]})
    yield "squizz-reveal-8", envelope("squizz", squizz.view(), eight)
    six = eight[:6]
    allin = Play("allin", six)
    allin.start({"card": {"statements": ["a", "b", "c"]}})
    allin.step({"player": six[0], "pick": 0, "answer": True})
    yield "allin-betting-6", envelope("allin", allin.view(), six)
    for name in six[1:]:
        allin.step({"player": name, "split": {"true": 7, "false": 8}})
    yield "allin-reveal-6", envelope("allin", allin.view(), six)
    poker = Play("poker", eight)
    poker.start({"card": {"question": "How many?", "answer": "5", "hints": ["More than 1.", "Fewer than 9."]}})
    for name in eight:
        poker.step({"player": name, "range": ["1", "9"]})
    poker.step({"player": eight[0], "action": "bet", "to": 20})
    yield "poker-betting-8", envelope("poker", poker.view(), eight)


def all_cases() -> Iterator[tuple[str, dict[str, Any], float]]:
    for name, state in board_states().items():
        yield name, state, 30.0
    for name, state in board_states().items():
        yield f"{name}+long-names+deck-texts", with_texts(state, longest_deck_texts()), 30.0
        yield f"{name}+long-names+limit-texts", with_texts(state, limit_texts()), 30.0
    for name, state in crowd_states():
        yield name, state, 30.0
    for name, state in board_states().items():  # mid-animation frames follow the same rules
        yield f"{name}@0.4s", state, 0.4


CASES = list(all_cases())


@pytest.mark.parametrize("size", SIZES, ids=[f"{s[1]}p" for s in SIZES])
def test_no_text_overflows_is_cut_or_too_small(size: tuple[int, int]) -> None:
    failures = []
    for name, state, now in CASES:
        canvas, _ = compose(state, size, now)
        assert canvas.placements, f"{name}: nothing was written"
        failures += [f"{name}: {problem}" for problem in problems(canvas)]
    assert not failures, "\n".join(failures[:30])


def test_every_character_has_a_glyph() -> None:
    missing: set[str] = set()
    for _, state, now in CASES:
        missing |= missing_glyphs(compose(state, (1280, 720), now)[0])
    assert not missing, f"characters without a glyph in the shipped font: {sorted(missing)}"


def test_the_texts_really_are_long() -> None:
    """Guard for the test above: the substitutions took place (a renamed fixture would silence it)."""
    texts = longest_deck_texts()
    assert len(texts["question"]) > 100 and len(texts["statement"]) > 60
    state = with_texts(board_states()["confident-question"], texts)
    canvas, _ = compose(state, (1920, 1080), 0.0)
    drawn = " ".join(p.text for p in canvas.placements)
    assert texts["question"] in drawn and LONG_NAMES["Ann"] in drawn
    used = {kind for fixture, kind in TEXT_SLOTS.items() if fixture in str(board_states())}
    assert used == set(TEXT_SLOTS.values())


def test_min_text_scales_with_the_screen() -> None:
    heights = {}
    for size in SIZES:
        canvas, _ = compose(board_states()["lobby"], size)
        heights[size[1]] = min(p.px for p in canvas.placements)
    for height, smallest in heights.items():
        assert smallest >= round(MIN_TEXT_UNITS * height / 1080)
    assert heights[2160] >= 2 * heights[1080] - 2


def test_a_tiny_box_still_keeps_the_whole_text_and_reports_it() -> None:
    """The fitting never cuts: when nothing fits at the minimum, it says so (the layout test fails)."""
    from pygame import Rect

    from appliance.board.canvas import new_canvas

    canvas = new_canvas((1280, 720))
    canvas.text(Rect(10, 10, 120, 30), "a sentence far too long for this box", 40)
    (placement,) = canvas.placements
    assert placement.below_min
    assert "".join(placement.lines).replace(" ", "") == "asentencefartoolongforthisbox"
    assert problems(canvas)

