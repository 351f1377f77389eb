"""The handset never sends an input the prompt does not allow, whatever keys are mashed (issue 6)."""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.games.numbers import parse_number
from firmware import protocol as P
from firmware.core import allowed, bot, editor, numtext
from tests.firmware import samples
from tests.firmware.support import ack, make, show

PROMPTS = samples.prompts()


def legal(prompt: dict, data: dict) -> bool:
    """An independent statement of what each sample prompt allows (not the handset's own check)."""
    kind = prompt["kind"]
    if kind == P.RANGE:
        boosts = prompt.get("boosts") or {}
        ok = True
        if "copy" in data:
            ok = data["copy"] in boosts.get("copy", []) and "bottom" not in data
        else:
            ok = parse_number(data["bottom"]) <= parse_number(data["top"])
        if "swap" in data:
            a, b = data["swap"]
            ok = ok and a != b and a in boosts.get("swap", []) and b in boosts.get("swap", [])
        if "double" in data:
            ok = ok and bool(boosts.get("double"))
        return ok and set(data) <= {"bottom", "top", "copy", "swap", "double"}
    if kind == P.BET:
        entry = next((a for a in prompt["actions"] if a["action"] == data["action"]), None)
        if entry is None:
            return False
        if data["action"] in ("bet", "raise"):
            return entry["min"] <= data["to"] <= entry["max"]
        return "to" not in data
    if kind == P.CHOICE:
        fields = {f["name"]: f for f in prompt["fields"]}
        chosen = data["choices"]
        return all(f["name"] in chosen for f in prompt["fields"] if f["required"]) and all(
            name in fields and value in [o["id"] for o in fields[name]["options"]] for name, value in chosen.items()
        )
    if kind == P.SPLIT:
        split = data["split"]
        return set(split) == {s["id"] for s in prompt["sides"]} and sum(split.values()) == prompt["total"]
    if kind == P.TOKEN:
        return data["answer"] in prompt["answers"] and data["token"] in prompt["tokens"]
    if kind == P.BUZZ:
        return isinstance(data.get("pressed"), int)
    if kind == P.NUMBER:
        return set(data) == {"number"} and parse_number(data["number"]).is_finite()
    return False


@settings(max_examples=300, deadline=None)
@given(
    layout=st.sampled_from(["keypad", "five"]),
    index=st.integers(0, len(PROMPTS) - 1),
    presses=st.lists(st.integers(0, 15), max_size=60),
    refuse=st.booleans(),
)
def test_key_mashing_sends_only_legal_inputs(layout: str, index: int, presses: list[int], refuse: bool) -> None:
    prompt = PROMPTS[index]
    handset, transport, _ = make(layout, screen=False)
    handset.connected()
    show(handset, prompt)
    keys = editor.LAYOUT_KEYS[layout]
    for n in presses:
        seq = handset.press(keys[n % len(keys)])
        if seq is not None:
            ack(handset, seq, not refuse, "no" if refuse else "")
    for msg in transport.on("input"):
        parsed = P.parse_input("h1", msg)  # well-formed for the appliance
        assert parsed["prompt"] == prompt["id"] and parsed["kind"] == prompt["kind"]
        assert legal(prompt, parsed["data"]), parsed["data"]
    if prompt["kind"] == P.INFO:
        assert transport.on("input") == []


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, len(PROMPTS) - 1))
def test_bot_chooses_legal_inputs(seed: int, index: int) -> None:
    prompt = PROMPTS[index]
    data = bot.choose(prompt, random.Random(seed))
    if prompt["kind"] == P.INFO or (prompt["kind"] == P.BUZZ and not prompt.get("armed")):
        assert data is None  # nothing to send; a bot never buzzes before arming (it would be locked out)
        return
    assert data is not None
    parsed = P.parse_input("h1", P.make_input(1, prompt["id"], prompt["kind"], data))
    if prompt["kind"] == P.BUZZ:
        assert data == {} and parsed["data"] == {"pressed": None}  # the handset stamps the time
    else:
        assert parsed["data"] == data and legal(prompt, data)


