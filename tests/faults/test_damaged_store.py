"""A damaged store loses no acked answer (issue 38): the quiz program is stopped right after a question's
answers were acked, then its database file is truncated, or 4 KiB of its write-ahead log are overwritten
(after a kill -9), and it starts again with the handsets still connected. The box goes back to what it can
read (its good copy, made after the question was dealt, or the WAL up to the damage), asks the handsets for
what they hold, and applies each acked answer again through the game's ordinary checks: afterwards every
acked answer is in the log exactly once and the number named as lost is 0. The TV says it in plain words,
naming nobody and without SQLite's report; the admin page (health.json) and the doctor say the whole of it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from appliance.box import doctor, recovery
from appliance.edge.broker import MosquittoBroker
from appliance.infra.config import load_config
from tests.faults.checks import match_all, problems, replay
from tests.faults.harness import Table, wait_until
from tests.faults.test_power_cut import answered_and_acked, question

SEED = 38
HOW = ("store truncated", "WAL overwritten")


def damage(table: Table, how: str) -> str:
    """Stop the quiz program and damage its store; returns what was done."""
    db = table.app.db
    if how == "store truncated":
        table.app.stop()  # a clean stop: the WAL is checkpointed into the database file
        size = db.stat().st_size
        with open(db, "r+b") as f:
            f.truncate(size * 2 // 5)
        return f"truncated quizbox.db from {size} to {size * 2 // 5} bytes after a clean stop"
    table.app.kill9()
    wal = Path(f"{db}-wal")
    scan = recovery.scan_wal(db)
    assert scan is not None and scan.frames > 4, "no WAL to damage"
    frame = (scan.size - recovery.WAL_HEADER) // scan.frames
    data = bytearray(wal.read_bytes())
    at = recovery.WAL_HEADER + (scan.frames - 3) * frame + recovery.FRAME_HEADER  # the last answers' frames
    data[at:at + 4096] = bytes((i * 37 + 11) % 256 for i in range(4096))
    wal.write_bytes(bytes(data))
    return f"overwrote 4 KiB of the WAL at frame {scan.frames - 2} of {scan.frames} after a kill -9"


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(120)
@pytest.mark.parametrize("how", HOW)
def test_a_damaged_store_gets_every_acked_answer_back_from_the_handsets(
    tmp_path: Path, broker: MosquittoBroker, how: str, figures: dict[str, Any]
) -> None:
    table = Table(tmp_path, broker.port, SEED, "dmg")
    try:
        game_id = table.start_game("confident", {"target": 99}, 3)
        deadline = time.monotonic() + 60
        while not (question(table).get("number", 0) >= 3 and answered_and_acked(table, 3)):
            assert time.monotonic() < deadline, f"the game did not get going: {table.observer.board}"
            if question(table).get("number", 0) < 3:
                table.drive()
            time.sleep(0.05)
        time.sleep(0.3)  # the copy after the question's deal is long done; the answers are the last commits
        acked = {p.player: [s for s in p.sent if s.acked] for p in table.players}
        onlines = table.observer.onlines
        what = damage(table, how)
        table.app.start()
        table.observer.wait_online(onlines)

        wait_until(lambda: table.app.health().get("recovery", {}).get("returned", 0) >= 1, 15,
                   f"answers given back after: {what}")
        time.sleep(1.0)  # every handset's hello is in
        report = table.app.health()["recovery"]
        assert report["lost_answers"] == 0, report["text"]
        game = table.app.last_game()
        assert game is not None and game.id == game_id and game.status == "running"
        assert not problems(match_all(game, table.players[:3])), problems(match_all(game, table.players[:3]))
        # the answers of question 3 are back in the log, each once: the game is where it was
        answered = [e.get("player") for e in game.log if e.get("player")]
        for player in table.players[:3]:
            assert answered.count(player.player) == len(acked[player.player]), (player.player, game.log)
        assert report["returned"] >= 1 and "came back from the handsets" in report["text"]

        # the TV: plain words, nobody named, no SQLite report; the admin page and the doctor: all of it
        tv = report["tv"]
        wait_until(lambda: table.observer.board.get("message") == tv, 10, "the report on the TV")
        assert "came back from the handsets" in tv and "must be given again" not in tv, tv
        assert not any(p.player in tv for p in table.players) and "***" not in tv and "page" not in tv, tv
        finding = doctor.check_recovery(load_config(str(table.app.config)), doctor.Probes())
        assert report["text"] in finding.wrong
        if how == "store truncated":
            assert report["restored"] and "could not be read" in report["text"]
            assert report["detail"] and report["detail"] not in tv and "SQLite said" in finding.wrong

        # the board is the game rebuilt from the log, and it goes on
        wait_until(lambda: table.observer.board.get("view") == json.loads(json.dumps(replay(game).board())), 10,
                   "the board is the restored log")
        resumed_at = len(game.log)
        deadline = time.monotonic() + 40
        while True:
            assert time.monotonic() < deadline, f"the game did not go on: {table.observer.board}"
            now = table.app.last_game()
            assert now is not None
            if sum(1 for e in now.log[resumed_at:] if e.get("player")) >= 3:
                break
            table.drive()
            time.sleep(0.05)
        table.settle()
        done = table.app.last_game()
        assert done is not None and not problems(match_all(done, table.players[:3]))
        assert table.app.alive() and table.app.crashes() == []
        figures[f"damaged store, {how}: {what}"] = (
            f"{sum(len(v) for v in acked.values())} answers acked before, {report['returned']} given back by "
            f"the handsets, {report['lost_answers']} named lost")
    finally:
        table.close()
