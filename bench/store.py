"""What storing an input costs before its ack, beside a bare SQLite commit measured in the same run.

    python bench/store.py [--inputs 2000] [--dir PATH]

Each input a handset sends is stored (``Store.append_actions``: the actions it became and the handset's
last acked input, one synchronous WAL transaction) before the hub acks it (docs/reliability.md). The
baseline is the least any durable store could do on the same disk: one row inserted and committed per
input in a bare ``sqlite3`` connection with the same settings (WAL, synchronous=FULL). Printed: CPU time
per input and wall time p50 / p99 of each, and the ratio. ``--dir`` puts the database on the disk to
measure (an SD card on a box; the default is the machine's temporary folder).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from appliance.infra.store import Store  # noqa: E402

ACTION = {"kind": "answer", "player": "Ann", "bottom": "8", "top": "9.5"}


def timed(count: int, step: Callable[[int], None]) -> tuple[float, float, float]:
    """(CPU us per call, wall p50 ms, wall p99 ms) of ``step(i)`` for i in range(count)."""
    walls = []
    cpu = time.process_time()
    for i in range(count):
        start = time.perf_counter()
        step(i)
        walls.append(time.perf_counter() - start)
    spent = (time.process_time() - cpu) / count
    walls.sort()
    return spent * 1e6, walls[count // 2] * 1e3, walls[min(count - 1, int(count * 0.99))] * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--dir", help="where to put the databases (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        store = Store(Path(folder) / "quizbox.db")
        game = store.create_game("confident", {"players": ["Ann"]}, {"Ann": "h1"})
        ours = timed(args.inputs, lambda i: store.append_actions(game, i, [ACTION], ("h1", i + 1, f"ab12cd-p{i}")))
        store.close()
        bare = sqlite3.connect(Path(folder) / "bare.db", isolation_level=None)
        bare.execute("PRAGMA journal_mode=WAL")
        bare.execute("PRAGMA synchronous=FULL")
        bare.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, body TEXT)")

        def insert(i: int) -> None:
            bare.execute("BEGIN")
            bare.execute("INSERT INTO t VALUES (?, ?)", (i, '{"kind": "answer"}'))
            bare.execute("COMMIT")

        base = timed(args.inputs, insert)
        bare.close()
    print(f"storing an input before its ack, {args.inputs} inputs; baseline: one bare SQLite row committed "
          "(WAL, synchronous=FULL) on the same disk")
    print(f"{'':>16} | {'CPU us':>7} {'wall p50 ms':>11} {'wall p99 ms':>11}")
    print(f"{'Store':>16} | {ours[0]:7.0f} {ours[1]:11.2f} {ours[2]:11.2f}")
    print(f"{'bare commit':>16} | {base[0]:7.0f} {base[1]:11.2f} {base[2]:11.2f}")
    print(f"{'ratio':>16} | {ours[0] / base[0]:7.2f} {ours[1] / base[1]:11.2f} {ours[2] / base[2]:11.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
