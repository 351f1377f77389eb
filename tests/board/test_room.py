"""The TV for a room (issue 30, rules.md The room): every room scene at 2, 8, 12, 24 and 40 seats against its
reference image at 1080p; no text a player reads under 28 px at 1080p with 40 seats; a seat number beside
every name, never the same number for two players.

References: ``python -m tests.board.regenerate`` writes them with the others (tests/board/reference/room-*)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from appliance.board.canvas import Placement
from appliance.board.compose import choose, compose
from appliance.board.samples import ROOM_SIZES, room_states
from appliance.board.state import Board
from tests.board.snapshots import PIXEL_BUDGET, differing_share, frame, reference_path

STATES = room_states()
READABLE_PX = 28
"""No text a player must read is smaller than this at 1080p (read from the back of a pub)."""


@pytest.mark.parametrize("name", sorted(STATES))
def test_room_scene_matches_reference(name: str) -> None:
    path = reference_path(f"room-{name}", "1080")
    assert path.exists(), f"no reference image {path.name}: run python -m tests.board.regenerate room-{name}"
    share = differing_share(frame(STATES[name], 30.0, "1080"), pygame.image.load(str(path)))
    assert share <= PIXEL_BUDGET, f"{name} differs from {path.name} in {share:.2%} of its pixels"


def test_every_room_scene_is_there_at_every_size() -> None:
    scenes = {name.rpartition("-")[0] for name in STATES}
    for scene in scenes:
        assert {int(n.rpartition("-")[2]) for n in STATES if n.rpartition("-")[0] == scene} == set(ROOM_SIZES), scene
    chosen = {choose(Board(state)).name for state in STATES.values()}
    assert {"lobby", "confident-question", "confident-reveal", "winners", "allin-question", "allin-reveal",
            "squizz-question", "squizz-reveal", "squizz-final", "buzzer-answering", "night-standing"} <= chosen


def ink_rows(surface: pygame.Surface, rect: tuple[int, int, int, int], ink: pygame.Color | None = None) -> int:
    x, y, w, h = rect
    area = surface.subsurface(pygame.Rect(x, y, w, h).clip(surface.get_rect()))
    background = area.get_at((0, 0))
    rows = 0
    for row in range(area.get_height()):
        if any(area.get_at((col, row)) != background for col in range(0, area.get_width(), 2)):
            rows += 1
    return rows


@pytest.mark.parametrize("now", [0.4, 30.0], ids=["animating", "settled"])
def test_no_text_under_28_px_at_40_seats(now: float) -> None:
    smallest: dict[str, tuple[int, str]] = {}
    for name, state in STATES.items():
        if not name.endswith("-40"):
            continue
        canvas, _ = compose(state, (1920, 1080), now)
        assert canvas.placements, name
        low = min(canvas.placements, key=lambda p: p.px)
        smallest[name] = (low.px, low.text)
        # the size is measured on the frame too: the drawn line is as tall as its font says
        for placement in canvas.placements:
            if placement.text.strip() and placement.px == low.px:
                assert ink_rows(canvas.surface, placement.rect) >= low.px * 0.6, (name, placement.text)
                break
    small = {name: found for name, found in smallest.items() if found[0] < READABLE_PX}
    assert not small, f"text under {READABLE_PX} px at 1080p with 40 seats: {small}"


def seat_beside(placements: list[Placement], name: str) -> list[str]:
    """The texts whose box ends just left of the box ``name`` is drawn in, on the same line (a seat badge)."""
    found = [p for p in placements if p.text == name or p.text.startswith(f"{name}: ")]
    beside = []
    for shown in found:
        x, y, _, h = shown.box
        for p in placements:
            px, py, pw, ph = p.box
            if p is not shown and px + pw <= x and x - (px + pw) <= 40 and py < y + h and y < py + ph:
                beside.append(p.text)
    return beside


@pytest.mark.parametrize("name", sorted(n for n in STATES if n.endswith(("-2", "-12", "-40"))))
def test_seat_numbers_are_unique_and_beside_every_name(name: str) -> None:
    state: dict[str, Any] = STATES[name]
    board = Board(state)
    canvas, _ = compose(state, (1920, 1080), 30.0)
    players = [p["name"] for p in state["players"]]
    numbers = {player: board.seat_number(player) for player in players}
    assert None not in numbers.values(), numbers
    assert len(set(numbers.values())) == len(players), f"a seat number shown twice: {numbers}"
    named = 0
    for player in players:
        if not any(p.text == player or p.text.startswith(f"{player}: ") for p in canvas.placements):
            continue  # a room layout may show the seat number alone
        named += 1
        assert str(numbers[player]) in seat_beside(canvas.placements, player), f"{name}: no seat number by {player}"
    if name.endswith("-2"):
        assert named, f"{name}: two players and not one name shown"
    texts = [p.text for p in canvas.placements]
    for player in players:  # everyone in the scene is there, by name or by seat number
        if player in texts:
            continue
        if state["scene"].startswith("night") or state["scene"] == "lobby" or name.startswith("confident"):
            assert str(numbers[player]) in texts, f"{name}: {player} (seat {numbers[player]}) is not on the TV"


def test_a_repeated_colour_never_repeats_a_number() -> None:
    state = STATES["lobby-40"]
    colours = [p["colour"] for p in state["players"]]
    assert len(set(colours)) < len(colours)  # the palette repeats in a room...
    board = Board(state)
    numbers = [board.seat_number(p["name"]) for p in state["players"]]
    assert len(set(numbers)) == len(numbers) == 40  # ...the seat numbers do not
    doubled = {**state, "view": {"seat_numbers": {"Quiz Akabusi": 1, "Les Quizerables": 1}}}
    assert len({Board(doubled).seat_number(n) for n in ("Quiz Akabusi", "Les Quizerables")}) == 2
