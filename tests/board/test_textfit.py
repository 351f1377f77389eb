"""Text fitting (wrap and shrink, never cut) and the number line's scale."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.board.scale import choose_scale
from appliance.board.textfit import fit, wrap


def mono(px: int, text: str) -> tuple[int, int]:
    """A monospaced stand-in font: each character px/2 wide, lines 1.2 px high."""
    return len(text) * px // 2, round(px * 1.2)


def test_wraps_at_words_before_shrinking() -> None:
    result = fit("one two three four", 100, 100, 20, 10, mono)
    assert result.px == 20 and result.lines == ("one two", "three four") and not result.below_min


def test_shrinks_when_wrapping_is_not_enough() -> None:
    result = fit("one two three four five six", 100, 30, 20, 8, mono)
    assert result.px < 20 and not result.below_min
    assert result.height <= 30 and result.width <= 100


def test_long_word_breaks_after_hyphen_then_inside() -> None:
    assert wrap("Anne-Sophie", 60, 20, mono) == ["Anne-", "Sophie"]
    assert wrap("Bartholomew", 60, 20, mono) == ["Bartho", "lomew"]


def test_too_long_for_the_minimum_is_reported_not_cut() -> None:
    text = "a sentence that cannot fit in this small box"
    result = fit(text, 80, 12, 20, 10, mono)
    assert result.below_min
    assert "".join(result.lines).replace(" ", "") == text.replace(" ", "")


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(st.sampled_from("abc de-fgh ij"), min_size=1, max_size=80).filter(str.strip),
    width=st.integers(30, 400),
    height=st.integers(15, 300),
)
def test_fit_keeps_every_character_and_stays_in_the_box_unless_flagged(text: str, width: int, height: int) -> None:
    result = fit(text, width, height, 24, 10, mono)
    assert "".join(result.lines).replace(" ", "") == text.replace(" ", "")
    if not result.below_min:
        assert result.width <= width and result.height <= height and result.px >= 10


def test_scale_kinds() -> None:
    assert choose_scale([Decimal(5), Decimal(30), Decimal(12)]).kind == "linear"
    assert choose_scale([Decimal(1000), Decimal(40_000_000)]).kind == "log"
    assert choose_scale([Decimal(-100), Decimal("0.5"), Decimal(10)]).kind == "symlog"
    assert choose_scale([Decimal(7), Decimal(7)]).kind == "linear"


numbers = st.decimals(min_value=-10**9, max_value=10**9, allow_nan=False, allow_infinity=False, places=2)


@settings(max_examples=200, deadline=None)
@given(st.lists(numbers, min_size=1, max_size=10))
def test_positions_keep_order_and_stay_on_the_line(values: list[Decimal]) -> None:
    scale = choose_scale(values)
    ordered = sorted(values)
    positions = [scale.position(v) for v in ordered]
    assert all(0.0 <= p <= 1.0 for p in positions)
    assert positions == sorted(positions)
    if ordered[0] != ordered[-1]:
        assert positions[0] < positions[-1]


def _binary(text: str, width: int, height: int, max_px: int, min_px: int, max_lines: int | None):  # type: ignore[no-untyped-def]
    """The fit by the plain search the fast one replaced: every size from the top down."""
    from appliance.board.textfit import _try

    for px in range(max(max_px, min_px), min_px - 1, -1):
        found = _try(text, width, height, px, mono, max_lines)
        if found is not None:
            return found
    for px in range(min_px - 1, 5, -1):  # below the minimum (marked below_min)
        found = _try(text, width, height, px, mono, None)
        if found is not None:
            return found
    return None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "quiz", "Akabusi", "Newton-John", "x-ray", "seventeen", "of", "40"]),
                min_size=1, max_size=8),
       st.integers(20, 600), st.integers(10, 300), st.integers(10, 90), st.integers(6, 30),
       st.sampled_from([None, 1, 2, 3]))
def test_the_galloping_search_finds_the_largest_size_that_fits(words: list[str], width: int, height: int,
                                                              max_px: int, min_px: int,
                                                              max_lines: int | None) -> None:
    """Issue 30 item 6 (first frames): the search that starts from the one-line guess finds the same size and
    lines as trying every size from the top."""
    text = " ".join(words)
    expected = _binary(text, width, height, max_px, min_px, max_lines)
    got = fit(text, width, height, max_px, min_px, mono, max_lines)
    if expected is not None:
        assert (got.px, got.lines) == (expected.px, expected.lines)
        assert got.below_min == (expected.px < min_px)
    else:
        assert got.below_min and got.px == 6


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "quiz", "Akabusi", "Newton-John", "x-ray", "seventeen", "of", "40"]),
                min_size=1, max_size=12),
       st.integers(20, 600), st.integers(10, 300), st.integers(10, 90), st.integers(6, 30),
       st.sampled_from([None, 1, 2, 3]))
def test_fits_says_what_fit_would_without_fitting_below_the_minimum(words: list[str], width: int, height: int,
                                                                   max_px: int, min_px: int,
                                                                   max_lines: int | None) -> None:
    """Issue 30 item 6 (first frames): a scene asking only whether a text fits at the minimum gets the answer
    fit's below_min gives."""
    from appliance.board.textfit import fits

    text = " ".join(words)
    assert fits(text, width, height, max_px, min_px, mono, max_lines) == (
        not fit(text, width, height, max_px, min_px, mono, max_lines).below_min)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "quiz", "Akabusi", "Newton-John", "x-ray", "seventeen", "of", "40"]),
                min_size=1, max_size=12),
       st.integers(8, 400), st.integers(6, 60), st.integers(1, 4))
def test_wrapping_stops_once_too_many_lines_and_is_otherwise_the_whole_wrap(words: list[str], width: int,
                                                                             px: int, most: int) -> None:
    """Issue 30 item 6: wrap and the character fill stop measuring once there are more lines than the box
    holds; the lines are the whole wrap's when they fit, and too many when the whole wrap's are."""
    from appliance.board.textfit import _fill

    text = " ".join(words)
    for whole, early in ((wrap(text, width, px, mono), wrap(text, width, px, mono, most)),
                         (_fill(text, width, px, mono), _fill(text, width, px, mono, most))):
        if len(whole) <= most:
            assert early == whole
        else:
            assert len(early) > most


def _fill_by_character(text: str, max_width: int, px: int, measure: object) -> list[str]:
    """The character fill as it was, one measurement a character (the reference for the bisection)."""
    lines: list[str] = []
    line = ""
    for char in " ".join(text.split()):
        if line and measure(px, line + char)[0] > max_width:  # type: ignore[operator]
            lines.append(line.rstrip())
            line = "" if char == " " else char
        else:
            line += char
    lines.append(line)
    return lines


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="AVToTyfiWAwa.,'- 0123456789éQ", min_size=0, max_size=40), st.integers(8, 300),
       st.integers(8, 60), st.sampled_from(["body", "title"]))
def test_the_bisected_fill_breaks_where_the_character_fill_does_in_the_real_fonts(text: str, width: int, px: int,
                                                                                    role: str) -> None:
    """Issue 30 item 6 (first frames): a fill finds each line's end by bisection, in the shipped fonts (kerned
    pairs such as AV, To, Ty) exactly where adding one character at a time would."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from appliance.board.memo import measure
    from appliance.board.textfit import _break_word, _fill

    pygame.font.init()
    real = measure(role)
    assert _fill(text, width, px, real) == _fill_by_character(text, width, px, real)
    word = "".join(text.split()) or "A"  # a word breaks as a fill of it (no spaces) does
    assert _break_word(word, width, px, real) == _fill_by_character(word, width, px, real)
