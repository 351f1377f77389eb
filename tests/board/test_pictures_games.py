"""A picture card in sQuizz, All In and estimation poker on the TV (issue 34): the picture beside the
question, scaled to fit and never stretched, at 1080p and 720p against stored references; with 40 seats
no text a player reads falls under 28 px because of the picture; the retained board carries the reference.

Follows tests/board/test_pictures.py (the Confident? and buzzer picture questions) and uses its picture.
References: ``python -m tests.board.test_pictures_games`` rewrites tests/board/reference/picture-<scene>-*.png;
look at them before committing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest

from appliance.board import pictures
from appliance.board.compose import choose, compose, render
from appliance.board.samples import board_states, room_states
from appliance.board.state import Board
from appliance.infra.media import MediaStore
from tests.board.snapshots import PIXEL_BUDGET, REFERENCE_DIR, SIZES, differing_share
from tests.board.test_pictures import PICTURE, REF, _picture_box
from tests.board.test_room import READABLE_PX

TABLE, ROOM = board_states(), room_states()
SCENES: dict[str, tuple[dict[str, Any], str]] = {
    # snapshot name: (state without its picture, the scene the board must choose for it)
    "squizz": (TABLE["squizz-question"], "squizz-question"),
    "allin": (TABLE["allin-betting"], "allin-question"),
    "poker": (TABLE["poker-betting"], "poker-betting"),
    "poker-ranges": (TABLE["poker-ranges"], "poker-ranges"),
    "poker-tables": (ROOM["poker-tables-24"], "poker-tables"),
}
ROOM_40 = [f"{scene}-{count}" for count in (24, 40) for scene in ("squizz-question", "allin-betting", "poker-tables",
                                                                 "confident-question", "buzzer-answering")]
ROOM_40.append("poker-final-8")


def pictured(state: dict[str, Any], ref: str = REF) -> dict[str, Any]:
    return {**state, "media": {"image": ref}}


@pytest.fixture
def media(tmp_path: Path) -> Any:
    store = MediaStore(tmp_path / "media", shipped=tmp_path / "none")
    store.put_all({REF: PICTURE})
    pictures.use(store.read)
    yield store
    pictures.use(lambda ref: None)


def _reference(name: str, size_key: str) -> Path:
    return REFERENCE_DIR / f"picture-{name}-{size_key}p.png"


@pytest.mark.parametrize("size_key", list(SIZES))
@pytest.mark.parametrize("name", list(SCENES))
def test_a_picture_card_shows_whole_beside_the_question(media: MediaStore, name: str, size_key: str) -> None:
    state, scene = SCENES[name]
    assert choose(Board(pictured(state))).name == scene
    canvas, _ = compose(pictured(state), SIZES[size_key], 30.0)
    frame = canvas.surface
    path = _reference(name, size_key)
    assert path.exists(), f"no reference {path.name}: run python -m tests.board.test_pictures_games"
    assert differing_share(frame, pygame.image.load(str(path))) <= PIXEL_BUDGET
    box = _picture_box(frame)
    assert abs(box.width / box.height - 800 / 600) < 0.02  # never stretched
    assert box.height >= SIZES[size_key][1] * (0.15 if name == "poker-tables" else 0.2)
    for placement in canvas.placements:  # no text drawn over the picture
        assert not box.colliderect(pygame.Rect(placement.rect)), (placement.text, placement.rect, box)
    without = render(state, SIZES[size_key], 30.0)
    assert differing_share(frame, without) > PIXEL_BUDGET  # the picture is what differs


@pytest.mark.parametrize("now", [0.4, 30.0], ids=["animating", "settled"])
def test_no_text_under_28_px_at_40_seats_with_a_picture(media: MediaStore, now: float) -> None:
    # the buzzer's room fell to 17 px with a picture before its panel was sized for a room
    small = {}
    for name in ROOM_40:
        canvas, _ = compose(pictured(ROOM[name]), (1920, 1080), now)
        assert canvas.placements, name
        low = min(canvas.placements, key=lambda p: p.px)
        if low.px < READABLE_PX:
            small[name] = (low.px, low.text)
    assert not small, f"text under {READABLE_PX} px at 1080p with 40 seats and a picture: {small}"


def test_a_picture_the_box_cannot_read_leaves_each_question_as_it_was(media: MediaStore) -> None:
    missing = "f" * 64 + ".png"
    for name, (state, _) in SCENES.items():
        frame = render(pictured(state, missing), SIZES["720"], 30.0)
        assert differing_share(frame, render(state, SIZES["720"], 30.0)) <= PIXEL_BUDGET, name


def test_the_retained_board_carries_the_reference_not_the_picture() -> None:
    for name, (state, _) in SCENES.items():
        grown = len(json.dumps(pictured(state)).encode()) - len(json.dumps(state).encode())
        assert grown < 100 < len(PICTURE), name  # 64 hex digits and a name, not the picture's bytes


def main() -> None:  # pragma: no cover - the regeneration command
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        store = MediaStore(Path(folder), shipped=Path(folder) / "none")
        store.put_all({REF: PICTURE})
        pictures.use(store.read)
        for name, (state, _) in SCENES.items():
            for key, size in SIZES.items():
                pygame.image.save(render(pictured(state), size, 30.0), str(_reference(name, key)))
                print("wrote", _reference(name, key))


if __name__ == "__main__":
    main()
