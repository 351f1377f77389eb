"""A quiz night between its rounds (appliance/session/night.py): the night's standing, an interval
with its countdown, the tie-break, and the podium at the end.

The standing animates the round just scored: each player's bar counts up by the night points that
round gave, and the rows glide from the order before it to the order after it. Every fact comes from
the night's public view (``state["night"]``, appliance.games.night.views).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Placement, Rect
from appliance.board.scenes import podium
from appliance.board.scenes.common import (
    RING_SPANS,
    beside_badge,
    countdown,
    footer,
    header,
    player_pills,
    progress,
    seat_pill,
    texts_fit,
)
from appliance.board.scenes.league import league_panel
from appliance.board.scenes.results import _confetti
from appliance.board.scenes.scoreboard import short_points, table_grid
from appliance.board.scenes.select import Choice
from appliance.board.state import Board, as_int, as_list, as_map, as_text

COUNT_SECONDS = 2.0
"""The last round's points count up over this long, then the rows move to their new places."""
MOVE_SECONDS = 1.2
PODIUM_SECONDS = 4.0


def night(board: Board) -> Mapping[str, Any]:
    return as_map(board.raw.get("night"))


def choose(board: Board) -> Choice:
    view = night(board)
    played = as_int(view.get("played"), 0)
    if board.scene == "night-interval":
        return Choice("night-interval", draw_interval, ("night-interval", played))
    if board.scene == "night-tiebreak":
        cards = len(as_list(view.get("cards")))
        return Choice("night-tiebreak", draw_tiebreak, ("night-tiebreak", cards))
    if board.scene == "night-podium":
        return Choice("night-podium", draw_podium, ("night-podium",), PODIUM_SECONDS, layered=True)
    return Choice("night-standing", draw_standing, ("night", played), COUNT_SECONDS + MOVE_SECONDS, layered=True,
                  stage=_stage)


def _stage(now: float) -> str:
    """The standing's animation in two stages (issue 30 item 6): while the points count up the rows stand
    still, so only their bars and totals are drawn on each frame; then the rows move, drawn whole each frame
    over a layer of the header, footer and panels."""
    return "count" if now < COUNT_SECONDS else "move"


def _title(view: Mapping[str, Any]) -> str:
    return as_text(view.get("title")) or "Quiz night"


def _round_words(round_: Mapping[str, Any]) -> str:
    words = f"Round {as_int(round_.get('number'), 0)}: {as_text(round_.get('title'))}"
    multiplier = as_int(round_.get("multiplier"), 1) or 1
    return words + (f" (points x{multiplier})" if multiplier != 1 else "")


def _rows(view: Mapping[str, Any]) -> list[tuple[str, int, int]]:
    """(player, place, total), best first (the view's own order)."""
    rows = []
    for item in as_list(view.get("table")):
        entry = as_map(item)
        name = as_text(entry.get("player"))
        if name:
            rows.append((name, as_int(entry.get("place"), 0) or 0, as_int(entry.get("total"), 0) or 0))
    return rows


def draw_standing(canvas: Canvas, board: Board) -> None:
    view = night(board)
    rounds = [as_map(r) for r in as_list(view.get("rounds"))]
    last = as_map(view.get("last"))
    subtitle = f"After {_round_words(last)}" if last else f"{len(rounds)} rounds tonight"
    area = header(canvas, f"{_title(view)} · the standing", subtitle)
    area = footer(canvas, board, area)
    area = league_panel(canvas, view, area)  # the league's table beside the standing, for a league member
    next_round = as_map(view.get("next"))
    if next_round:
        strip = Rect(area.left, area.bottom - canvas.u(170), area.width, canvas.u(170))
        _next_panel(canvas, board, strip, next_round)
        area = Rect(area.left, area.top, area.width, strip.top - area.top - canvas.u(20))
    rows = _rows(view)
    gained = {p: as_int(v, 0) or 0 for p, v in as_map(last.get("points")).items()} if last else {}
    _standing_table(canvas, board, area, rows, gained, canvas.now)


