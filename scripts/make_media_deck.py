"""Make the shipped picture deck and sound deck (issue 34): every picture and sound drawn by this script,
every answer computed by it, so the box ships media with no licence question.

    python scripts/make_media_deck.py            # writes appliance/data/decks/estimation-pictures.json and
                                                 # estimation-sounds.json, their files in appliance/data/media/
    python scripts/make_media_deck.py --check    # says whether the shipped files are what the seed makes

Deterministic from ``--seed`` (34): the same seed gives the same pictures, sounds, answers and so the same
media references. 40 picture cards (how many dots; what share of the square is red; how many matchsticks;
the red line's length as a share of the blue one's) and 21 sound cards (how many beeps; how many seconds a
note lasts; how many times a tune steps up), all estimation cards tagged ``picture`` or ``sound``. The
pictures and the sounds are two decks, because a night's round picks its cards by deck (RoundPlan.deck): a
picture round deals from one, a sound round from the other. Each deck passes through the same import as an
uploaded zip (load_bundle), so its pictures are the re-encoded PNGs the box keeps and every reference is the
one an import would store.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import struct
import sys
import wave
import zipfile
from decimal import Decimal
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from appliance.decks import dump_deck, load_bundle  # noqa: E402

DECK_IDS = {"picture": "estimation-pictures", "sound": "estimation-sounds"}
"""Each kind of card's deck (the cards of one kind make one deck, in the order the seed draws them)."""
DECK_NAMES = {"picture": "Pictures", "sound": "Sounds"}
DECKS_DIR = ROOT / "appliance" / "data" / "decks"
MEDIA_DIR = ROOT / "appliance" / "data" / "media"
SIZE = (1200, 900)
PAPER = (250, 250, 245)
RED, BLUE, GREY, WOOD = (210, 30, 40), (30, 80, 200), (200, 200, 200), (222, 184, 135)
RATE = 11025
SOURCE = "Drawn and computed by Quizbox's scripts/make_media_deck.py"


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _spread(rng: random.Random, count: int, radius: int, margin: int = 40) -> list[tuple[int, int]]:
    """``count`` centres at least ``2 * radius + 6`` apart, inside the picture."""
    points: list[tuple[int, int]] = []
    while len(points) < count:
        x, y = rng.randrange(margin, SIZE[0] - margin), rng.randrange(margin, SIZE[1] - margin)
        if all((x - a) ** 2 + (y - b) ** 2 >= (2 * radius + 6) ** 2 for a, b in points):
            points.append((x, y))
    return points


