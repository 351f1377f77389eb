"""The SQLite store and the session's durability: stored before acked, rolled back on a failed write,
resumed exactly after a restart. Real SQLite files in a temporary folder."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.infra.store import MIGRATIONS, Store, StoreError
from appliance.session.flow import GameSetup
from appliance.session.session import Session
from tests.support import guess  # noqa: F401

CARDS = [DealtCard("c1", {"question": "Legs on a spider?", "answer": "8"}),
         DealtCard("c2", {"question": "Moons of Mars?", "answer": "2"})]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _session(store: Store, clock: Clock) -> tuple[Session, dict[str, Handset]]:
    session = Session(clock, store=store, flows=flow_factory)
    handsets = {n: Handset(id=n.lower(), name=n, accepted=True, online=True) for n in ("Ann", "Bob")}
    return session, handsets


def _answer(session: Session, handset: Handset, low: str, high: str) -> str:
    prompt, _ = session.prompt_for(handset)
    return session.handle_input(handset.id, prompt["id"], "range", {"bottom": low, "top": high})


def test_migrations_run_once_and_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    with Store(path) as store:
        assert store.migrate() == len(MIGRATIONS)
        assert store.check() == "ok"
    with Store(path) as again:  # re-opening applies nothing twice
        assert again.decks() == []
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer Quizbox"):
        Store(path)


def test_a_game_is_its_setup_and_log_and_resumes_exactly(tmp_path: Path) -> None:
    clock = Clock()
    store = Store(tmp_path / "q.db")
    session, hs = _session(store, clock)
    session.start_game(GameSetup("guess", ["Ann", "Bob"], {}, CARDS), {"Ann": "ann", "Bob": "bob"})
    _answer(session, hs["Ann"], "6", "10")
    stored = store.unfinished_game()
    assert stored is not None and stored.log == [{"player": "Ann", "range": ["6", "10"]}]
    before = session.flow.board()  # type: ignore[union-attr]
    store.close()

    # the power cord: a new process, a new session, the same file
    store2 = Store(tmp_path / "q.db")
    resumed, hs2 = _session(store2, Clock())
    assert resumed.resume_stored() is True
    assert resumed.flow is not None and resumed.flow.board() == before
    assert resumed.seats == {"Ann": "ann", "Bob": "bob"}
    with pytest.raises(Exception, match="takes no input"):  # Ann is locked in: her screen says so
        _answer(resumed, hs2["Ann"], "1", "2")
    _answer(resumed, hs2["Bob"], "1", "9")
    for _ in range(4):
        resumed.advance()
    assert resumed.state == "results"
    finished = store2.game(resumed.game_id)  # type: ignore[arg-type]
    assert finished is not None and finished.status == "finished"
    assert finished.result is not None and finished.result["scores"] == {"Ann": 1, "Bob": 1}
    assert Session(Clock(), store=store2, flows=flow_factory).resume_stored() is False


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 1 MiB filesystem (tmpfs) that a test can fill up; needs root, as CI has."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"cannot mount a tmpfs in CI: {done.stderr.decode().strip()}")
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(disk: Path) -> None:
    """Fill the filesystem to the last byte."""
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)


def test_a_full_disk_refuses_the_input_and_changes_nothing(tiny_disk: Path) -> None:
    store = Store(tiny_disk / "q.db")
    session, hs = _session(store, Clock())
    session.start_game(GameSetup("guess", ["Ann", "Bob"], {}, CARDS), {"Ann": "ann", "Bob": "bob"})
    _answer(session, hs["Ann"], "6", "10")
    before = session.flow.board()  # type: ignore[union-attr]
    _fill(tiny_disk)
    with pytest.raises(StoreError, match="disk is full"):
        _answer(session, hs["Bob"], "1", "9")
    assert session.flow is not None and session.flow.board() == before
    assert "disk is full" in session.message
    # space again (the quizmaster deleted something): the same input now goes through and is stored
    (tiny_disk / "filler").unlink()
    assert _answer(session, hs["Bob"], "1", "9")
    assert session.message == ""  # the board's error line clears once the store works again
    store.close()
    store = Store(tiny_disk / "q.db")
    assert store.check() == "ok"
    stored = store.unfinished_game()
    assert stored is not None
    assert stored.log == [{"player": "Ann", "range": ["6", "10"]}, {"player": "Bob", "range": ["1", "9"]}]


def test_a_read_only_database_is_reported_plainly(tmp_path: Path) -> None:
    path = tmp_path / "q.db"
    Store(path).close()
    readonly = Store(f"file:{path}?mode=ro")
    with pytest.raises(StoreError, match="read-only"):
        readonly.save_handset("h1", "Ann", True)
    assert readonly.handsets() == []
    readonly.close()
    with Store(path) as store:
        assert store.check() == "ok"


def test_handsets_and_decks_round_trip(tmp_path: Path) -> None:
    with Store(tmp_path / "q.db") as store:
        store.save_handset("h1", "Ann", False, {"layout": "five"})
        store.save_handset("h1", "Annie", True, {"layout": "five"})
        assert store.handsets() == [{"id": "h1", "name": "Annie", "accepted": True, "layout": "five"}]
        store.save_deck("d1", "Pub", "estimation", {"cards": [{"id": "a"}, {"id": "b"}]})
        assert store.decks()[0]["cards"] == 2 and store.deck("d1") == {"cards": [{"id": "a"}, {"id": "b"}]}
        store.mark_used(["d1/a"])
        assert store.used_cards() == {"d1/a"}
        store.forget_used("d1/")
        assert store.used_cards() == set()
        assert store.delete_deck("d1") and not store.delete_deck("d1")


def test_undo_rebuilds_from_the_log_and_truncates_the_store(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    session, hs = _session(store, Clock())
    session.start_game(GameSetup("guess", ["Ann", "Bob"], {}, CARDS), {"Ann": "ann", "Bob": "bob"})
    with pytest.raises(Exception, match="no player input"):
        session.undo()
    _answer(session, hs["Ann"], "6", "10")
    _answer(session, hs["Bob"], "1", "2")
    assert "Bob" in session.undo()
    assert session.flow is not None and session.flow.board()["answered"] == ["Ann"]
    stored = store.unfinished_game()
    assert stored is not None and stored.log == [{"player": "Ann", "range": ["6", "10"]}]
    _answer(session, hs["Bob"], "7", "9")  # Bob can answer again, and it is stored after Ann's
    stored = store.unfinished_game()
    assert stored is not None and [e["player"] for e in stored.log] == ["Ann", "Bob"]


def test_skip_is_stored_and_replayed(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    session, hs = _session(store, Clock())
    session.start_game(GameSetup("guess", ["Ann", "Bob"], {}, CARDS), {"Ann": "ann", "Bob": "bob"})
    session.skip()
    prompt, _ = session.prompt_for(hs["Ann"])
    assert "Mars" in prompt["text"]
    with pytest.raises(Exception, match="no card left"):
        session.skip()
    resumed = Session(Clock(), store=store, flows=flow_factory)
    assert resumed.resume_stored()
    assert "Mars" in resumed.prompt_for(hs["Ann"])[0]["text"]


def test_ending_or_leaving_a_game_clears_the_pause_and_abandons_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    session, hs = _session(store, Clock())
    session.start_game(GameSetup("guess", ["Ann", "Bob"], {}, CARDS), {"Ann": "ann", "Bob": "bob"})
    session.pause()
    session.end_game()
    assert session.paused_at is None and session.board_state([], lambda _: "#fff")["paused"] is False
    session.to_lobby()
    session.start_game(GameSetup("guess", ["Ann", "Bob"], {}, CARDS), {"Ann": "ann", "Bob": "bob"})
    session.to_lobby()  # straight back to the lobby: the game must not come back after a power cut
    assert Session(Clock(), store=store, flows=flow_factory).resume_stored() is False
    assert [g.status for g in store.games()] == ["abandoned", "abandoned"]
