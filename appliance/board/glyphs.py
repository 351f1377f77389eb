"""Which characters the TV's fonts can draw, read from their character maps (no pygame: SDL_ttf gives a
missing glyph's box the same metrics as a real one).

A name with a character outside the map shows on the TV as an empty box (an emoji, in Open Sans), so a
phone's join refuses it with words that say so (web/phone.py; issue 31, 9).
"""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path

from appliance.board.theme import FONT_DIR, FONT_FILES


def _table(data: bytes, tag: bytes) -> bytes:
    count = struct.unpack_from(">H", data, 4)[0]
    for i in range(count):
        name, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if name == tag:
            return data[offset:offset + length]
    raise ValueError(f"font has no {tag!r} table")


def code_points(data: bytes) -> frozenset[int]:
    """The code points a TrueType font maps to a glyph (cmap format 12, else format 4)."""
    cmap = _table(data, b"cmap")
    records = [struct.unpack_from(">HHI", cmap, 4 + 8 * i) for i in range(struct.unpack_from(">H", cmap, 2)[0])]
    by_kind = {(p, e): offset for p, e, offset in records}
    points: set[int] = set()
    offset = by_kind.get((3, 10)) or by_kind.get((0, 4))
    if offset is not None and struct.unpack_from(">H", cmap, offset)[0] == 12:
        groups = struct.unpack_from(">I", cmap, offset + 12)[0]
        for g in range(groups):
            start, end, _ = struct.unpack_from(">III", cmap, offset + 16 + 12 * g)
            points.update(range(start, end + 1))
        return frozenset(points)
    offset = by_kind.get((3, 1)) or by_kind.get((0, 3))
    if offset is None:
        raise ValueError("font has no Unicode character map")
    segments = struct.unpack_from(">H", cmap, offset + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", cmap, offset + 14)
    starts = struct.unpack_from(f">{segments}H", cmap, offset + 16 + 2 * segments)
    for start, end in zip(starts, ends, strict=True):
        points.update(p for p in range(start, end + 1) if p != 0xFFFF)
    return frozenset(points)


@cache
def drawable() -> frozenset[int]:
    """The code points every TV font draws (titles and body text alike)."""
    maps = [code_points(Path(FONT_DIR / name).read_bytes()) for name in FONT_FILES.values()]
    return frozenset.intersection(*maps)


def undrawable(text: str) -> list[str]:
    """The characters of ``text`` the TV would show as empty boxes, each once, in order (spaces are fine)."""
    can = drawable()
    out: list[str] = []
    for ch in text:
        if not ch.isspace() and ord(ch) not in can and ch not in out:
            out.append(ch)
    return out