def dots(rng: random.Random, count: int) -> bytes:
    image = Image.new("RGB", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    for x, y in _spread(rng, count, 22):
        draw.ellipse((x - 22, y - 22, x + 22, y + 22), fill=RED)
    return _png(image)


def red_share(rng: random.Random, percent: int) -> bytes:
    """A 20 x 20 grid in a square, ``percent`` of its 400 cells red, scattered."""
    image = Image.new("RGB", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    cell, left, top = 40, (SIZE[0] - 800) // 2, (SIZE[1] - 800) // 2
    red = set(rng.sample(range(400), percent * 4))
    for i in range(400):
        x, y = left + (i % 20) * cell, top + (i // 20) * cell
        draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=RED if i in red else GREY)
    return _png(image)


def matchsticks(rng: random.Random, count: int) -> bytes:
    image = Image.new("RGB", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    for x, y in _spread(rng, count, 45, margin=70):
        angle = rng.uniform(0, math.pi)
        dx, dy = 45 * math.cos(angle), 45 * math.sin(angle)
        draw.line((x - dx, y - dy, x + dx, y + dy), fill=WOOD, width=9)
        draw.ellipse((x + dx - 9, y + dy - 9, x + dx + 9, y + dy + 9), fill=RED)
    return _png(image)


def lines(rng: random.Random, percent: int) -> tuple[bytes, int, int]:
    """A blue line and a red one ``percent`` of its length (both whole pixels: the answer is exact)."""
    blue = rng.choice([b for b in range(200, 820, 20) if b * percent <= 100_000])  # both fit on the picture
    red = blue * percent // 100  # exact: the percentages are multiples of 5, the lengths of 20
    image = Image.new("RGB", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    for length, colour, y in ((blue, BLUE, rng.randrange(150, 380)), (red, RED, rng.randrange(520, 760))):
        x = rng.randrange(60, SIZE[0] - 60 - length)
        draw.line((x, y, x + length, y), fill=colour, width=14)
    return _png(image), red, blue


def _wav(samples: list[int]) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return out.getvalue()


def _note(frequency: float, seconds: float) -> list[int]:
    count = int(RATE * seconds)
    fade = max(1, min(count // 4, int(RATE * 0.01)))
    return [int(9000 * min(1.0, i / fade, (count - i) / fade) * math.sin(2 * math.pi * frequency * i / RATE))
            for i in range(count)]


def _rest(seconds: float) -> list[int]:
    return [0] * int(RATE * seconds)


def beeps(rng: random.Random, count: int) -> bytes:
    samples = _rest(0.3)
    for _ in range(count):
        samples += _note(880, 0.12) + _rest(rng.choice([0.12, 0.18, 0.25, 0.35]))
    return _wav(samples)


def held_note(rng: random.Random, seconds: Decimal) -> bytes:
    return _wav(_rest(0.3) + _note(rng.choice([330, 440, 523]), float(seconds)) + _rest(0.3))


def tune(rng: random.Random, steps_up: int, notes: int) -> bytes:
    """``notes`` notes on a scale, exactly ``steps_up`` of the steps between them going up."""
    ups = set(rng.sample(range(notes - 1), steps_up))
    degree = 7
    degrees = [degree]
    for i in range(notes - 1):
        degree += rng.choice([1, 2]) if i in ups else -rng.choice([1, 2])
        degrees.append(degree)
    low = min(degrees)
    samples = _rest(0.3)
    for d in degrees:
        samples += _note(220 * 2 ** ((d - low) * 2 / 12), 0.28) + _rest(0.07)
    return _wav(samples)


def _card(n: int, kind: str, question: str, answer: Decimal, unit: str, fact: str, name: str, rng: random.Random,
          difficulty: str) -> dict[str, object]:
    lo = int(answer * Decimal("0.6")) - 1
    hi = int(answer * Decimal("1.5")) + 5
    return {"id": f"media-{n:03d}", "category": "science", "difficulty": difficulty, "family": True,
            "tags": [kind], "question": question, "answer": str(answer), "unit": unit, "fact": fact,
            "hints": [f"More than {max(lo, 0)}.", f"Fewer than {hi}."], "source": SOURCE,
            ("image" if kind == "picture" else "audio"): name}


def make(seed: int) -> tuple[dict[str, object], dict[str, bytes]]:
    """Every card in one document (naming the files by their names in a zip) and the files; :func:`split`
    makes the shipped decks of it."""
    rng = random.Random(seed)
    cards: list[dict[str, object]] = []
    files: dict[str, bytes] = {}

    def add(kind: str, question: str, answer: Decimal, unit: str, fact: str, body: bytes, ext: str,
            difficulty: str) -> None:
        n = len(cards) + 1
        name = f"{kind}s/{n:03d}.{ext}"
        files[name] = body
        cards.append(_card(n, kind, question, answer, unit, fact, name, rng, difficulty))

    for k, count in enumerate(rng.sample(range(15, 90), 10), 1):
        add("picture", f"Dots picture {k}: how many red dots are on it?", Decimal(count), "dots",
            f"The picture has {count} dots, none touching.", dots(rng, count), "png", "easy")
    for k, percent in enumerate(rng.sample(range(5, 96), 10), 1):
        add("picture", f"Grid picture {k}: what percentage of the square's cells are red?", Decimal(percent), "%",
            f"{percent * 4} of the 400 cells are red.", red_share(rng, percent), "png", "medium")
    for k, count in enumerate(rng.sample(range(12, 60), 10), 1):
        add("picture", f"Matchstick picture {k}: how many matchsticks lie on the table?", Decimal(count),
            "matchsticks", f"{count} matchsticks were dropped.", matchsticks(rng, count), "png",
            "easy" if count < 25 else "hard")
    for k, percent in enumerate(rng.sample(range(30, 300, 5), 10), 1):
        body, red, blue = lines(rng, percent)
        add("picture", f"Lines picture {k}: the red line's length is what percentage of the blue line's?",
            Decimal(percent), "%", f"The red line is {red} pixels long, the blue one {blue}.", body, "png", "hard")
    for k, count in enumerate(rng.sample(range(5, 30), 7), 1):
        add("sound", f"Beeps sound {k}: how many beeps do you hear?", Decimal(count), "beeps",
            f"The sound has {count} beeps, at uneven gaps.", beeps(rng, count), "wav", "easy")
    for k, halves in enumerate(rng.sample(range(3, 25), 7), 1):
        seconds = Decimal(halves) / 2
        add("sound", f"Long note sound {k}: how many seconds does the note last?", seconds, "seconds",
            f"The note lasts {seconds} seconds.", held_note(rng, seconds), "wav", "medium")
    for k, ups in enumerate(rng.sample(range(3, 14), 7), 1):
        notes = ups + rng.randrange(4, 9)
        add("sound", f"Tune sound {k}: how many times does the tune step up?", Decimal(ups), "steps up",
            f"{ups} of the tune's {notes - 1} steps go up.", tune(rng, ups, notes), "wav", "hard")
    doc = {"format": "quizbox-deck", "version": 1, "id": "", "name": "", "type": "estimation", "language": "en",
           "description": "", "cards": cards}
    return doc, files


def split(doc: dict[str, object], seed: int) -> dict[str, dict[str, object]]:
    """The shipped decks by kind: one deck of the picture cards, one of the sound cards."""
    cards = doc["cards"]
    assert isinstance(cards, list)
    decks: dict[str, dict[str, object]] = {}
    for kind, deck_id in DECK_IDS.items():
        decks[deck_id] = {**doc, "id": deck_id, "name": DECK_NAMES[kind],
                          "description": f"{kind.capitalize()} estimation cards made by scripts/make_media_deck.py "
                                         f"(seed {seed}): deal a round from this deck for a {kind} round "
                                         f"(every card's {kind} made and its answer computed by the script).",
                          "cards": [c for c in cards if kind in c["tags"]]}
    return decks


def build(seed: int) -> tuple[dict[str, str], dict[str, bytes]]:
    """Each deck file's text as shipped (naming media references) by deck id, and each reference's bytes."""
    doc, files = make(seed)
    texts: dict[str, str] = {}
    media: dict[str, bytes] = {}
    for deck_id, deck in split(doc, seed).items():
        archive = io.BytesIO()
        cards = deck["cards"]
        assert isinstance(cards, list)
        named = {str(c.get("image") or c.get("audio")) for c in cards}  # each deck's zip holds its own files
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
            z.writestr("deck.json", json.dumps(deck))
            for name, body in files.items():
                if name in named:
                    z.writestr(name, body)
        bundle = load_bundle(archive.getvalue())
        texts[deck_id] = dump_deck(bundle.deck, "json")
        media.update(bundle.media)
    return texts, media


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--check", action="store_true", help="compare with the shipped files, write nothing")
    args = parser.parse_args(argv)
    texts, media = build(args.seed)
    if args.check:
        same = all((DECKS_DIR / f"{deck_id}.json").is_file()
                   and (DECKS_DIR / f"{deck_id}.json").read_text("utf-8") == text for deck_id, text in texts.items())
        same = same and all(
            (MEDIA_DIR / ref).is_file() and (MEDIA_DIR / ref).read_bytes() == body for ref, body in media.items())
        print("the shipped deck is what the seed makes" if same else "the shipped deck differs: run this script")
        return 0 if same else 1
    MEDIA_DIR.mkdir(parents=True, exist_ok=True)
    for old in MEDIA_DIR.iterdir():  # the folder holds these decks' media only: a file no card names goes
        if old.name not in media:
            old.unlink()
    for ref, body in media.items():
        (MEDIA_DIR / ref).write_bytes(body)
    for deck_id, text in texts.items():
        (DECKS_DIR / f"{deck_id}.json").write_text(text, encoding="utf-8")
    print(f"wrote {', '.join(texts)} in {DECKS_DIR.relative_to(ROOT)} and {len(media)} files in "
          f"{MEDIA_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
