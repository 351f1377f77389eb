"""Every prompt kind on both layouts, drawn on the 128x64 framebuffer; PNGs go to artifacts/handset-screens."""

from __future__ import annotations

import pytest

from firmware import protocol as P
from firmware.core import ui
from firmware.core.fb import FrameBuffer
from tests.firmware import samples
from tests.firmware.support import ack, make, press, save_png, show, shows

# what each sample prompt must show right away (both layouts)
EXPECTED = {
    "i1": ["Look at the TV", "Question 3 of 10"],
    "w1": ["Waiting for", "others...", "range: 1.2k-3k", "score: 7"],
    "r1": ["Bones in an", "in bones", ">From:", " To:", "score: 7"],
    "r2": ["Height of", "Everest in", ">From:", " To:"],
    "b1": ["Pot 60", "Stack 1000", ">Action:", "range: 8000-9000"],
    "b2": ["Pot 140 call 40", "Stack 950", ">Action:"],
    "c1": ["You read: pick", ">Pick:", " Answer:"],
    "s1": ["Split all 15", ">True:", " False: 15", "chips: 15"],
    "t1": ["Which is the", ">Answer:", " Token: -", "tokens: 1,2,4"],
    "z1": ["BUZZ!", "any key"],
    "z2": ["not armed", "wait..."],
    "n1": ["In which year", "did the Berlin", ">Number:"],
    "n2": ["How tall is the", "in metres", ">Number:"],
}

# a few keys into each prompt, for the screenshots of a form being filled in
TYPING = {
    "keypad": {
        "r1": ["1", "2", ".", "5", "mag", "next", "2", "0", "mag"],
        "r2": ["8", "8", "4", "8"],
        "b1": ["3", "next", "1", "2", "0"],
        "b2": ["3"],
        "c1": ["2", "next", "1"],
        "s1": ["9"],
        "t1": ["2", "next", "4"],
        "n2": ["3", "3", "0", ".", "5"],
    },
    "five": {
        "r1": ["up", "right", "up", "up"],
        "r2": ["up", "right", "right", "up", "up", "right", "up"],
        "b1": ["up", "up", "up", "right", "up"],
        "b2": ["up"],
        "c1": ["up", "right", "down"],
        "s1": ["up"] * 4,
        "t1": ["up", "right", "down"],
        "n2": ["up"] * 3 + ["right"] + ["up"] * 3,
    },
}


@pytest.mark.parametrize("layout", ["keypad", "five"])
@pytest.mark.parametrize("prompt_id", sorted(EXPECTED))
def test_every_prompt_kind_renders(layout: str, prompt_id: str) -> None:
    handset, _, fb = make(layout)
    handset.battery = 76
    handset.connected()
    show(handset, samples.by_id(prompt_id))
    for text in EXPECTED[prompt_id]:
        assert shows(fb, text), text
    assert shows(fb, samples.by_id(prompt_id)["title"][:11])
    save_png(fb, f"handset-{layout}-{prompt_id}")
    keys = TYPING[layout].get(prompt_id)
    if keys:
        press(handset, keys)
        save_png(fb, f"handset-{layout}-{prompt_id}-typing")


def test_keypad_typing_shows_the_value_and_cursor() -> None:
    handset, _, fb = make("keypad")
    show(handset, samples.by_id("r2"))
    press(handset, ["-", "1", "2", ".", "5", "mag", "mag"])
    assert shows(fb, "-12.5M_")
    press(handset, ["mag", "mag", "mag", "2", "4"])
    assert shows(fb, "5x10^24_")  # "-12.5x10^24_" is longer than the 8 cells: its end stays in sight
    handset, _, fb = make("keypad")
    show(handset, samples.by_id("r2"))
    press(handset, ["5", "next", "3", "ok"])
    assert shows(fb, "bottom above top")


def test_five_layout_underlines_the_digit_being_scrolled() -> None:
    handset, _, fb = make("five")
    show(handset, samples.by_id("r2"))
    press(handset, ["up", "right", "up", "up"])  # "12", cursor on the 2
    rows = [r for r in range(8) if shows_row(fb, r, ">From:")]
    assert rows, "no From row"
    row = rows[0] * 8
    # value column starts at x=64: "+12 " with the cursor cell (the "2", column 2) not inverted
    cell = FrameBuffer(8, 8)
    cell.text("2", 0, 0, 1)
    cell.hline(0, 7, 8, 1)  # lit on dark and underlined
    assert [[fb.pixel(64 + 16 + x, row + y) for x in range(8)] for y in range(8)] == cell.rows()
    assert all(fb.pixel(64 + 3 * 8 + x, row) == 1 for x in range(8))  # the rest of the value is inverted


