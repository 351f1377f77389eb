"""A picture question on the TV (issue 34): the picture beside the question, scaled to fit and never
stretched, at 1080p and 720p against stored references; loaded once by reference; the retained board
carries the reference, never the bytes; a picture the box cannot read leaves the question standing.

References: ``python -m tests.board.test_pictures`` rewrites tests/board/reference/picture-*.png (and the
README's copy in docs/img/board-picture-question.png); look at them before committing."""

from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pygame
import pytest
from PIL import Image, ImageDraw

from appliance.board import pictures
from appliance.board.compose import render
from appliance.infra.media import MediaStore, ref_for
from tests.board.snapshots import PIXEL_BUDGET, REFERENCE_DIR, SIZES, differing_share

DOCS_COPY = Path(__file__).resolve().parents[2] / "docs" / "img" / "board-picture-question.png"


def dots_picture(count: int = 37, seed: int = 7) -> bytes:
    """A 4:3 picture of ``count`` red dots on white (as the shipped picture deck draws them)."""
    rng = random.Random(seed)
    image = Image.new("RGB", (800, 600), (250, 250, 245))
    draw = ImageDraw.Draw(image)
    for _ in range(count):
        x, y = rng.randrange(30, 770), rng.randrange(30, 570)
        draw.ellipse((x - 18, y - 18, x + 18, y + 18), fill=(210, 30, 40))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


PICTURE = dots_picture()
REF = ref_for(PICTURE, "png")


def state(ref: str = REF) -> dict[str, Any]:
    return {
        "v": 1, "box": "Quizbox", "scene": "playing", "game": "confident", "paused": False,
        "players": [{"name": n, "colour": c, "handset": f"h{i}", "online": True, "seated": True}
                    for i, (n, c) in enumerate([("Ann", "#e6194b"), ("Bob", "#3cb44b"), ("Cy", "#4363d8")])],
        "seats": ["Ann", "Bob", "Cy"],
        "view": {"phase": "open", "players": ["Ann", "Bob", "Cy"],
                 "question": {"number": 3, "question": "How many red dots are in the picture?", "unit": "dots",
                              "answered": ["Bob"]}},
        "remaining": None, "can_advance": True, "waiting": True, "message": "", "ending": None,
        "seats_away": [], "media": {"image": ref}, "version": 9,
    }


@pytest.fixture
def media(tmp_path: Path) -> MediaStore:
    store = MediaStore(tmp_path / "media", shipped=tmp_path / "none")
    store.put_all({REF: PICTURE})
    pictures.use(store.read)
    yield store
    pictures.use(lambda ref: None)


def _reference(size_key: str) -> Path:
    return REFERENCE_DIR / f"picture-question-{size_key}p.png"


def _picture_box(frame: pygame.Surface) -> pygame.Rect:
    """The bounding box of the picture's background on the frame: the largest patch of its off-white."""
    patches = pygame.mask.from_threshold(frame, (250, 250, 245), (10, 10, 10, 255)).connected_components()
    assert patches, "no picture on the frame"
    rects = max(patches, key=lambda patch: patch.count()).get_bounding_rects()
    assert rects, "no picture on the frame"
    return rects[0].unionall(rects[1:])


@pytest.mark.parametrize("size_key", list(SIZES))
def test_a_picture_question_matches_its_reference_and_keeps_the_pictures_shape(media: MediaStore,
                                                                              size_key: str) -> None:
    frame = render(state(), SIZES[size_key])
    expected = pygame.image.load(str(_reference(size_key)))
    assert differing_share(frame, expected) <= PIXEL_BUDGET
    box = _picture_box(frame)
    assert abs(box.width / box.height - 800 / 600) < 0.02  # never stretched
    assert box.height >= SIZES[size_key][1] * 0.3  # big enough to count dots from the back of the room
    without = render(state(ref=""), SIZES[size_key])
    assert differing_share(frame, without) > PIXEL_BUDGET  # the picture is what differs


def test_the_tv_loads_a_picture_once_however_many_frames_show_it(media: MediaStore) -> None:
    before = pictures.loads
    for now in (0.0, 0.5, 1.0):
        for size in SIZES.values():
            render({**state(), "remaining": 10 - now}, size, now)
    assert pictures.loads == before + 1


def test_a_picture_the_box_cannot_read_leaves_the_question(media: MediaStore) -> None:
    missing = "f" * 64 + ".png"
    frame = render(state(ref=missing), SIZES["720"])
    assert differing_share(frame, render(state(ref=""), SIZES["720"])) <= PIXEL_BUDGET


def test_the_retained_board_carries_the_reference_not_the_picture() -> None:
    with_picture = len(json.dumps(state()).encode())
    plain = len(json.dumps({**state(), "media": {}}).encode())
    assert with_picture - plain < 100 < len(PICTURE)  # 64 hex digits and a name, not the picture's bytes


def test_fitting_never_stretches_and_never_scales_up() -> None:
    assert pictures.fitted_size((800, 600), (1000, 400)) == (533, 400)
    assert pictures.fitted_size((800, 600), (400, 1000)) == (400, 300)
    assert pictures.fitted_size((80, 60), (1000, 1000)) == (80, 60)


def main() -> None:  # pragma: no cover - the regeneration command
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        store = MediaStore(Path(folder), shipped=Path(folder) / "none")
        store.put_all({REF: PICTURE})
        pictures.use(store.read)
        for key, size in SIZES.items():
            pygame.image.save(render(state(), size), str(_reference(key)))
        shutil.copyfile(_reference("1080"), DOCS_COPY)
        print("wrote", _reference("1080"), _reference("720"), DOCS_COPY)


if __name__ == "__main__":
    main()


@pytest.mark.parametrize("size_key", list(SIZES))
def test_a_buzzer_picture_question_shows_the_picture_whole_beside_the_question(media: MediaStore,
                                                                               size_key: str) -> None:
    from appliance.board.compose import compose

    buzzer = {**state(), "game": "buzzer",
              "view": {"phase": "armed", "number": 2, "question": "Whose dots are these?", "buzzes": [],
                       "scores": {"Ann": 0, "Bob": 2, "Cy": 1}, "players": ["Ann", "Bob", "Cy"]}}
    canvas, _ = compose(buzzer, SIZES[size_key], 0.0)
    box = _picture_box(canvas.surface)
    assert abs(box.width / box.height - 800 / 600) < 0.02 and box.height >= SIZES[size_key][1] * 0.25
    question = next(p for p in canvas.placements if p.text == "Whose dots are these?")
    assert question.rect[0] >= box.right and not question.below_min  # beside the picture, readable
