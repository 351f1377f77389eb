"""The wall clock jumps under the real quiz program (issue 38): the Pi has no clock battery and sets its
clock when it first reaches a time server, often mid-evening. ``quizbox run`` reads its wall clock through
one seam (appliance/infra/wallclock.py) whose shift the test rewrites in a file: forward 1 hour, then back
10 minutes, mid-question; then back 20 minutes more before an undo. (libfaketime, Debian's 0.9.10, makes
Python's time.sleep fail with EINVAL when the monotonic clock is left real, as the kernel leaves it.)
Afterwards: the question's time limit runs on as before (it neither expired nor grew), every acked answer is
stored once, the undo made with the clock gone back is not taken for a loss at the next start (the backup
choice), and that start says only that the game resumed (no loss, no restore)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.broker import MosquittoBroker
from tests.faults.checks import match_all, problems
from tests.faults.harness import Table, wait_until

LIMIT = 40  # seconds of the question's time limit (Confident? fast play)


@pytest.fixture
def wall_clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The file holding the seconds the quiz program started from now adds to its wall clock."""
    shift = tmp_path / "wall-clock-shift"
    shift.write_text("0\n")
    monkeypatch.setenv("QUIZBOX_WALL_CLOCK_SHIFT", str(shift))
    yield shift


def remaining(table: Table) -> int | None:
    value = table.observer.board.get("remaining")
    return int(value) if isinstance(value, int) else None


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(90)
def test_a_wall_clock_jump_changes_no_timer_no_answer_and_no_backup_choice(
    tmp_path: Path, broker: MosquittoBroker, wall_clock: Path, figures: dict[str, Any]
) -> None:
    table = Table(tmp_path, broker.port, 5, "clock")
    try:
        health_at = table.app.health().get("recovery", {}).get("at")
        for player in table.players:
            player.paused = True
        game_id = table.start_game("confident", {"target": 99, "variants": ["fast_play"],
                                                 "fast_play_seconds": LIMIT}, 3)
        wait_until(lambda: remaining(table) is not None, 10, "the question's time limit running")
        seen = []
        for jump in ("3600", "3000"):  # forward 1 hour, then back 10 minutes
            before, at = remaining(table), time.monotonic()
            assert before is not None
            wall_clock.write_text(jump + "\n")
            time.sleep(2.5)
            after = remaining(table)
            elapsed = time.monotonic() - at
            assert after is not None, f"the time limit ended at a jump of {jump} s: {table.observer.board}"
            assert before - elapsed - 2 <= after <= before - elapsed + 2, (jump, before, after, elapsed)
            seen.append((jump, before, after, round(elapsed, 1)))
        # the players answer with the clock 50 minutes ahead; then the quizmaster undoes one answer
        for player in table.players:
            with player.changed:
                player.paused = False
        table.settle()
        wait_until(lambda: all(any(s.acked for s in p.sent) for p in table.players), 15, "everyone answered")
        game = table.app.last_game()
        assert game is not None and not problems(match_all(game, table.players))
        with sqlite3.connect(f"file:{table.app.db}?mode=ro", uri=True) as db:
            stamped = float(db.execute("SELECT max(at) FROM actions").fetchone()[0])
        assert 2900 < stamped - time.time() < 3100, "the box's wall clock did not move: the test tests nothing"
        for player in table.players:
            with player.changed:
                player.paused = True  # nobody answers the undone question again before the kill
        wall_clock.write_text("1800\n")  # back 20 minutes more before the undo: stamped before the last copy
        table.observer.command(cmd="undo", id="undo-after-jump")
        wait_until(lambda: table.observer.admin.get("last", {}).get("id") == "undo-after-jump", 10, "undo answered")
        assert table.observer.admin["last"]["ok"], table.observer.admin["last"]
        time.sleep(0.5)
        kept = table.app.last_game()
        assert kept is not None and len(kept.log) < len(game.log)
        onlines = table.observer.onlines
        table.app.kill9()
        table.app.start()
        table.observer.wait_online(onlines)
        wait_until(lambda: table.app.health().get("recovery", {}).get("at") not in (None, health_at), 10,
                   "the new start's report")
        time.sleep(1.0)  # every handset's hello is in
        report = table.app.health()["recovery"]
        assert not report["found"] and report["text"] == "", report
        resumed = table.app.last_game()
        assert resumed is not None and resumed.id == game_id and resumed.log == kept.log
        assert table.observer.board.get("message", "").startswith(f"resumed game {game_id}")
        assert table.app.alive() and table.app.crashes() == []
        figures["wall clock jumps (+1 h, -10 min) mid-question"] = (
            f"time limit before, after, seconds passed: {seen}; an undo 20 min back in time, then kill -9: "
            "no loss reported")
    finally:
        table.close()