def test_bot_gives_up_on_prompts_without_options() -> None:
    rng = random.Random(1)
    assert bot.choose(None, rng) is None
    assert bot.choose(P.make_prompt("t", P.TOKEN, tokens=[]), rng) is None
    assert bot.choose(P.make_prompt("c", P.CHOICE, fields=[]), rng) is None
    assert bot.choose(P.make_prompt("b", P.BET, actions=[]), rng) is None


# -- exact numbers without Decimal ---------------------------------------------------------------------------

numbers = st.builds(lambda m, e: (m, e), st.integers(-(10**15), 10**15), st.integers(-40, 80)).filter(
    lambda me: me[0] == 0 or abs(numtext.adjusted(*me)) <= numtext.MAX_EXPONENT
)


@settings(max_examples=300, deadline=None)
@given(numbers)
def test_wire_text_is_the_exact_value_for_the_appliance(me: tuple[int, int]) -> None:
    m, e = me
    text = numtext.wire(m, e)
    assert len(text) <= P.MAX_NUMBER
    assert parse_number(text) == Decimal(m).scaleb(e)
    assert numtext.parse(text) == numtext.normal(m, e)


@settings(max_examples=300, deadline=None)
@given(numbers, numbers)
def test_compare_is_exact(a: tuple[int, int], b: tuple[int, int]) -> None:
    da, db = Decimal(a[0]).scaleb(a[1]), Decimal(b[0]).scaleb(b[1])
    assert numtext.compare(a, b) == (da > db) - (da < db)


@settings(max_examples=300, deadline=None)
@given(numbers)
def test_short_fits_and_is_exact_unless_marked(me: tuple[int, int]) -> None:
    exact = Decimal(me[0]).scaleb(me[1])
    for width in (7, 10, 16):
        text = numtext.short(*me, width=width)
        assert len(text) <= width
        if text.startswith("~"):
            shown = parse_number(text[1:])
            assert shown != exact
            # rounded half up to at least one significant digit
            assert abs(shown - exact) <= Decimal(5).scaleb(exact.adjusted() - 1)
        else:
            assert parse_number(text) == exact


def test_short_examples() -> None:
    assert [numtext.short(*numtext.parse(t), width=8) for t in ("384400", "3500000", "-12.25", "1234567891")] == [
        "384400",
        "3.5M",
        "-12.25",
        "~1.2346B",
    ]
    assert numtext.short(602, 21, width=8) == "6.02e23"


def test_parse_refuses_with_reasons() -> None:
    for text, reason in [
        ("", "bad number"),
        ("1.2.3", "bad number"),
        ("12x", "bad exponent"),
        ("1 x 10^", "bad exponent"),
        ("1 x 10^100", "number too big"),
        ("--1", "bad number"),
        ("1 x 10^-101", "number too small"),
        ("abc", "bad number"),
    ]:
        try:
            numtext.parse(text)
        except ValueError as err:
            assert str(err) == reason, text
        else:
            raise AssertionError(text + " parsed")


def test_allowed_refuses_wrong_shapes() -> None:
    r = samples.by_id("r1")
    for data, reason in [
        ({"bottom": "1"}, "need bottom and top"),
        ({"copy": "Zed"}, "cannot copy that"),
        ({"copy": "Bob", "bottom": "1", "top": "2"}, "copy or range"),
        ({"bottom": "1", "top": "2", "swap": ["Bob"]}, "swap needs 2 names"),
        ({"bottom": "1", "top": "2", "double": "yes"}, "double not yes/no"),
        ({"bottom": "1", "top": "2", "extra": 1}, "unexpected extra"),
    ]:
        try:
            allowed.check(r, data)
        except ValueError as err:
            assert str(err) == reason
        else:
            raise AssertionError(data)
    try:
        allowed.check(samples.by_id("r2"), {"bottom": "1", "top": "2", "double": True})
    except ValueError as err:
        assert str(err) == "no double left"
    else:
        raise AssertionError("double without the boost")
