"""A range prompt's unit on the handset (protocol section 6: "text to show, never to type"): the entry
screen says "in m" under the question on both layouts without costing the fields (boosts included) or the
footer a row, the review page shows "From 1 m" / "To 10 m", and the unit is never part of what is sent."""

from __future__ import annotations

from typing import Any

import pytest

from appliance.decks.limits import MAX_LENGTH
from firmware import protocol as P
from firmware.core import ui
from firmware.core.fb import FrameBuffer
from tests.firmware import samples
from tests.firmware.support import make, press, show, shows

LAYOUTS = ["keypad", "five"]
BOOSTS = {"copy": ["Bob", "Cy"], "swap": ["Bob", "Cy"], "double": True}
LONG_QUESTION = ("Bob Beamon's long jump at the 1968 Olympics in Mexico City: how far did he jump? " * 3)[: P.MAX_TEXT]
LONG_UNIT = "cubic kilometres of water a year, roughly"[: MAX_LENGTH["unit"]]  # a deck's longest unit


def prompt(unit: Any = "m", text: str = LONG_QUESTION, boosts: dict[str, Any] | None = BOOSTS) -> dict[str, Any]:
    fields: dict[str, Any] = {"private": {"score": 7}}
    if unit is not None:
        fields["unit"] = unit
    if boosts is not None:
        fields["boosts"] = boosts
    return P.make_prompt("q1", P.RANGE, "Confident?", text, **fields)


def screen(layout: str, the_prompt: dict[str, Any], keys: list[str] | None = None) -> FrameBuffer:
    handset, _, fb = make(layout)
    handset.battery = 80
    handset.connected()
    show(handset, the_prompt)
    press(handset, keys or [])
    return fb


def row(fb: FrameBuffer, n: int) -> bytes:
    """The pixels of text row ``n`` (one page of the 1-bit buffer)."""
    return bytes(fb.buffer[n * fb.width : (n + 1) * fb.width])


def drawn_alone(text: str, n: int) -> bytes:
    """Row ``n`` as it looks with only ``text`` drawn on it, unlit."""
    fb = FrameBuffer()
    ui.text_row(fb, n, text)
    return row(fb, n)


def field_row(label: str, value: str, n: int) -> bytes:
    """Row ``n`` as it looks with a field that is not the current one."""
    fb = FrameBuffer()
    ui.text_row(fb, n, " " + label + ":")
    fb.text(value, 64, n * 8, 1)
    return row(fb, n)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_range_screen_shows_the_unit_under_the_question(layout: str) -> None:
    fb = screen(layout, samples.by_id("r1"))  # unit "bones", boosts open
    assert row(fb, 2) == drawn_alone("in bones", 2)
    assert shows(fb, "Bones in an") and shows(fb, ">From:") and shows(fb, "score: 7")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_unit_costs_the_question_a_line_not_the_boosts_or_the_footer(layout: str) -> None:
    fb = screen(layout, prompt("m"))
    assert row(fb, 1) == drawn_alone(ui.wrap(LONG_QUESTION)[0], 1)  # the question's first line stays
    assert row(fb, 2) == drawn_alone("in m", 2)
    assert shows(fb, ">From:") and row(fb, 4) == field_row("To", "", 4)
    assert row(fb, 5) == field_row("Copy", "(none)", 5) and row(fb, 6) == field_row("Swap", "(none)", 6)
    assert row(fb, 7) == drawn_alone("score: 7", 7)  # the footer is still the footer


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_long_unit_is_cut_to_the_screen_width(layout: str) -> None:
    assert len(LONG_UNIT) == MAX_LENGTH["unit"]
    fb = screen(layout, prompt(LONG_UNIT))
    assert row(fb, 2) == drawn_alone(("in " + LONG_UNIT)[: ui.COLS], 2)  # "in cubic kilomet"
    assert row(fb, 5) == field_row("Copy", "(none)", 5) and row(fb, 6) == field_row("Swap", "(none)", 6)
    assert row(fb, 7) == drawn_alone("score: 7", 7)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_without_boosts_the_whole_question_head_stays(layout: str) -> None:
    fb = screen(layout, prompt("m", text="How far did Bob Beamon jump?", boosts=None))
    assert shows(fb, "How far did Bob") and shows(fb, "Beamon jump?") and row(fb, 3) == drawn_alone("in m", 3)
    assert shows(fb, ">From:") and row(fb, 5) == field_row("To", "", 5)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("unit", ["", "   ", 5])
