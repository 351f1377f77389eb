"""Board benchmark: per-scene frame time at 1080p against a fill + flip baseline, and idle CPU.

    python bench/board.py [--frames 20] [--idle 10]

Both run in the same process on the same (headless, SDL dummy) display, so the per-scene numbers read
as "how much slower than the cheapest possible frame". The idle part runs the real display loop on
an unchanging state for ``--idle`` seconds and reports the CPU time the process used meanwhile.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from appliance.board import Board, render  # noqa: E402
from appliance.board.samples import board_states  # noqa: E402

SIZE = (1920, 1080)


def per_frame_ms(draw, frames: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        draw()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--idle", type=float, default=10.0)
    args = parser.parse_args()
    pygame.display.init()
    screen = pygame.display.set_mode(SIZE)

    def baseline() -> None:
        screen.fill((11, 16, 38))
        pygame.display.flip()

    base = per_frame_ms(baseline, args.frames)
    print(f"{'scene':28s} {'ms/frame':>9s} {'x baseline':>10s}")
    print(f"{'(fill + flip baseline)':28s} {base:9.2f} {1.0:10.1f}")
    for name, state in board_states().items():

        def frame(state=state) -> None:  # type: ignore[no-untyped-def]
            screen.blit(render(state, SIZE, 30.0), (0, 0))
            pygame.display.flip()

        ms = per_frame_ms(frame, args.frames)
        print(f"{name:28s} {ms:9.2f} {ms / base if base else float('inf'):10.1f}")
    pygame.display.quit()

    board = Board(SIZE, display="headless")
    board.update(board_states()["lobby"])
    stop = threading.Event()
    threading.Timer(1.0 + args.idle, stop.set).start()
    measured: dict[str, float] = {}

    def sample() -> None:
        time.sleep(1.0)  # let the first frame be drawn
        cpu0, wall0, frames0 = time.process_time(), time.monotonic(), board.frames
        stop.wait()
        measured.update(cpu=time.process_time() - cpu0, wall=time.monotonic() - wall0, frames=board.frames - frames0)

    sampler = threading.Thread(target=sample)
    sampler.start()
    board.run(stop)
    sampler.join()
    share = measured["cpu"] / measured["wall"] * 100
    print(
        f"idle {measured['wall']:.1f} s: CPU {measured['cpu'] * 1000:.0f} ms ({share:.2f}% of one core), "
        f"{measured['frames']:.0f} frames drawn"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
