"""Key sequences on both layouts produce exactly the expected input payloads (issue 6)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from appliance.games.numbers import parse_number
from firmware.core import editor
from tests.firmware import samples
from tests.firmware.support import make, press, show

MAG = "mag"
X10 = [MAG] * 5  # "" -> k -> M -> B -> T -> x10^


def keypad(prompt_id: str, keys: list[str]) -> list[dict]:
    """Type ``keys`` on a keypad handset showing sample ``prompt_id``; the data of every input sent."""
    handset, transport, _ = make("keypad")
    handset.connected()
    show(handset, samples.by_id(prompt_id))
    press(handset, keys)
    return [i["data"] for i in transport.inputs()]


def keys(text: str) -> list[str]:
    """ "12.5|20" -> digit keys with | for next; words in brackets are keys: "3[mag]"."""
    out: list[str] = []
    word = None
    for ch in text:
        if ch == "[":
            word = ""
        elif ch == "]":
            out.append(word or "")
            word = None
        elif word is not None:
            word += ch
        else:
            out.append("next" if ch == "|" else ch)
    return out


@pytest.mark.parametrize(
    ("typed", "bottom", "top"),
    [
        ("12.5|20", "12.5", "20"),
        ("-3.25|4", "-3.25", "4"),  # negative and decimal
        ("-40|-0.5", "-40", "-0.5"),
        ("3[mag][mag]|3.5[mag][mag]", "3000000", "3500000"),  # 3M to 3.5M
        ("2.5[mag][mag][mag]|1[mag][mag][mag][mag]", "2500000000", "1000000000000"),  # 2.5B to 1T
        ("1.5[mag]|2[mag]", "1500", "2000"),  # k
        (".5|1", "0.5", "1"),  # a leading point
        (
            "6.02[mag][mag][mag][mag][mag]23|7[mag][mag][mag][mag][mag]23",
            "602000000000000000000000",
            "7" + "0" * 23,
        ),  # x10^
        ("1[mag][mag][mag][mag][mag]45|2[mag][mag][mag][mag][mag]45", "1 x 10^45", "2 x 10^45"),  # huge
        ("5[mag][mag][mag][mag][mag]-3|5", "0.005", "5"),  # negative exponent
        ("-999999999999999|999999999999999", "-999999999999999", "999999999999999"),  # 15 digits
        ("1.50|2.000", "1.5", "2"),  # trailing zeros dropped
        ("0|0", "0", "0"),
        ("-0|0", "0", "0"),  # never "-0"
    ],
)
def test_keypad_range_numbers(typed: str, bottom: str, top: str) -> None:
    sent = keypad("r2", keys(typed) + ["ok", "ok"])
    assert sent == [{"bottom": bottom, "top": top}]
    # the appliance reads the text back to the exact value typed
    assert parse_number(sent[0]["bottom"]) <= parse_number(sent[0]["top"])


def test_huge_number_is_exact_for_the_appliance() -> None:
    sent = keypad("r2", keys("1.23456789[mag][mag][mag][mag][mag]60|2[mag][mag][mag][mag][mag]60") + ["ok", "ok"])
    assert parse_number(sent[0]["bottom"]) == Decimal("1.23456789E+60")
    assert sent[0]["bottom"] == "1.23456789 x 10^60"


def test_editing_with_delete() -> None:
    # 12 -> del -> 14; 7k -> del (drops k) -> 75; x10^12 -> del del (exponent) del (x10^) -> 9
    typed = keys("12[del]4|7[mag][del]5") + ["ok", "ok"]
    assert keypad("r2", typed) == [{"bottom": "14", "top": "75"}]
    typed = keys("9[mag][mag][mag][mag][mag]12[del][del][del]|9") + ["ok", "ok"]
    assert keypad("r2", typed) == [{"bottom": "9", "top": "9"}]


def test_delete_clears_sign_last() -> None:
    assert keypad("r2", keys("-5[del][del]5|6") + ["ok", "ok"]) == [{"bottom": "5", "top": "6"}]


def test_review_can_be_cancelled_and_edited() -> None:
    handset, transport, _ = make("keypad")
    handset.connected()
    show(handset, samples.by_id("r2"))
    press(handset, keys("10|20") + ["ok"])
    assert handset.editor.review and handset.editor.data == {"bottom": "10", "top": "20"}
    press(handset, ["del"])  # cancel: back to editing, nothing sent, values kept
    assert not handset.editor.review and transport.inputs() == []
    press(handset, keys("[del]5") + ["ok", "ok"])  # the cursor is still on To: 20 -> 25
    assert [i["data"] for i in transport.inputs()] == [{"bottom": "10", "top": "25"}]


def test_bottom_above_top_refused_at_entry() -> None:
    # rules.md Confident 1: bottom > top is refused at entry with a clear message
    handset, transport, _ = make("keypad")
    handset.connected()
    show(handset, samples.by_id("r2"))
    press(handset, keys("5|3") + ["ok"])
    assert handset.editor.notice == "bottom above top" and not handset.editor.review
    press(handset, ["ok"])
    assert transport.inputs() == []
    press(handset, keys("[del]8") + ["ok", "ok"])
    assert [i["data"] for i in transport.inputs()] == [{"bottom": "5", "top": "8"}]


def test_missing_top_names_the_field() -> None:
    handset, transport, _ = make("keypad")
    show(handset, samples.by_id("r2"))
    press(handset, keys("5") + ["ok"])
    assert handset.editor.notice == "enter To" and handset.editor.field.label == "To"
    assert transport.inputs() == []


def test_boosts_copy_swap_double() -> None:
    # r1 fields: From, To, Copy, Swap, with, Double
    sent = keypad("r1", keys("1|2||||1") + ["ok", "ok"])  # Double
    assert sent == [{"bottom": "1", "top": "2", "double": True}]
    sent = keypad("r1", keys("||2") + ["ok", "ok"])  # Copy Cy: no range needed
    assert sent == [{"copy": "Cy"}]
    sent = keypad("r1", keys("1|2||1|3") + ["ok", "ok"])  # Swap Bob and Dee
    assert sent == [{"bottom": "1", "top": "2", "swap": ["Bob", "Dee"]}]


def test_half_a_swap_is_refused() -> None:
    handset, transport, _ = make("keypad")
    show(handset, samples.by_id("r1"))
    press(handset, keys("1|2||1") + ["ok"])
    assert handset.editor.notice == "enter with"
    press(handset, keys("1") + ["ok"])  # the same player twice
    assert handset.editor.notice == "cannot swap those"
    assert transport.inputs() == []


@pytest.mark.parametrize(
    ("prompt_id", "typed", "data"),
    [
        ("b1", "2", {"action": "check"}),  # bets keep their digits: 1 fold 2 check/call 3 bet/raise 4 all in
        ("b1", "3", {"action": "bet", "to": 20}),  # the amount starts at the minimum
        ("b1", "3|75", {"action": "bet", "to": 75}),  # typing replaces the prefilled minimum
        ("b1", "3|1[mag]", {"action": "bet", "to": 1000}),  # 1k
        ("b1", "3|.5[mag]", {"action": "bet", "to": 500}),  # 0.5k is whole
        ("b1", "1", {"action": "fold"}),
        ("b1", "4", {"action": "allin"}),
        ("b2", "2", {"action": "call"}),
        ("b2", "3|120", {"action": "raise", "to": 120}),
        ("c1", "2|1", {"choices": {"pick": "1", "answer": "true"}}),
        ("c1", "3|2|2", {"choices": {"pick": "2", "answer": "false", "exclude": "Cy"}}),
        ("s1", "9", {"split": {"true": 9, "false": 6}}),
        ("s1", "15", {"split": {"true": 15, "false": 0}}),
        ("s1", "0", {"split": {"true": 0, "false": 15}}),
        ("s1", "16", {"split": {"true": 6, "false": 9}}),  # 16 > 15 chips: the 6 starts over
        ("t1", "2|4", {"answer": "B", "token": 4}),  # token keys are the tokens' own numbers
        ("t1", "3|1", {"answer": "C", "token": 1}),
    ],
)
def test_keypad_other_kinds(prompt_id: str, typed: str, data: dict) -> None:
    assert keypad(prompt_id, keys(typed) + ["ok", "ok"]) == [data]


@pytest.mark.parametrize(
    ("prompt_id", "typed", "notice"),
    [
        ("b1", "3|2[mag]", "bet at most 1000"),
        ("b1", "3|5", "bet at least 20"),
        ("b1", "", "enter Action"),
        ("b2", "3|[del][del]", "enter To"),
        ("c1", "2", "enter Answer"),
        ("t1", "2|3", "enter Token"),  # token 3 is used up: key 3 picks nothing
        ("t1", "|4", "enter Answer"),
    ],
)
def test_keypad_refusals_send_nothing(prompt_id: str, typed: str, notice: str) -> None:
    handset, transport, _ = make("keypad")
    show(handset, samples.by_id(prompt_id))
    press(handset, keys(typed) + ["ok", "ok"])
    assert handset.editor.notice == notice
    assert transport.inputs() == []


def test_buzz_any_key_stamps_press_time() -> None:
    handset, transport, _ = make("keypad")
    handset.connected()
    show(handset, samples.by_id("z1"))
    handset.clock_ms.now = 123456
    press(handset, ["7"])
    assert [i["data"] for i in transport.inputs()] == [{"pressed": 123456}]
    press(handset, ["7"])  # one buzz per prompt until acked
    assert len(transport.inputs()) == 1


def five(prompt_id: str, keys: list[str]) -> list[dict]:
    handset, transport, _ = make("five")
    handset.connected()
    show(handset, samples.by_id(prompt_id))
    press(handset, keys)
    return [i["data"] for i in transport.inputs()]


def up(n: int) -> list[str]:
    return ["up"] * n


def digit(d: str) -> list[str]:
    """Scroll a blank digit slot to ``d``: the ring is _ 1 2 ... 9 0, so up for 1-5, down for 6-9 and 0."""
    ring = "_1234567890"
    n = ring.index(d)
    return up(n) if n <= 5 else ["down"] * (len(ring) - n)


R, L, OK = "right", "left", "ok"
# five buttons, digit-wise with magnitude steps: the whole digits, the magnitude, then its decimals (the
# point comes by itself); OK on From goes on to To, which starts at the round number above From.
FIVE_RANGES = [
    # 3.5M to 4M: 3, right (append slot), right (magnitude), up up (k, M), right, 5; OK: To is 4M already
    (digit("3") + [R, R, "up", "up", R] + digit("5") + [OK], {"bottom": "3500000", "top": "4000000"}),
    # 12 to 21: To starts at 20; right to its 0, which scrolls _ then 1
    (digit("1") + [R] + digit("2") + [OK, R, "up", "up"], {"bottom": "12", "top": "21"}),
    # 1.2k to 3k: To starts at 2k, one up
    (digit("1") + [R, R, "up", R] + digit("2") + [OK, "up"], {"bottom": "1200", "top": "3000"}),
    # 8000 to 9000 as 8k to 9k
    (digit("8") + [R, R, "up", OK], {"bottom": "8000", "top": "9000"}),
    # 250 to 300: To starts at 300
    (digit("2") + [R] + digit("5") + [R] + digit("0") + [OK], {"bottom": "250", "top": "300"}),
    # 0.5 to 2: below 1 there is no guess for To
    (digit("0") + [R, R, R] + digit("5") + [OK] + digit("2"), {"bottom": "0.5", "top": "2"}),
]


@pytest.mark.parametrize(("keys_", "data"), FIVE_RANGES)
def test_five_button_range_in_16_presses_or_fewer(keys_: list[str], data: dict) -> None:
    presses = keys_ + [OK, OK]  # review, send
    assert five("r2", presses) == [data]
    assert len(presses) <= 16, len(presses)


def test_five_button_counts_of_the_issue_example() -> None:
    keys_, data = FIVE_RANGES[0]
    assert len(keys_ + [OK, OK]) == 16  # 3.5M to 4M took 28 presses before digit-wise entry


@pytest.mark.parametrize(
    ("keys_", "data"),
    [
        # -2.5 to 3: left to the sign, up (minus), right, 2, right, right (magnitude), right, 5
        ([L, "up", R] + digit("2") + [R, R, R] + digit("5") + [OK] + digit("3"), {"bottom": "-2.5", "top": "3"}),
        # 4M to 5M: To starts there
        (digit("4") + [R, R, "up", "up", OK], {"bottom": "4000000", "top": "5000000"}),
        # magnitude scrolls backwards too: down from none is x10^, then the exponent slot; To is 2 x10^30
        (digit("1") + [R, R, "down", R] + up(30) + [OK], {"bottom": "1" + "0" * 30, "top": "2" + "0" * 30}),
        # a negative exponent: the exponent slot scrolls below zero; then a huge one
        (
            digit("5") + [R, R, "down", R, "down", "down", OK] + digit("5") + [R, R, "down", R] + up(50),
            {"bottom": "0.05", "top": "5 x 10^50"},
        ),
        # right off the end of From moves to To as well
        (digit("7") + [R, R, R, R], {"bottom": "7", "top": "8"}),
    ],
)
def test_five_button_range(keys_: list[str], data: dict) -> None:
    assert five("r2", keys_ + [OK, OK]) == [data]


def test_five_button_blank_digit_deletes() -> None:
    # 123, back to the 2, scroll it down to blank, move right: the 2 is gone -> 13; To starts at 20
    typed = digit("1") + [R] + digit("2") + [R] + digit("3") + [L, "down", "down", R, OK]
    assert five("r2", typed + [OK, OK]) == [{"bottom": "13", "top": "20"}]


def test_five_button_cancel_at_review() -> None:
    handset, transport, _ = make("five")
    show(handset, samples.by_id("t1"))
    press(handset, ["up", R, "up", "ok"])  # A, token 1
    assert handset.editor.review
    press(handset, [L])  # cancel
    assert not handset.editor.review
    press(handset, ["up", "ok", "ok"])  # token 2 instead
    assert [i["data"] for i in transport.on("input")] == []  # offline: pending, not published
    assert handset.pending["data"] == {"answer": "A", "token": 2}


@pytest.mark.parametrize(
    ("prompt_id", "keys_", "data"),
    [
        ("b1", ["up", "up", "ok", "ok"], {"action": "check"}),  # listed fold, check, bet, all in
        ("b1", ["down", "ok", "ok"], {"action": "allin"}),  # scrolling up from nothing wraps to the last
        ("b1", ["up", "up", "up", R, "up", "ok", "ok"], {"action": "bet", "to": 30}),  # 20 -> 30 (first digit)
        ("b2", ["up", "up", "up", R, R, "up", "up", "ok", "ok"], {"action": "raise", "to": 81}),  # 0 _ 1
        ("c1", ["up", R, "down", "ok", "ok"], {"choices": {"pick": "0", "answer": "false"}}),
        ("c1", ["up", R, "up", R, "down", "ok", "ok"], {"choices": {"pick": "0", "answer": "true", "exclude": "Dee"}}),
        ("c1", ["up", R, "up", R, "down", "up", "ok", "ok"], {"choices": {"pick": "0", "answer": "true"}}),
        ("c1", ["up", R, "up", R, "up", "ok", "ok"], {"choices": {"pick": "0", "answer": "true", "exclude": "Bob"}}),
        ("s1", up(4) + ["ok", "ok"], {"split": {"true": 4, "false": 11}}),
        ("s1", ["down", "ok", "ok"], {"split": {"true": 15, "false": 0}}),
        ("t1", ["up", "up", R, "down", "ok", "ok"], {"answer": "B", "token": 4}),
        ("z1", ["left"], {"pressed": 1000}),
    ],
)
def test_five_button_other_kinds(prompt_id: str, keys_: list[str], data: dict) -> None:
    assert five(prompt_id, keys_) == [data]


def test_layout_keys() -> None:
    handset, _, _ = make("five")
    with pytest.raises(ValueError, match="no key 5 on a five handset"):
        handset.press("5")
    assert len(editor.KEYPAD_KEYS) == 16 and len(set(editor.KEYPAD_KEYS)) == 16


def _room_range_prompt() -> dict:
    """The range prompt a 40-team Confident? game sends seat 1 (its Copy and Swap offer seat numbers)."""
    import random

    from appliance.flows import flow_factory
    from appliance.games.dealt import DealtCard
    from appliance.session.flow import GameSetup
    from firmware import protocol as P

    teams = [f"Team {i:02d}" for i in range(1, 41)]
    flow = flow_factory("confident")(GameSetup("confident", teams, {}, [DealtCard("c", {"question": "How many?",
                                                                                       "answer": "7"})]),
                                     random.Random(1), 0.0)
    return P.wire_prompt("b1", {**flow.prompt(teams[0]), "id": "p1"})


def _count_to_copy(layout: str, picking: list[str]) -> list[dict]:
    handset, transport, _ = make(layout)
    handset.connected()
    show(handset, _room_range_prompt())
    press(handset, picking)
    assert handset.editor.field.label == "Copy" and handset.editor.field.chosen() == "37"
    press(handset, ["ok", "ok"])  # review, send
    return [i["data"] for i in transport.inputs()]


def test_copying_seat_37_takes_4_keypad_presses() -> None:  # issue 30: a room's Copy by seat number
    picking = ["next", "next", "3", "7"]  # to the Copy field, then the seat's digits
    assert _count_to_copy("keypad", picking) == [{"copy": "37"}] and len(picking) == 4


def test_copying_seat_37_takes_6_five_button_presses() -> None:  # issue 30: at most 6 on five buttons
    # OK on an empty From goes on to To, OK on an empty To goes on to Copy (2); down from none scrolls 40,
    # 39, 38, 37 (4): 6 (8 before: three rights through To's digit, magnitude and out)
    picking = ["ok", "ok", "down", "down", "down", "down"]
    assert _count_to_copy("five", picking) == [{"copy": "37"}] and len(picking) == 6


def test_ok_on_a_typed_to_still_reviews_on_five_buttons() -> None:
    handset, transport, _ = make("five")
    handset.connected()
    show(handset, _room_range_prompt())
    press(handset, ["up", "ok", "ok"])  # From 1, on to To (suggested above From), OK: the review page
    assert handset.editor.review and transport.inputs() == []
    press(handset, ["ok"])
    assert [set(i["data"]) for i in transport.inputs()] == [{"bottom", "top"}]


def test_typed_seat_digits_restart_when_no_seat_starts_so() -> None:
    handset, _, _ = make("keypad")
    handset.connected()
    show(handset, _room_range_prompt())
    press(handset, ["next", "next", "1"])
    assert handset.editor.field.chosen() is None  # seat 1 is the player's own: not offered
    press(handset, ["2"])
    assert handset.editor.field.chosen() == "12"
    press(handset, ["5"])  # no seat 125: a new number starts at 5
    assert handset.editor.field.chosen() == "5"
    press(handset, ["del"])
    assert handset.editor.field.chosen() is None


def _count_to_swap(layout: str, picking: list[str]) -> list[dict]:
    handset, transport, _ = make(layout)
    handset.connected()
    show(handset, _room_range_prompt())
    press(handset, picking)
    assert handset.editor.field.label == "Swap" and handset.editor.field.chosen() == "37"
    press(handset, ["ok"])  # a range with a swap still needs From and To: the review names what is missing
    assert handset.editor.notice == "enter From" and transport.inputs() == []
    return [i["data"] for i in transport.inputs()]


def test_swapping_seat_37_takes_4_keypad_presses() -> None:  # issue 30: 5 before (next, next, next, 3, 7)
    picking = ["ok", "next", "3", "7"]  # nothing typed: OK goes on to Copy, next to Swap, the seat's digits
    _count_to_swap("keypad", picking)
    assert len(picking) == 4


def test_swapping_seat_37_takes_6_five_button_presses() -> None:  # issue 30: 7 before (ok, ok, right, 4 downs)
    picking = ["right", "right", "down", "down", "down", "down"]  # empty From: right to Copy, right to Swap
    _count_to_swap("five", picking)
    assert len(picking) == 6


def test_a_whole_swap_of_seats_37_and_12_is_sent_from_the_keypad() -> None:
    handset, transport, _ = make("keypad")
    handset.connected()
    show(handset, _room_range_prompt())
    press(handset, ["ok", "next", "3", "7", "next", "1", "2", "next"])  # Swap 37 with 12, then back round
    press(handset, ["next", "5", "next", "9", "ok", "ok"])  # From 5, To 9 (next from with wraps to From)
    assert [i["data"] for i in transport.inputs()] == [{"bottom": "5", "top": "9", "swap": ["37", "12"]}]


def test_right_on_a_from_with_a_minus_still_walks_its_digits() -> None:
    # the -2.5 path of five buttons: left to the sign, up (minus), right: the digit, not the boosts
    handset, _, _ = make("five")
    handset.connected()
    show(handset, _room_range_prompt())
    press(handset, ["left", "up", "right"])
    assert handset.editor.field.label == "From"


def test_ok_on_an_empty_keypad_range_without_boosts_still_says_what_is_missing() -> None:
    handset, transport, _ = make("keypad")
    show(handset, samples.by_id("r2"))
    press(handset, ["ok"])
    assert handset.editor.notice == "enter From" and transport.inputs() == []


def _room_reader_prompt() -> dict:
    """The choice prompt a 40-team All In game sends its reader (the exclusion as a seat's tens and units)."""
    import json
    import random

    from appliance.edge.prompts import fit
    from appliance.flows import flow_factory
    from appliance.games.dealt import DealtCard
    from appliance.session.flow import GameSetup
    from firmware import protocol as P

    teams = [f"Team {i:02d}" for i in range(1, 41)]
    card = DealtCard("a", {"statements": ["I have been on TV", "I can juggle", "I have met a king"]})
    flow = flow_factory("allin")(GameSetup("allin", teams, {}, [card]), random.Random(1), 0.0)
    reader = next(t for t in teams if flow.prompt(t).get("kind") == "choice")
    prompt = json.loads(fit(P.wire_prompt("b1", {**flow.prompt(reader), "id": "p1"})))  # as the hub sends it
    assert [f["name"] for f in prompt["fields"]] == ["pick", "answer", "exclude_tens", "exclude_units"]
    return prompt


@pytest.mark.parametrize(
    ("layout", "answering", "excluding"),
    [
        # keypad: statement 1, next, True; then next to the seat and its digits (3)
        ("keypad", ["1", "next", "1"], ["next", "3", "7"]),
        # five buttons: statement 1, right, True; then right to the seat, down from 40: 40 39 38 37 (5)
        ("five", ["up", "right", "up"], ["right", "down", "down", "down", "down"]),
    ],
)
def test_excluding_seat_37_of_40_by_its_number(layout: str, answering: list[str], excluding: list[str]) -> None:
    # issue 30: before, the tens and units were two lists, on the keypad by place (3- was key 5, units 7 was
    # key 7) and on five buttons right, 2 downs, right, 3 downs (7)
    handset, transport, _ = make(layout)
    handset.connected()
    show(handset, _room_reader_prompt())
    press(handset, answering + excluding)
    assert handset.editor.field.label == "Exclude seat" and handset.editor.field.chosen() == "37"
    press(handset, ["ok"])
    assert "Exclude seat 37" in handset.editor.summary(handset.editor.data)
    press(handset, ["ok"])
    assert [i["data"] for i in transport.inputs()] == [
        {"choices": {"pick": "0", "answer": "true", "exclude_tens": "3", "exclude_units": "7"}}]
    assert len(excluding) <= (4 if layout == "keypad" else 6)


def test_the_seat_list_runs_from_1_to_the_last_seat_and_may_stay_unset() -> None:
    handset, transport, _ = make("five")
    handset.connected()
    show(handset, _room_reader_prompt())
    press(handset, ["up", "right", "up", "right"])
    seat = handset.editor.field
    assert [o[0] for o in seat.options] == [str(n) for n in range(1, 41)]
    press(handset, ["up", "down", "ok", "ok"])  # seat 1, then back to none: nobody is excluded
    assert [i["data"] for i in transport.inputs()] == [{"choices": {"pick": "0", "answer": "true"}}]


def test_without_last_the_seats_run_to_the_highest_tens() -> None:
    # a box before revision 1.4 sends no "last": the list offers every seat its digits can name
    prompt = _room_reader_prompt()
    del prompt["fields"][2]["last"]
    handset, _, _ = make("keypad")
    handset.connected()
    show(handset, prompt)
    press(handset, ["1", "next", "1", "next", "4", "9"])
    assert handset.editor.field.chosen() == "49"
