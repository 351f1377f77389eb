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
from tests.faults.harness import Table, cards, wait_until
from tests.faults.test_power_cut import game_goes_on, question_3_acked

SEED = 38
HOW = ("store truncated", "WAL overwritten")
pytestmark = [pytest.mark.slow, pytest.mark.mqtt]


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


@pytest.mark.timeout(120)
@pytest.mark.parametrize("how", HOW)
def test_a_damaged_store_gets_every_acked_answer_back_from_the_handsets(
    tmp_path: Path, broker: MosquittoBroker, how: str, figures: dict[str, Any]
) -> None:
    with question_3_acked(tmp_path, broker.port, "dmg") as (table, game_id):
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
        game_goes_on(table, len(game.log))
        table.settle()
        done = table.app.last_game()
        assert done is not None and not problems(match_all(done, table.players[:3]))
        assert table.app.alive() and table.app.crashes() == []
        figures[f"damaged store, {how}: {what}"] = (
            f"{sum(len(v) for v in acked.values())} answers acked before, {report['returned']} given back by "
            f"the handsets, {report['lost_answers']} named lost")


@pytest.mark.timeout(60)
def test_handsets_still_connected_are_at_the_table_after_an_empty_start(
    tmp_path: Path, broker: MosquittoBroker
) -> None:
    """Both the store and its good copy unreadable: the box starts empty. The handsets stayed connected
    and said hello to the new start; a game with their seats starts at once (it was refused "handset 'fh1'
    is not at the table" until each handset reconnected). The words say the copy could not be read, not
    that there was none, and the TV gets no SQLite report."""
    table = Table(tmp_path, broker.port, SEED, "empty")
    try:
        table.start_game("confident", {"target": 99}, 3)
        recovery.Keeper(table.app.db).copy_now()  # a good copy there for sure
        table.app.stop()
        for name in ("quizbox.db", recovery.GOOD):
            path = table.app.data_dir / name
            path.write_bytes(path.read_bytes()[:100] + b"\x00not a page any more" * 2000)
        onlines = table.observer.onlines
        table.app.start()
        table.observer.wait_online(onlines)
        wait_until(lambda: table.app.health().get("recovery", {}).get("fresh", False), 10, "the empty start said")
        report = table.app.health()["recovery"]
        assert "the good copy could not be read either" in report["text"], report["text"]
        assert "there was no good copy" not in report["text"] and "malformed" not in report["text"]
        assert "could not come back" not in report["text"]  # the handsets are there: the game is gone
        assert "not a database" in report["detail"] or "malformed" in report["detail"], report["detail"]
        wait_until(lambda: table.observer.board.get("message") == report["tv"], 10, "the report on the TV")
        assert "starts empty" in report["tv"] and "SQLite" not in report["tv"]
        assert table.app.last_game() is None  # the store is empty indeed
        seats = [{"player": p.player, "handset": p.id} for p in table.players]
        table.observer.command(cmd="start", id="after-empty", game="confident", options={"target": 99}, seats=seats,
                               cards=cards("confident", 1, tmp_path))
        wait_until(lambda: table.observer.admin.get("last", {}).get("id") == "after-empty", 10, "the start answered")
        assert table.observer.admin["last"]["ok"], table.observer.admin["last"]
        game = table.app.last_game()
        assert game is not None and set(game.seats.values()) == {p.id for p in table.players}
        assert table.app.alive() and table.app.crashes() == []
    finally:
        table.close()
