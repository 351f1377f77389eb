"""Media made in the tests: pictures and sounds, good and bad, and a deck's zip around them."""

from __future__ import annotations

import io
import json
import struct
import wave
import zipfile
import zlib
from collections.abc import Mapping

from PIL import Image


def png(width: int = 40, height: int = 30, colour: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()


def picture(fmt: str, width: int = 64, height: int = 48) -> bytes:
    out = io.BytesIO()
    image = Image.new("RGB", (width, height), (20, 90, 200))
    image.paste((250, 250, 0), (0, 0, width // 2, height // 2))
    image.save(out, format=fmt)
    return out.getvalue()


def bomb_png(width: int, height: int) -> bytes:
    """A small valid PNG whose header claims ``width`` x ``height`` (its IHDR patched, CRC fixed)."""
    data = bytearray(png(8, 8))
    ihdr = data.index(b"IHDR")
    struct.pack_into(">II", data, ihdr + 4, width, height)
    crc = zlib.crc32(bytes(data[ihdr: ihdr + 17]))
    struct.pack_into(">I", data, ihdr + 17, crc)
    return bytes(data)


def wav(seconds: float = 0.5, rate: int = 8000) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(rate)
        w.writeframes(bytes([128, 200, 128, 56]) * int(seconds * rate / 4))
    return out.getvalue()


def deck(cards: list[dict[str, object]], deck_id: str = "pics") -> dict[str, object]:
    return {"format": "quizbox-deck", "version": 1, "id": deck_id, "name": "Picture round", "type": "estimation",
            "cards": cards}


def card(n: int, **media: str) -> dict[str, object]:
    return {"id": f"p-{n}", "category": "science", "difficulty": "easy", "family": True,
            "question": f"How many dots are in picture {n}?", "answer": str(10 + n), "unit": "dots",
            "fact": "Counted by the generator.", "hints": [f"More than {n}.", f"Fewer than {100 + n}."],
            "source": "Quizbox", **media}


def zipped(files: Mapping[str, bytes | str], doc: Mapping[str, object] | None = None,
           compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as z:
        if doc is not None:
            z.writestr("deck.json", json.dumps(doc))
        for name, body in files.items():
            z.writestr(name, body)
    return out.getvalue()


def with_symlink(doc: Mapping[str, object], name: str, target: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("deck.json", json.dumps(doc))
        info = zipfile.ZipInfo(name)
        info.external_attr = (0o120777 << 16)
        z.writestr(info, target)
    return out.getvalue()
