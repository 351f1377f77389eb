"""A frame being drawn: the surface, the theme, and a record of every text placed on it.

Scenes draw only through a :class:`Canvas`, so every text goes through the fitting of
:mod:`appliance.board.textfit` and is recorded as a :class:`Placement`; the layout tests read those
records to prove that no text overflows its box, is cut, or is smaller than the minimum.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

from appliance.board import memo, pictures
from appliance.board import theme as look
from appliance.board.textfit import Fit
from appliance.board.theme import Colour, Theme, line_step

Rect = pygame.Rect


@dataclass(frozen=True)
class Placement:
    """One text on the frame: what was asked, the box it had, and where and how big it landed."""

    text: str
    box: tuple[int, int, int, int]
    rect: tuple[int, int, int, int]
    px: int
    lines: tuple[str, ...]
    below_min: bool


@dataclass
class Canvas:
    surface: pygame.Surface
    theme: Theme
    now: float = 0.0
    placements: list[Placement] = field(default_factory=list)
    live: list[Callable[[Canvas, Any], None]] | None = None
    """While the scene's layer is drawn (see :mod:`appliance.board.compose`): the parts of the frame
    that change between frames of one state (a countdown), drawn on every frame over the layer."""

    def later(self, part: Callable[[Canvas, Any], None], board: Any) -> None:
        """Draw ``part(canvas, board)``: now on a whole frame, on every frame over the layer while the
        scene's layer is drawn (``part`` must read what changes from the board it is handed)."""
        if self.live is None:
            part(self, board)
        else:
            self.live.append(part)

    @property
    def rect(self) -> Rect:
        return self.surface.get_rect()

    def u(self, units: float) -> int:
        return self.theme.u(units)

    # -- text --------------------------------------------------------------------------------------

    def fit(self, box: Rect, text: str, size: float, role: str = "body", max_lines: int | None = None) -> Fit:
        """How ``text`` would fit ``box`` (preferred ``size`` in units; never below the minimum)."""
        return memo.fitted(text, box.width, box.height, self.u(size), self.theme.min_text, role, max_lines)

    def fits(self, box: Rect, text: str, size: float, role: str = "body", max_lines: int | None = None) -> bool:
        """Whether ``text`` fits ``box`` at the board's minimum size or above (``not fit(...).below_min``,
        without fitting it below the minimum)."""
        return memo.fitting(text, box.width, box.height, self.u(size), self.theme.min_text, role, max_lines)

    def text(
        self,
        box: Rect,
        text: str,
        size: float = 40,
        colour: Colour = look.TEXT,
        role: str = "body",
        align: str = "center",
        valign: str = "center",
        max_lines: int | None = None,
    ) -> Rect:
        """Draw ``text`` inside ``box``, wrapped and shrunk to fit; returns the rectangle it covers."""
        text = text.replace("\x00", "")  # pygame's renderer refuses a NUL (a malformed state must still draw)
        text = " ".join(text.split()) if "\n" not in text else text
        fitted = self.fit(box, text, size, role, max_lines)
        step = line_step(fitted.px)
        if valign == "top":
            y = box.top
        elif valign == "bottom":
            y = box.bottom - fitted.height
        else:
            y = box.top + (box.height - fitted.height) // 2
        covered: Rect | None = None
        for line in fitted.lines:
            image = memo.LINES.get(role, fitted.px, line, colour)
            if align == "left":
                x = box.left
            elif align == "right":
                x = box.right - image.get_width()
            else:
                x = box.left + (box.width - image.get_width()) // 2
            # The font's own line box is taller than its glyphs: centre it on this line's step.
            self.surface.blit(image, (x, y - (image.get_height() - step) // 2))
            target = Rect(x, y, image.get_width(), step)
            covered = target if covered is None else covered.union(target)
            y += step
        if covered is None:
            covered = Rect(box.left, y, 0, 0)
        self.placements.append(
            Placement(text, _box(box), _box(covered), fitted.px, fitted.lines, fitted.below_min)
        )
        return covered

    # -- shapes ------------------------------------------------------------------------------------

    def panel(
        self,
        box: Rect,
        colour: Colour = look.PANEL,
        edge: Colour | None = look.PANEL_EDGE,
        radius: float = 18,
        width: float = 3,
    ) -> None:
        pygame.draw.rect(self.surface, colour, box, border_radius=self.u(radius))
        if edge is not None:
            pygame.draw.rect(self.surface, edge, box, width=self.u(width), border_radius=self.u(radius))

    def pill(self, box: Rect, colour: Colour, text: str, size: float = 36, dim: bool = False,
             seat: int | None = None) -> Rect:
        """A player's name on their colour (the handset's colour), ink chosen for contrast; with ``seat``,
        the seat number in a dark badge at the name's left (rules.md The room 2: colours repeat in a room,
        seat numbers never). An empty ``text`` with a seat: the number alone, on the colour."""
        fill = look.mix(colour, look.BACKGROUND, 0.6) if dim else colour
        pygame.draw.rect(self.surface, fill, box, border_radius=box.height // 2)
        if seat is not None and not text:
            return self.text(box.inflate(-self.u(12), -self.u(2)), str(seat), size, look.ink_on(fill), role="title",
                             max_lines=1)
        inner = box.inflate(-max(box.height // 2, self.u(16)), -self.u(2))
        if seat is not None:
            badge = self.badge_box(box)
            pygame.draw.rect(self.surface, look.BADGE, badge, border_radius=badge.height // 2)
            self.text(badge, str(seat), size, look.TEXT, role="title", max_lines=1)
            inner.width = inner.right - badge.right - self.u(10)
            inner.left = badge.right + self.u(10)
        return self.text(inner, text, size, look.ink_on(fill), role="title")

    def badge_box(self, pill: Rect) -> Rect:
        """Where a pill's seat-number badge goes: at its left, wide enough for two digits."""
        inset = max(self.u(4), pill.height // 12)
        height = pill.height - 2 * inset
        width = max(height, look.font("title", self.theme.min_text).size("88")[0] + self.u(20))
        return Rect(pill.left + inset, pill.top + inset, width, height)

    def image(self, box: Rect, ref: str) -> Rect | None:
        """Draw the card picture ``ref`` centred in ``box``, scaled to fit (its shape kept, never stretched,
        never scaled up); returns the rectangle it covers, or None when the box cannot read it."""
        surface = pictures.picture(ref, (box.width, box.height))
        if surface is None:
            return None
        target = surface.get_rect(center=box.center)
        self.surface.blit(surface, target)
        return target

    def shows(self, ref: str | None) -> bool:
        """Whether :meth:`image` can draw the picture ``ref`` (a scene lays out for a picture only then)."""
        return ref is not None and pictures.readable(ref)

    def tick(self, centre: tuple[int, int], radius: int, colour: Colour = look.RIGHT) -> None:
        """A filled disc with a tick: *right*, readable without seeing the colour."""
        pygame.draw.circle(self.surface, colour, centre, radius)
        x, y, r = centre[0], centre[1], radius
        points = [(x - r * 0.5, y), (x - r * 0.12, y + r * 0.4), (x + r * 0.55, y - r * 0.38)]
        pygame.draw.lines(self.surface, look.TEXT, False, points, max(2, r // 4))

    def cross(self, centre: tuple[int, int], radius: int, colour: Colour = look.WRONG) -> None:
        """A filled disc with a cross: *wrong*."""
        pygame.draw.circle(self.surface, colour, centre, radius)
        x, y, d = centre[0], centre[1], radius * 0.45
        width = max(2, radius // 4)
        pygame.draw.line(self.surface, look.TEXT, (x - d, y - d), (x + d, y + d), width)
        pygame.draw.line(self.surface, look.TEXT, (x - d, y + d), (x + d, y - d), width)

    def lock(self, centre: tuple[int, int], radius: int, colour: Colour = look.GOLD) -> None:
        """A padlock: *locked in* (the board shows that a player answered, never what)."""
        x, y, r = centre[0], centre[1], radius
        body = Rect(0, 0, round(r * 1.5), round(r * 1.15))
        body.midtop = (x, round(y - r * 0.15))
        shackle = Rect(0, 0, round(r * 1.0), round(r * 1.2))
        shackle.midbottom = (x, body.top + round(r * 0.5))
        pygame.draw.ellipse(self.surface, colour, shackle, width=max(2, r // 4))
        pygame.draw.rect(self.surface, colour, body, border_radius=max(1, r // 5))

    def ring(self, centre: tuple[int, int], radius: int, fraction: float, colour: Colour, width: int) -> None:
        """An arc from 12 o'clock, ``fraction`` of a full turn (a countdown)."""
        fraction = min(1.0, max(0.0, fraction))
        pygame.draw.circle(self.surface, look.PANEL_EDGE, centre, radius, width)
        if fraction <= 0:
            return
        # one filled band (outer edge out, inner edge back): pygame's thick arcs, and concentric thin ones,
        # leave speckles of the background between their pixels (issue 31, the interval's ring)
        steps = max(2, math.ceil(fraction * 180))
        outer, inner = radius - 0.5, radius - width + 0.5
        angles = [math.pi / 2 + fraction * 2 * math.pi * i / steps for i in range(steps + 1)]
        cx, cy = centre
        band = [(cx + outer * math.cos(a), cy - outer * math.sin(a)) for a in angles]
        band += [(cx + inner * math.cos(a), cy - inner * math.sin(a)) for a in reversed(angles)]
        pygame.draw.polygon(self.surface, colour, band)


def _box(rect: Rect) -> tuple[int, int, int, int]:
    return (rect.left, rect.top, rect.width, rect.height)


def new_canvas(size: tuple[int, int], now: float = 0.0, into: pygame.Surface | None = None) -> Canvas:
    """A canvas of ``size``; drawn on ``into`` (a surface of that size, overwritten whole: the scene's
    background covers it) when given, else on a new surface. A display loop hands the same two surfaces
    back frame after frame: a new 1080p surface is 8 MB to allocate and clear each time."""
    width, height = size
    if width < 320 or height < 240:
        raise ValueError(f"the board needs at least 320x240 pixels, got {width}x{height}")
    if into is not None and into.get_size() != (width, height):
        other = f"{into.get_width()}x{into.get_height()}"
        raise ValueError(f"a {width}x{height} frame cannot be drawn on a {other} surface")
    surface = into if into is not None else pygame.Surface((width, height))
    return Canvas(surface, Theme(width, height), now)
