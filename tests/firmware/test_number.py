"""The quiz night's tie-break on a handset (issue 15): a `number` prompt (protocol 1.2) takes one exact number
on either layout, reviewed before sending, refused with a reason when it is no number; a prompt of a kind
the handset does not know shows as an info screen instead of being dropped."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from appliance.games.numbers import parse_number
from firmware import protocol as P
from firmware.core import allowed, bot, editor
from firmware.core.handset import Handset
from tests.firmware import samples
from tests.firmware.support import BOX, HID, Transport, ack, make, press, show, shows
from tests.firmware.test_keys import keys

BERLIN = samples.by_id("n1")  # no unit
EIFFEL = samples.by_id("n2")  # unit "metres"


def typed(prompt: dict, layout: str, presses: list[str]) -> list[dict]:
    handset, transport, _ = make(layout)
    handset.connected()
    show(handset, prompt)
    press(handset, presses)
    return [i["data"] for i in transport.inputs()]


@pytest.mark.parametrize(
    ("typed_keys", "number"),
    [
        ("1989", "1989"),
        ("330.5", "330.5"),
        ("-40", "-40"),
        (".25", "0.25"),
        ("3.5[mag][mag]", "3500000"),  # 3.5M
        ("6.02[mag][mag][mag][mag][mag]23", "602000000000000000000000"),  # x10^23
        ("1[mag][mag][mag][mag][mag]45", "1 x 10^45"),  # longer than 40 characters as plain text
        ("2.500", "2.5"),
        ("-0", "0"),
        ("12[del]9", "19"),
    ],
)
def test_keypad_types_one_exact_number(typed_keys: str, number: str) -> None:
    sent = typed(BERLIN, "keypad", keys(typed_keys) + ["ok", "ok"])
    assert sent == [{"number": number}]
    assert parse_number(sent[0]["number"]) == parse_number(number)


def test_keypad_next_stays_on_the_one_field() -> None:
    assert typed(BERLIN, "keypad", ["1", "next", "9", "next", "8", "9", "ok", "ok"]) == [{"number": "1989"}]


R = "right"


@pytest.mark.parametrize(
    ("presses", "number"),
    [
        (["up", R] + ["up"] * 9 + [R] + ["up"] * 8 + [R] + ["up"] * 9, "1989"),
        (["up"] * 3 + [R] + ["up"] * 3 + [R] + ["down"], "330"),  # 0 is one "down" from blank
        (["left", "up", R, "up", "up"], "-2"),  # the sign slot, then the first digit
        (["up"] * 3 + [R, R] + ["up", "up"] + [R] + ["up"] * 5, "3500000"),  # 3, M, 5: 3.5M
        (["up", R, R, R, R, R, "left", "left", "up", "up"], "12"),  # right at the end stays; back to append
    ],
)
def test_five_buttons_type_one_exact_number(presses: list[str], number: str) -> None:
    assert typed(BERLIN, "five", presses + ["ok", "ok"]) == [{"number": number}]


def test_five_buttons_stay_in_the_field_at_both_ends() -> None:
    handset, _, _ = make("five")
    show(handset, BERLIN)
    form = handset.editor
    assert isinstance(form, editor.NumberForm)
    press(handset, ["left", "left", "left"])
    assert form.field is form.number and form.number.pos == 0  # the sign: no wrap to the magnitude
    press(handset, ["right"] * 10)
    last = len(form.number._slots()) - 1
    assert form.number.pos == last


@pytest.mark.parametrize("layout", ["keypad", "five"])
def test_review_shows_the_number_and_unit_then_back_keeps_it(layout: str) -> None:
    handset, transport, fb = make(layout)
    handset.connected()
    show(handset, EIFFEL)
    assert shows(fb, "in metres") and shows(fb, ">Number:")
    assert shows(fb, "D=ok" if layout == "keypad" else "^v edit <> move")  # one field: no "C=next"
    digits = ["3", "3", "0"] if layout == "keypad" else ["up"] * 3 + [R] + ["up"] * 3 + [R] + ["down"]
    press(handset, digits + ["ok"])
    assert handset.editor.review and shows(fb, "Send this?") and shows(fb, "330") and shows(fb, "metres")
    press(handset, ["del" if layout == "keypad" else "left"])  # back: nothing sent, the value kept
    assert not handset.editor.review and transport.inputs() == []
    assert shows(fb, "330_" if layout == "keypad" else "+33")
    [seq] = press(handset, ["ok", "ok"])
    assert shows(fb, "Sending...")
    ack(handset, seq, True, "tie-break locked in")
    assert shows(fb, "Locked in")
    [sent] = transport.inputs()
    assert sent["kind"] == P.NUMBER and sent["prompt"] == "n2" and sent["data"] == {"number": "330"}


def test_long_number_on_the_review_page_is_exact() -> None:
    handset, _, fb = make("keypad")
    show(handset, BERLIN)
    press(handset, ["-", *"123456.789012", "ok"])  # longer than the 8 cells of the field
    assert shows(fb, "-123456.789012")


def test_ok_with_nothing_typed_says_so() -> None:
    for layout in ("keypad", "five"):
        handset, transport, fb = make(layout)
        handset.connected()
        show(handset, BERLIN)
        press(handset, ["ok"])
        assert handset.editor.notice == "enter Number" and shows(fb, "enter Number")
        assert not handset.editor.review and transport.inputs() == []


def test_an_unfinished_exponent_is_refused_on_the_form() -> None:
    handset, transport, fb = make("keypad")
    handset.connected()
    show(handset, BERLIN)
    press(handset, ["5"] + ["mag"] * 5 + ["ok"])  # 5 x10^ with no exponent
    assert handset.editor.notice == "Number: exponent?" and shows(fb, "Number: exponent")
    press(handset, ["3", "ok", "ok"])
    assert transport.on("input")[0]["data"] == {"number": "5000"}


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({}, "enter a number"),
        ({"number": 1989}, "number not text"),
        ({"number": ""}, "bad number"),
        ({"number": "1,5"}, "bad number"),
        ({"number": "12 metres"}, "bad number"),
        ({"number": "1 x 10^100"}, "number too big"),
        ({"number": "1 x 10^"}, "bad exponent"),
        ({"number": "1989", "unit": "years"}, "unexpected unit"),
        ({"bottom": "1", "top": "2"}, "unexpected bottom"),
    ],
)
def test_allowed_refuses_what_is_no_number(data: dict, reason: str) -> None:
    with pytest.raises(ValueError) as err:
        allowed.check(BERLIN, data)
    assert str(err.value) == reason


def test_allowed_sends_the_exact_number_as_the_appliance_reads_it() -> None:
    for text, wire in [
        ("1989", "1989"),
        (" 12.50 ", "12.5"),
        ("-3k", "-3000"),
        ("2.5M", "2500000"),
        ("6.02 x 10^23", "602000000000000000000000"),
        ("1 x 10^-5", "0.00001"),
    ]:
        out = allowed.check(BERLIN, {"number": text})
        assert out == {"number": wire}
        parsed = P.parse_input(HID, P.make_input(1, "n1", P.NUMBER, out))
        assert parse_number(parsed["data"]["number"]) == parse_number(wire)


def test_a_phone_submits_a_number() -> None:
    transport = Transport()
    phone = Handset(BOX, HID, transport, layout=P.LAYOUT_TOUCH)
    phone.connected()
    show(phone, BERLIN)
    assert isinstance(phone.editor, editor.NumberForm) and phone.view == "edit"
    with pytest.raises(ValueError, match="bad number"):
        phone.submit({"number": "nineteen"})
    assert transport.inputs() == []
    phone.submit({"number": "1989"})
    assert [i["data"] for i in transport.inputs()] == [{"number": "1989"}]


def test_bots_answer_a_tie_break_with_plausible_numbers() -> None:
    rng = random.Random(15)
    numbers = []
    for _ in range(400):
        data = bot.choose(BERLIN, rng)
        assert data is not None and set(data) == {"number"}
        P.parse_input(HID, P.make_input(1, "n1", P.NUMBER, data))
        numbers.append(parse_number(data["number"]))
    guesses = [n for n in numbers if 0 <= n < 10000]
    assert len(guesses) >= 250  # mostly what a player guesses for a year or a count
    assert any(n != n.to_integral_value() for n in numbers)  # now and then a decimal
    assert any(n < 0 or n >= 10000 for n in numbers)  # and anything else a player might type
    assert len(set(numbers)) > 300
    assert all(isinstance(n, Decimal) for n in numbers)


# -- a kind from a later protocol revision -----------------------------------------------------------------


def later_prompt(**extra: object) -> dict:
    prompt = {"v": 1, "id": "q9-p1", "kind": "dartboard", "title": "Darts!", "text": "Throw at the TV"}
    prompt.update(extra)
    return prompt


@pytest.mark.parametrize("layout", ["keypad", "five"])
def test_a_prompt_of_an_unknown_kind_shows_as_info(layout: str) -> None:
    handset, transport, fb = make(layout)
    handset.connected()
    show(handset, samples.by_id("r2"))
    press(handset, ["1"] if layout == "keypad" else ["up"])
    show(handset, later_prompt(wait=True, lines=["ignored"], targets=[1, 2], private={"score": 9}))
    assert handset.view == "info" and handset.editor is None
    assert handset.prompt["id"] == "q9-p1" and handset.prompt["kind"] == P.INFO
    assert shows(fb, "Darts!") and shows(fb, "Throw at the TV") and shows(fb, "score: 9")
    assert not shows(fb, "Waiting for")  # only title, text and the player's own info
    press(handset, list(editor.LAYOUT_KEYS[layout]))  # every key: nothing to enter
    assert transport.on("input") == [] and handset.view == "info"
    with pytest.raises(ValueError, match="nothing to enter"):
        handset.submit({})


def test_the_same_unknown_prompt_again_changes_nothing_and_a_known_one_follows() -> None:
    handset, _, fb = make("keypad")
    show(handset, later_prompt())
    shown = handset.prompt
    show(handset, later_prompt())
    assert handset.prompt == shown and handset.view == "info"
    show(handset, BERLIN)
    assert handset.view == "edit" and shows(fb, ">Number:")


def test_a_malformed_prompt_is_still_dropped() -> None:
    handset, _, _ = make("keypad")
    show(handset, BERLIN)
    for bad in (
        {"v": 1, "kind": "dartboard"},
        {"v": 1, "id": "", "kind": "dartboard"},
        {"v": 2, "id": "x", "kind": "dartboard"},
        {"v": 1, "id": "x", "kind": 7},
    ):
        assert not handset.on_message(P.prompt_topic(BOX, HID), P.encode(bad))
        assert handset.prompt["id"] == "n1" and handset.view == "edit"


def test_unknown_kind_info_screen_draws_odd_titles() -> None:
    handset, _, fb = make("keypad")
    show(handset, later_prompt(title=["not", "text"], text={"odd": 1}))
    assert handset.view == "info" and handset.render_errors == 0
    assert shows(fb, "['not', 'te") and shows(fb, "{'odd': 1}")