def shows_row(fb: FrameBuffer, row: int, text: str) -> bool:
    scratch = FrameBuffer()
    scratch.text(text, 0, 0, 1)
    return all(fb.pixel(x, row * 8 + y) == scratch.pixel(x, y) for x in range(len(text) * 8) for y in range(8))


@pytest.mark.parametrize("layout", ["keypad", "five"])
def test_review_locked_and_refused_screens(layout: str) -> None:
    handset, _, fb = make(layout)
    handset.connected()
    show(handset, samples.by_id("r1"))
    keys = ["1", "next", "2", "0", "mag", "ok"] if layout == "keypad" else ["up", "ok", "up", "ok"]
    press(handset, keys)
    assert shows(fb, "Send this?")
    assert shows(fb, "D=send  B=back" if layout == "keypad" else "OK=send  <=back")
    save_png(fb, f"handset-{layout}-review")
    [seq] = press(handset, ["ok"])
    assert shows(fb, "Sending...")
    ack(handset, seq, False, "Too late: the answer is already on the TV")
    assert shows(fb, "Refused:") and shows(fb, "Too late: the") and shows(fb, "answer is")
    save_png(fb, f"handset-{layout}-refused")
    press(handset, ["ok"])
    [seq] = press(handset, ["ok", "ok"])
    ack(handset, seq, True, "range locked in")
    assert shows(fb, "Locked in") and shows(fb, "range locked in") and shows(fb, "score: 7")
    save_png(fb, f"handset-{layout}-locked")


def test_connection_state_and_battery() -> None:
    handset, _, fb = make("keypad")
    show(handset, samples.by_id("r2"))
    assert shows(fb, "  no connection")  # never connected yet
    offline = [fb.pixel(104 + x, y) for x in range(8) for y in range(8)]
    handset.connected()
    online = [fb.pixel(104 + x, y) for x in range(8) for y in range(8)]
    assert offline != online and not shows(fb, "  no connection")
    save_png(fb, "handset-keypad-online")
    handset.disconnected()
    press(handset, ["1", "next", "2", "ok", "ok"])
    assert shows(fb, "Offline") and shows(fb, "sends when back")
    save_png(fb, "handset-keypad-offline-pending")

    def lit_battery(percent: int | None) -> int:
        handset.battery = percent
        handset.render()
        return sum(1 - fb.pixel(115 + x, 2 + y) for x in range(10) for y in range(4))  # dark on the bar

    assert lit_battery(0) < lit_battery(50) < lit_battery(100) == 40
    assert lit_battery(None) == 1


def test_idle_screen() -> None:
    handset, _, fb = make("five")
    assert shows(fb, "QUIZBOX") and shows(fb, "Ann") and shows(fb, "connecting...")
    handset.connected()
    assert shows(fb, "waiting for game")


def test_private_info_forms() -> None:
    assert ui.private_lines({"private": {"range": "1-2", "tokens": [1, 2]}}) == ["range: 1-2", "tokens: 1,2"]
    assert ui.private_lines({"private": ["a", 3]}) == ["a", "3"]
    assert ui.private_lines({"private": "chips 12"}) == ["chips 12"]
    assert ui.private_lines({}) == [] and ui.private_lines(None) == []


def test_wrap_and_clean() -> None:
    assert ui.wrap("How many bones are in an adult human body?") == ["How many bones", "are in an adult", "human body?"]
    assert ui.wrap("x" * 20) == ["x" * 16, "x" * 4]
    assert ui.clean("José 5°") == "Jos? 5?"


def test_a_long_option_shows_whole_in_the_footer() -> None:
    handset, _, fb = make("keypad")
    handset.connected()
    show(
        handset,
        P.make_prompt(
            "c8",
            P.CHOICE,
            "Copy",
            "",
            fields=[
                {
                    "name": "who",
                    "label": "Copy",
                    "required": True,
                    "options": [{"id": "m", "label": "Maximilian Longname"}, {"id": "b", "label": "Bo"}],
                }
            ],
        ),
    )
    press(handset, ["1"])
    assert shows(fb, "Maximili") and shows(fb, "Maximilian Longn")  # the cell, and the footer
    press(handset, ["2"])
    assert not shows(fb, "Maximilian Longn")


def test_non_ascii_names_render_one_cell_each() -> None:
    handset, _, fb = make("keypad")
    show(
        handset,
        P.make_prompt(
            "c9",
            P.CHOICE,
            "Pick",
            "",
            fields=[{"name": "who", "label": "Who", "required": True, "options": [{"id": "z", "label": "Zoë"}]}],
        ),
    )
    press(handset, ["1"])
    assert shows(fb, "Zo?")