def _standing_table(canvas: Canvas, board: Board, area: Rect, rows: list[tuple[str, int, int]],
                    gained: Mapping[str, int], now: float) -> None:
    if not rows:
        return
    order_after = [name for name, _, _ in rows]
    totals = {name: total for name, _, total in rows}
    before = {name: totals[name] - gained.get(name, 0) for name in order_after}
    seats = [as_text(p) for p in as_list(night(board).get("players"))] or order_after
    order_before = sorted(order_after, key=lambda n: (-before[n], seats.index(n) if n in seats else 0))
    places = {name: place for name, place, _ in rows}
    gap = canvas.u(10)
    cols, per, col_gap, width, height = table_grid(canvas, area, len(rows), gap, canvas.u(84))
    most = max(max(abs(t) for t in totals.values()), 1)
    wide = width >= canvas.u(900)
    name_width = round(width * (0.26 if wide else 0.5))
    value_width = round(width * (0.22 if wide else 0.36))
    names = texts_fit(canvas, beside_badge(canvas, Rect(0, 0, name_width, height)), order_after, 36)
    if not names:
        name_width = canvas.badge_box(Rect(0, 0, name_width, height)).width + canvas.u(8)

    def at(slot: float) -> tuple[float, float]:
        col, line = divmod(round(slot), per) if cols > 1 else (0, slot)
        return area.left + col * (width + col_gap), area.top + line * (height + gap)

    def slot(name: str, now: float) -> tuple[int, int]:
        """Where ``name``'s row is at ``now`` (gliding from its place before to its place after)."""
        moved = progress(now - COUNT_SECONDS, MOVE_SECONDS) if now >= COUNT_SECONDS else 0.0
        (x0, y0), (x1, y1) = at(order_before.index(name)), at(order_after.index(name))
        return round(x0 + (x1 - x0) * moved), round(y0 + (y1 - y0) * moved)

    def row(on: Canvas, name: str, now: float, still: bool = True, moving: bool = True,
            origin: tuple[int, int] | None = None) -> None:
        """One row at ``now``: its place, pill, track and gain (``still``), its bar and total (``moving``);
        at ``origin`` rather than where it is at ``now`` (drawn on its own image)."""
        counted = progress(now, COUNT_SECONDS)
        moved = progress(now - COUNT_SECONDS, MOVE_SECONDS) if now >= COUNT_SECONDS else 0.0
        start = order_before.index(name)
        box = Rect(*(origin or slot(name, now)), width, height)
        value = round(before[name] + gained.get(name, 0) * counted)
        place = Rect(box.left, box.top, on.u(70), box.height)
        pill = Rect(place.right + on.u(8), box.top, name_width, box.height)
        label = Rect(box.right - value_width, box.top, value_width * 3 // 5, box.height)
        track = Rect(pill.right + on.u(20), box.top + box.height // 5,
                     label.left - pill.right - on.u(40), box.height - 2 * (box.height // 5))
        if still:
            shown_place = places[name] if moved >= 1.0 else start + 1
            on.text(place, str(shown_place), 42, theme.GOLD if places[name] == 1 and moved >= 1.0 else theme.MUTED,
                    role="title", max_lines=1)
            seat_pill(on, board, pill, name, 36, text=None if names else "")
            if track.width >= on.u(60):
                pygame.draw.rect(on.surface, theme.PANEL, track, border_radius=on.u(10))
        if moving:
            if track.width >= on.u(60) and value > 0:
                bar = Rect(track.left, track.top, max(on.u(10), round(track.width * value / most)), track.height)
                pygame.draw.rect(on.surface, board.colour(name), bar, border_radius=on.u(10))
            on.text(label, short_points(value), 38, theme.TEXT, role="title", align="right", max_lines=1)
        plus = gained.get(name, 0)
        if still and plus:
            extra = Rect(label.right, box.top, box.right - label.right, box.height)
            on.text(extra, f"+{plus}", 34, theme.RIGHT if counted < 1.0 else theme.MUTED, role="title",
                    align="right", max_lines=1)

    if now >= COUNT_SECONDS + MOVE_SECONDS:  # the standing at rest
        for name in order_after:
            row(canvas, name, now)
    elif now < COUNT_SECONDS:  # counting up: the rows stand still (in the layer), their bars and totals grow
        for name in order_after:
            row(canvas, name, now, moving=False)
        def count(on: Canvas, _board: Board) -> None:
            for name in order_after:
                row(on, name, on.now, still=False)

        canvas.later(count, board)
    else:  # moving: each row drawn once on its own image, moved over the layer
        images = [_row_image(canvas, name, lambda on, name, origin: row(on, name, now, origin=origin), width, height)
                  for name in order_after]

        def glide(on: Canvas, _board: Board) -> None:
            for name, (image, pad, placements) in zip(order_after, images, strict=True):
                x, y = slot(name, on.now)
                on.surface.blit(image, (x - pad[0], y - pad[1]))
                on.placements.extend(_moved(p, x - pad[0], y - pad[1]) for p in placements)

        canvas.later(glide, board)


def _row_image(canvas: Canvas, name: str, draw: Any, width: int, height: int,
               ) -> tuple[pygame.Surface, tuple[int, int], tuple[Placement, ...]]:
    """A row drawn on its own transparent image (room around it for its texts' line boxes): the image, where
    the row's box starts on it, and the texts placed on it."""
    pad = (canvas.u(10), height // 2)
    image = pygame.Surface((width + 2 * pad[0], height + 2 * pad[1]), pygame.SRCALPHA)
    on = Canvas(image, canvas.theme, canvas.now)
    draw(on, name, pad)
    used = image.get_bounding_rect()  # blitted on every frame of the move: only its drawn pixels
    return image.subsurface(used).copy(), (pad[0] - used.left, pad[1] - used.top), tuple(
        _moved(p, -used.left, -used.top) for p in on.placements)


def _moved(placement: Placement, dx: int, dy: int) -> Placement:
    def shift(rect: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        return rect[0] + dx, rect[1] + dy, rect[2], rect[3]

    return Placement(placement.text, shift(placement.box), shift(placement.rect), placement.px, placement.lines,
                     placement.below_min)


def _next_panel(canvas: Canvas, board: Board, box: Rect, round_: Mapping[str, Any]) -> None:
    canvas.panel(box)
    inner = box.inflate(-canvas.u(40), -canvas.u(20))
    title = Rect(inner.left, inner.top, inner.width, inner.height // 2)
    canvas.text(title, f"Next: {_round_words(round_)}", 44, theme.GOLD, role="title", align="left", max_lines=1)
    seats = [as_text(p) for p in as_list(round_.get("seats"))]
    out = [as_text(p) for p in as_list(round_.get("sitting_out"))]
    pills = Rect(inner.left, title.bottom, inner.width * 3 // 4 if out else inner.width, inner.height - title.height)
    if len(seats) <= 6:
        player_pills(canvas, board, pills, seats, max_columns=max(1, min(6, len(seats))))
    else:  # a room: the count, not 40 pills squeezed into a strip
        canvas.text(pills, f"All {len(seats)} teams play" if not out else f"{len(seats)} teams play", 40,
                    theme.TEXT, role="title", align="left", max_lines=1)
    if out:
        rest = Rect(pills.right + canvas.u(16), pills.top, inner.right - pills.right - canvas.u(16), pills.height)
        named = "Sitting out: " + ", ".join(f"{board.seat_number(p) or '?'} {p}" for p in out)
        if not canvas.fits(rest, named, 30, max_lines=2):
            named = "Sitting out: seats " + ", ".join(str(board.seat_number(p) or "?") for p in out)
        canvas.text(rest, named, 30, theme.MUTED, max_lines=2)


def draw_interval(canvas: Canvas, board: Board) -> None:
    view = night(board)
    area = header(canvas, f"{_title(view)} · interval", "Back in a moment: fill your glasses!")
    area = footer(canvas, board, area)
    radius = min(area.height // 3, canvas.u(190))
    ring_box = Rect(area.left, area.top, area.width, radius * 2 + canvas.u(20))
    remaining = board.remaining or 0.0
    if remaining <= 60:
        countdown(canvas, ring_box.center, radius, remaining)
    else:  # minutes and seconds: an interval is long
        total = next((span for span in RING_SPANS if span >= remaining), remaining)
        canvas.ring(ring_box.center, radius, remaining / total, theme.GOLD, max(3, radius // 7))
        seconds = int(remaining + 0.999)
        box = Rect(0, 0, radius * 2 - radius // 3, radius)
        box.center = ring_box.center
        canvas.text(box, f"{seconds // 60}:{seconds % 60:02d}", radius * 0.8 / canvas.theme.unit, theme.TEXT,
                    role="title", max_lines=1)
    below = Rect(area.left, ring_box.bottom + canvas.u(20), area.width, area.bottom - ring_box.bottom - canvas.u(20))
    next_round = as_map(view.get("next"))
    if next_round and below.height > canvas.u(120):
        panel = Rect(below.left, below.top, below.width, min(below.height, canvas.u(170)))
        _next_panel(canvas, board, panel, next_round)


def draw_tiebreak(canvas: Canvas, board: Board) -> None:
    view = night(board)
    cards = [as_map(c) for c in as_list(view.get("cards"))]
    tied = [as_text(p) for p in as_list(view.get("tied"))]
    card = cards[-1] if cards and cards[-1].get("closed") is not True else None
    subtitle = "Closest to the answer wins the night"
    if card is not None:
        subtitle = as_text(card.get("question"))
    area = header(canvas, "Tie-break!", subtitle)
    area = footer(canvas, board, area)
    entered = {as_text(p) for p in as_list(card.get("entered"))} if card is not None else set()
    pills = Rect(area.left, area.top + canvas.u(20), area.width, min(area.height // 3, canvas.u(120)))
    player_pills(canvas, board, pills, tied, mark=lambda p: "tick" if p in entered else "",
                 max_columns=max(1, min(4, len(tied))))
    below = Rect(area.left, pills.bottom + canvas.u(30), area.width, area.bottom - pills.bottom - canvas.u(30))
    done = [c for c in cards if c.get("closed") is True]
    if done:
        last = done[-1]
        lines = [f"{p}: {n} ({as_text(as_map(last.get('distances')).get(p))} away)"
                 for p, n in as_map(last.get("numbers")).items()]
        text = f"Last card: {as_text(last.get('answer'))}.  " + "   ".join(lines)
        canvas.text(below, text, 40, theme.MUTED, max_lines=3)
    else:
        totals = as_map(view.get("standing"))
        level = f"{' and '.join(tied)} are level on {as_int(totals.get(tied[0]), 0) if tied else 0} points. "
        canvas.text(below, level + "One number each: the closest to the answer wins the night.", 40, theme.MUTED,
                    max_lines=3)


def draw_podium(canvas: Canvas, board: Board) -> None:
    view = night(board)
    rows = _rows(view)
    winners = [as_text(w) for w in as_list(view.get("winners"))]
    tiebroken = bool(as_list(view.get("cards")))
    subtitle = "won on the tie-break" if tiebroken else f"after {as_int(view.get('played'), 0)} rounds"
    area = header(canvas, f"{_title(view)} · the podium", f"{' & '.join(winners) or 'Nobody'} {subtitle}")
    area = footer(canvas, board, area)
    podium.draw(canvas, board, area, rows, "points", lambda on, box: _confetti(on, box, on.now))
