"""A power cut that damages the write-ahead log (issue 17): the appliance is killed with -9 right after a
question's answers were acked, its WAL is then cut short, bit-flipped or deleted, and it starts again.
The handsets of protocol 1.3 give their acked answers back and the box applies them again (issue 38); one
handset plays a 1.2 one (its hello says only seq and prompt): its loss must be said in plain words, named on
the admin page (health.json) and by the doctor, and on the TV without a name; the game must resume from
the last good point: the board shows exactly the game rebuilt from the restored log, the player answers
again and the game goes on. Never silence."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from appliance.box import doctor, recovery
from appliance.edge.broker import MosquittoBroker
from appliance.infra.config import load_config
from tests.faults.checks import match_all, problems, replay
from tests.faults.harness import Table, wait_until

SEED = 23
DAMAGES = ("truncated", "bit-flipped", "deleted")


def damage(db: Path, how: str) -> str:
    """Damage ``db``'s WAL as a power cut on a worn SD card does; returns what was done."""
    wal = Path(f"{db}-wal")
    if how == "deleted":
        wal.unlink()
        Path(f"{db}-shm").unlink(missing_ok=True)
        return "deleted the WAL"
    scan = recovery.scan_wal(db)
    assert scan is not None and scan.frames > 4, "no WAL to damage"
    frame = (scan.size - recovery.WAL_HEADER) // scan.frames
    data = bytearray(wal.read_bytes())
    if how == "truncated":
        cut = min(21, scan.frames // 2)
        wal.write_bytes(bytes(data[: len(data) - cut * frame]))
        return f"cut {cut} of {scan.frames} frames off"
    index = scan.frames - min(15, scan.frames // 2)
    data[recovery.WAL_HEADER + index * frame + recovery.FRAME_HEADER + frame // 3] ^= 0x10
    wal.write_bytes(bytes(data))
    return f"flipped a bit in frame {index + 1} of {scan.frames}"


def question(table: Table) -> dict[str, Any]:
    view = table.observer.board.get("view") or {}
    current: dict[str, Any] = view.get("question") or {}
    return current


def answered_and_acked(table: Table, count: int) -> bool:
    """Every seated player answered the question on the board, and each handset has its ack."""
    names = {p.player for p in table.players[:count]}
    if not names <= set(question(table).get("answered", [])):
        return False
    for player in table.players[:count]:
        with player.changed:
            last = player.sent[-1] if player.sent else None
            if player.core.pending is not None or last is None or not last.acked:
                return False
    return True


@contextlib.contextmanager
def question_3_acked(folder: Path, port: int, prefix: str) -> Iterator[tuple[Table, int]]:
    """A table whose Confident? game was played until question 3's answers are all acked (the last commits
    are answers; the good copy made when question 3 was dealt is written): the table and the game's id;
    the table is closed after."""
    table = Table(folder, port, SEED, prefix)
    try:
        game_id = table.start_game("confident", {"target": 99}, 3)
        deadline = time.monotonic() + 60
        while not (question(table).get("number", 0) >= 3 and answered_and_acked(table, 3)):
            assert time.monotonic() < deadline, f"the game did not get going: {table.observer.board}"
            if question(table).get("number", 0) < 3:
                table.drive()
            time.sleep(0.05)
        time.sleep(0.3)  # the copy after the question's deal is long done
        yield table, game_id
    finally:
        table.close()


def game_goes_on(table: Table, resumed_at: int, entries: int = 0) -> None:
    """Until the players answered again (3 player entries after log entry ``resumed_at``) and the log grew
    by more than ``entries``, the quizmaster pressing *next* as the table allows."""
    deadline = time.monotonic() + 40
    while True:
        assert time.monotonic() < deadline, f"the game did not go on: {table.observer.board}"
        now = table.app.last_game()
        assert now is not None
        if sum(1 for e in now.log[resumed_at:] if e.get("player")) >= 3 and len(now.log) > resumed_at + entries:
            return
        table.drive()
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(150)
@pytest.mark.parametrize("how", DAMAGES)
def test_a_damaged_wal_is_said_in_plain_words_and_the_game_resumes_from_the_last_good_point(
    tmp_path: Path, broker: MosquittoBroker, how: str, figures: dict[str, Any]
) -> None:
    with question_3_acked(tmp_path, broker.port, "wal") as (table, game_id):
        acked_before = {p.player: sum(s.acked for s in p.sent) for p in table.players}
        old = table.players[2]  # a handset of protocol 1.2: its hello says seq and prompt, not the input
        with old.changed:
            old.core.acked_input = None
        onlines = table.observer.onlines
        table.app.kill9()
        what = damage(table.app.db, how)
        table.app.start()
        table.observer.wait_online(onlines)

        # the plain words: health.json (the admin page, the doctor) and the TV's message line
        wait_until(lambda: bool(table.app.health().get("recovery", {}).get("text")), 10, f"a report after: {what}")
        wait_until(lambda: table.app.health()["recovery"]["lost_answers"] >= 1, 10, "the old handset's loss named")
        time.sleep(1.0)  # every handset's hello is in
        report = table.app.health()["recovery"]
        text, tv = report["text"], report["tv"]
        wait_until(lambda: table.observer.board.get("message") == tv, 10, "the report on the TV")
        assert "could not come back (Cat" in text and "the game goes on from question" in text, text
        assert "must be given again" in tv and not any(p.player in tv for p in table.players), tv
        finding = doctor.check_recovery(load_config(str(table.app.config)), doctor.Probes())
        assert not finding.ok and text in finding.wrong

        # never silence: the handsets of 1.3 gave their answers back, each once; only the old one's is lost
        game = table.app.last_game()
        assert game is not None and game.id == game_id and game.status == "running"
        assert not problems(match_all(game, table.players[:2])), problems(match_all(game, table.players[:2]))
        assert problems(match_all(game, [old])), "the damage lost nothing?"
        assert report["lost_answers"] == 1 and report["returned"] == 2 and "came back from the handsets" in text

        # the board is the game rebuilt from the log (the restored one, with the answers given back)
        def board_is_the_log() -> bool:
            stored = table.app.last_game()
            return stored is not None and table.observer.board.get("view") == json.loads(json.dumps(
                replay(stored).board()))

        wait_until(board_is_the_log, 10, "the board is the stored log rebuilt")

        # and the game goes on: the players answer again, the quizmaster moves on
        for player in table.players:
            player.forget()
        game_goes_on(table, len(game.log), entries=4)
        table.observer.command(cmd="end")
        wait_until(lambda: (g := table.app.last_game()) is not None and g.status != "running", 10, "the game ended")
        assert table.app.alive() and table.app.crashes() == []
        figures[f"WAL {how}: {what}"] = text
        figures[f"WAL {how}: acked before the cut"] = acked_before
    assert not any(Path(tmp_path, "data").glob("*.tmp")), os.listdir(tmp_path / "data")
