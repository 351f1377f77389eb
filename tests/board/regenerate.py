"""Regenerate the board's reference images: ``python -m tests.board.regenerate [NAME ...]``.

Run it after an intended change of the board's look, look at the new images (git diff shows which
changed), and commit them with the change. The snapshot test never writes references itself.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from appliance.board.samples import room_states  # noqa: E402
from tests.board.snapshots import REFERENCE_DIR, cases, frame, reference_path  # noqa: E402


def main(argv: list[str]) -> int:
    REFERENCE_DIR.mkdir(parents=True, exist_ok=True)
    written = 0
    for name, state, now, size_key in cases():
        if argv and name not in argv:
            continue
        pygame.image.save(frame(state, now, size_key), str(reference_path(name, size_key)))
        written += 1
    for name, state in room_states().items():  # the room's scenes at 1080p only (tests/board/test_room.py)
        if argv and f"room-{name}" not in argv and "room" not in argv:
            continue
        pygame.image.save(frame(state, 30.0, "1080"), str(reference_path(f"room-{name}", "1080")))
        written += 1
    print(f"wrote {written} reference images to {REFERENCE_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
