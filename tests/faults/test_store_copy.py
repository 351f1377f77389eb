"""The store's last good copy and the start-up check (appliance/box/recovery.py), on real SQLite files:
what a power cut leaves on the card (the database and its write-ahead log, copied while the connection
is still open, as the plug is pulled), damaged the three ways issue 17 saw."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from appliance.box import recovery
from appliance.infra.store import Store


def _game(store: Store, actions: int, first: int = 0) -> int:
    game_id = store.create_game("confident", {"game": "confident", "players": ["Ann"], "options": {}, "cards": []},
                                {"Ann": "h1"})
    for i in range(first, first + actions):  # one commit per answer, as the session stores them
        store.append_actions(game_id, i, [{"player": "Ann", "kind": "range", "n": i}], origin=("h1", i + 1, f"b-p{i}"))
    return game_id


def _pulled_plug(store: Store, folder: Path) -> Path:
    """The database files as they are on the card while ``store`` is still open."""
    folder.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{store.path}{suffix}", folder / f"quizbox.db{suffix}")
    return folder / "quizbox.db"


def _actions(db: Path) -> int:
    """Actions SQLite reads from ``db`` (0 when not even the table is there: never checkpointed)."""
    with sqlite3.connect(db) as conn:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name='actions'").fetchone() is None:
            return 0
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])


@pytest.fixture
def live(tmp_path: Path) -> Store:
    store = Store(tmp_path / "live" / "quizbox.db")
    store.milestone = None
    return store


def test_sqlite_says_nothing_about_a_bit_flipped_wal_frame_but_the_scan_does(live: Store, tmp_path: Path) -> None:
    _game(live, 40)
    db = _pulled_plug(live, tmp_path / "card")
    wal = Path(f"{db}-wal")
    scan = recovery.scan_wal(db)
    assert scan is not None and not scan.damaged and scan.commits >= 41
    data = bytearray(wal.read_bytes())
    page = scan.size and (len(data) - 32) // scan.frames
    target = 32 + (scan.frames // 2) * page + 24 + 100  # inside the page of a frame in the middle
    data[target] ^= 0x04
    wal.write_bytes(bytes(data))
    damaged = recovery.scan_wal(db)
    assert damaged is not None and damaged.damaged and damaged.bad_frame == scan.frames // 2
    assert damaged.lost_commits > 0
    assert "write-ahead log was damaged at frame" in damaged.words()
    assert _actions(db) < 40  # SQLite read up to the bad frame and said nothing


def test_a_deleted_wal_is_found_against_the_good_copy_and_the_copy_is_put_back(live: Store, tmp_path: Path) -> None:
    game_id = _game(live, 10)
    recovery.copy_store(Path(live.path), tmp_path / "card" / recovery.GOOD)
    live.append_actions(game_id, 10, [{"player": "Ann", "n": 10}])
    db = _pulled_plug(live, tmp_path / "card")
    Path(f"{db}-wal").unlink()  # the log file gone: every change since the last checkpoint with it
    assert _actions(db) < 10
    report = recovery.check_on_start(db)
    assert report.restored and report.losses and report.losses[0].game_id == game_id
    assert report.aside.startswith("quizbox.db.damaged-") and (db.parent / report.aside).exists()
    assert _actions(db) == 10  # the copy's ten: the last good point
    words = report.words()
    assert "went back to its last good copy" in words and "10 answers the damaged database had lost" in words


def test_a_truncated_wal_loses_commits_the_copy_still_has(live: Store, tmp_path: Path) -> None:
    _game(live, 30)
    recovery.copy_store(Path(live.path), tmp_path / "card" / recovery.GOOD)
    db = _pulled_plug(live, tmp_path / "card")
    wal = Path(f"{db}-wal")
    scan = recovery.scan_wal(db)
    assert scan is not None
    frame = (scan.size - 32) // scan.frames
    wal.write_bytes(wal.read_bytes()[: scan.size - 21 * frame])  # 21 frames cut off, as issue 17 saw
    report = recovery.check_on_start(db)
    assert report.restored and report.losses[0].answers > 0
    assert _actions(db) == 30


def test_an_undo_after_the_copy_is_not_a_loss(live: Store, tmp_path: Path) -> None:
    game_id = _game(live, 6)
    recovery.copy_store(Path(live.path), tmp_path / "copy.db")
    time.sleep(0.01)
    live.truncate_actions(game_id, 5)  # the quizmaster undid the last answer
    copy = recovery.read_logs(tmp_path / "copy.db")
    assert recovery.compare(recovery.read_logs(Path(live.path)), copy) == []
    live.append_actions(game_id, 5, [{"player": "Ann", "n": "again"}])
    assert recovery.compare(recovery.read_logs(Path(live.path)), copy) == []


def test_an_undo_after_the_copy_is_not_a_loss_when_the_wall_clock_went_back(tmp_path: Path) -> None:
    """Issue 38: the Pi's clock jumps back when it first reaches a time server; an undo made after the
    copy was stamped before the copy's time and counted as a loss (the box would restore the copy and
    bring the undone answer back). The undo is told by the rows, not by the clock."""
    now = [1_000_000.0]
    store = Store(tmp_path / "quizbox.db", clock=lambda: now[0])
    game_id = _game(store, 6)
    recovery.copy_store(Path(store.path), tmp_path / "copy.db", clock=lambda: now[0])
    now[0] -= 600  # back 10 minutes
    store.truncate_actions(game_id, 5)
    copy = recovery.read_logs(tmp_path / "copy.db")
    assert recovery.compare(recovery.read_logs(Path(store.path)), copy) == []
    now[0] += 3600  # forward an hour: a real loss is still one
    store.truncate_actions(game_id, 5)
    copy = recovery.read_logs(tmp_path / "copy.db")
    with sqlite3.connect(store.path) as conn:
        conn.execute("DELETE FROM undone")  # the database lost its undo row and its entries
        conn.execute("DELETE FROM actions WHERE seq >= 3")
    [loss] = recovery.compare(recovery.read_logs(Path(store.path)), copy)
    assert loss.entries == 3
    store.close()


def test_a_finished_game_found_running_again_is_a_loss(live: Store, tmp_path: Path) -> None:
    game_id = _game(live, 3)
    live.finish_game(game_id, {"winner": "Ann"})
    copy_path = tmp_path / "copy.db"
    recovery.copy_store(Path(live.path), copy_path)
    with sqlite3.connect(live.path) as conn:
        conn.execute("UPDATE games SET status='running'")
    [loss] = recovery.compare(recovery.read_logs(Path(live.path)), recovery.read_logs(copy_path))
    assert loss.finish and loss.entries == 0


def test_a_database_that_cannot_be_read_is_moved_aside_and_the_copy_used(live: Store, tmp_path: Path) -> None:
    _game(live, 4)
    card = tmp_path / "card"
    recovery.copy_store(Path(live.path), card / recovery.GOOD)
    (card / "quizbox.db").write_bytes(b"this is not a database" * 100)
    report = recovery.check_on_start(card / "quizbox.db")
    assert report.damaged and report.restored and _actions(card / "quizbox.db") == 4
    assert "is damaged" in report.words()


def test_no_copy_and_a_damaged_database_starts_empty_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "quizbox.db"
    db.write_bytes(b"garbage" * 500)
    report = recovery.check_on_start(db)
    assert report.fresh and not db.exists() and "no good copy" in report.words()
    with Store(db) as store:  # and the box can start on an empty one
        assert store.games() == []


def test_a_clean_start_reports_nothing(live: Store, tmp_path: Path) -> None:
    _game(live, 3)
    recovery.copy_store(Path(live.path), Path(live.path).with_name(recovery.GOOD))
    live.close()
    report = recovery.check_on_start(Path(live.path))
    assert not report.found and report.words() == ""


def test_the_keeper_copies_after_each_milestone(tmp_path: Path) -> None:
    db = tmp_path / "quizbox.db"
    with Store(db) as store:
        keeper = recovery.Keeper(db).start()
        store.milestone = keeper.request
        game_id = _game(store, 2)  # create_game: a milestone
        assert keeper.wait_idle(10)
        store.mark_used(["deck/1"])  # a new question dealt
        assert keeper.wait_idle(10)
        keeper.stop()
    copy = recovery.read_logs(recovery.good_copy_of(db))
    assert keeper.copies >= 2 and len(copy.games[game_id]["log"]) == 2 and copy.copied_at is not None


def test_what_a_handset_says_it_had_acked(live: Store) -> None:
    _game(live, 3)
    assert live.last_acked("h1") == (3, "b-p2")
    assert not recovery.lost_ack(live.last_acked("h1"), (3, "b-p2"))
    assert recovery.lost_ack(live.last_acked("h1"), (4, "b-p3"))  # acked, then lost
    assert not recovery.lost_ack((5, "c-p1"), (4, "b-p3"))  # stored, its ack lost on the way
    assert recovery.lost_ack(None, (1, "b-p0"))


def test_a_copy_that_cannot_be_made_is_reported_and_made_again_later(tmp_path: Path) -> None:
    from appliance.infra.health import Health

    db = tmp_path / "quizbox.db"
    health = Health(tmp_path)
    blocker = tmp_path / f"{recovery.GOOD}.tmp"
    blocker.mkdir()  # where the copy is written first: a folder in the way, as a broken card might leave
    with Store(db) as store:
        keeper = recovery.Keeper(db, health).start()
        store.milestone = keeper.request
        _game(store, 1)
        assert keeper.wait_idle(10)
        assert "copy" in health.problems() and "cannot be made" in health.problems()["copy"]
        blocker.rmdir()
        store.mark_used(["deck/2"])
        assert keeper.wait_idle(10)
        keeper.stop()
    assert "copy" not in health.problems() and health.parts["copy"].ok
    assert recovery.good_copy_of(db).exists()