def test_no_unit_draws_nothing_and_keeps_the_layout(layout: str, unit: Any) -> None:
    without = screen(layout, prompt(None))
    with_empty = screen(layout, prompt(unit))
    assert with_empty.buffer == without.buffer
    assert row(without, 2) == drawn_alone(ui.wrap(LONG_QUESTION)[1], 2)  # the question's second line
    assert not shows(with_empty, "in ")


def to_review(handset: Any, layout: str) -> None:
    """From 1, To 10, swap Bob with Cy, double: then the review page."""
    if layout == "keypad":
        press(handset, ["1", "next", "1", "0", "next", "next", "1", "next", "2", "next", "1", "ok"])
        return
    form = handset.editor
    press(handset, ["up", "ok"])  # a blank digit scrolls to 1; OK on From goes to To, which suggests 2
    press(handset, ["down", "right", "down"])  # 2 down to 1, then a blank digit down to 0: 10
    for field, keys in ((form.swap1, ["up"]), (form.swap2, ["up", "up"]), (form.double, ["up"])):
        while form.field is not field:  # right runs through the field's slots, then on to the next field
            press(handset, ["right"])
        press(handset, keys)
    press(handset, ["ok"])


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_review_says_from_1_m_to_10_m(layout: str) -> None:
    handset, transport, fb = make(layout)
    handset.connected()
    show(handset, prompt("m"))
    to_review(handset, layout)
    assert handset.editor.review, handset.editor.notice
    assert handset.editor.summary(handset.editor.data) == ["From 1 m", "To   10 m", "Swap Bob/Cy", "Double!"]
    assert shows(fb, "From 1 m") and shows(fb, "To   10 m") and shows(fb, "Double!")
    press(handset, ["ok"])
    [sent] = transport.inputs()
    assert sent["data"] == {"bottom": "1", "top": "10", "swap": ["Bob", "Cy"], "double": True}  # no unit sent


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_unit_too_long_for_the_value_lines_gets_its_own_review_line(layout: str) -> None:
    handset, _, fb = make(layout)
    handset.connected()
    show(handset, prompt(LONG_UNIT))
    to_review(handset, layout)
    lines = ["From 1", "To   10", ("in " + LONG_UNIT)[:16], "Swap Bob/Cy", "Double!"]
    assert handset.editor.summary(handset.editor.data) == lines
    for n, line in enumerate(lines):
        assert row(fb, 2 + n) == drawn_alone(line, 2 + n)  # all five lines, rows 2-6
    assert shows(fb, "D=send  B=back" if layout == "keypad" else "OK=send  <=back")


def test_the_unit_is_never_typed() -> None:
    handset, transport, fb = make("keypad")
    handset.connected()
    show(handset, prompt("m", boosts=None))
    press(handset, ["1", "2"])
    assert shows(fb, "12_")  # the value cell holds the typed number only
    press(handset, ["next", "2", "0", "ok", "ok"])
    assert [i["data"] for i in transport.inputs()] == [{"bottom": "12", "top": "20"}]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_number_prompts_long_unit_is_cut_the_same_way(layout: str) -> None:
    fb = screen(layout, P.make_prompt("n", P.NUMBER, "Tie-break!", "How much water?", unit=LONG_UNIT))
    assert row(fb, 2) == drawn_alone(("in " + LONG_UNIT)[: ui.COLS], 2)  # was "in cubic": cut at a space
