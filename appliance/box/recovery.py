"""Nothing lost in silence: the store's last good copy, the start-up check, and what handsets say.

* After every question (a new card dealt), a game's start and end and an undo, :class:`Keeper` copies
  the store with SQLite's online backup API (``sqlite3.Connection.backup``) to ``quizbox-good.db`` next
  to it: into a temporary file, synced, then renamed over the old copy, so a power cut during the copy
  leaves the copy before it.
* On start, before the store is opened, :func:`check_on_start` reads the write-ahead log's frames
  (:func:`scan_wal`: SQLite stops reading a WAL at the first frame whose checksum fails, and says
  nothing), then compares every game in the good copy with the database: a game the database lost, a
  log shorter than the copy's (not explained by an undo after the copy) or a finished game found running
  again means the database lost saved work; so does a database SQLite cannot read. Then the damaged
  files are moved aside (``quizbox.db.damaged-<time>``), the good copy is put in place and the game
  resumes from it.
* After the start, :class:`Claims` listens to the handsets' hellos: a handset whose last acked input
  (``acked`` in its hello, firmware/protocol.py) is not in the store had it taken by the damage. A handset
  of protocol 1.3 says the input itself (kind, data and the mark of the prompt it answered): it is applied
  again through the session's ordinary checks (the prompt that handset's seat is shown now must ask the
  same, the seat must be the same, and the store's ``acked`` row makes it once). An older handset, or an
  input the game no longer takes, is named as lost.

Each finding ends in a sentence in plain words on the admin page and in ``quizbox doctor`` (both read
``health.json``, appliance/infra/health.py): what was damaged, whose answers came back and whose did not.
The TV (the session's message) gets a shorter one that names nobody (:meth:`Report.tv_words`); SQLite's
own report of the damage goes to the journal and the doctor (``detail``), never to the pub.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import sqlite3
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from appliance.errors import QuizboxError
from appliance.flows import flow_factory
from appliance.infra import wallclock
from appliance.infra.health import Health

log = logging.getLogger(__name__)

GOOD = "quizbox-good.db"
RESTORE_REQUEST = "restore-requested"  # the admin page asks the next start to go back to the good copy
JSON = dict[str, Any]

CLAIM_GRACE_SECONDS = 0.5  # after announcing a start: time for connected handsets to say hello
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
FRAME_HEADER = 24


def good_copy_of(db: Path) -> Path:
    return Path(db).with_name(GOOD)


# -- the copy -------------------------------------------------------------------------------------------


def copy_store(source: Path, target: Path, clock: Callable[[], float] = wallclock.now) -> float:
    """Copy the database ``source`` (live, WAL) to ``target`` with SQLite's online backup; returns the
    time the copy's snapshot was taken after (written into the copy, table ``good_copy``)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    at = clock()
    src = sqlite3.connect(str(source), timeout=10)
    try:
        dst = sqlite3.connect(str(tmp))
        try:
            src.backup(dst)  # one step: a consistent snapshot of the last commit
            dst.execute("CREATE TABLE IF NOT EXISTS good_copy (at REAL NOT NULL)")
            dst.execute("DELETE FROM good_copy")
            dst.execute("INSERT INTO good_copy (at) VALUES (?)", (at,))
            dst.commit()
        finally:
            dst.close()
    finally:
        src.close()
    _fsync(tmp)
    os.replace(tmp, target)
    _fsync(target.parent)
    return at


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Keeper:
    """Copies the store in a background thread whenever asked (:meth:`request`, wired to
    ``Store.milestone``); requests that come while a copy runs make one more copy, not one each."""

    def __init__(self, db: Path, health: Health | None = None) -> None:
        self.db = Path(db)
        self.target = good_copy_of(self.db)
        self.health = health
        self.copies = 0
        self.last_at: float | None = None
        self.error = ""
        self._wanted = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._busy = False
        self._thread = threading.Thread(target=self._run, name="store-copy", daemon=True)

    def start(self) -> Keeper:
        self._thread.start()
        return self

    def request(self) -> None:
        with self._idle:
            self._busy = True
        self._wanted.set()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Until no copy is wanted or running (tests, and a clean stop)."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._busy, timeout)

    def stop(self) -> None:
        self._stop.set()
        self._wanted.set()
        self._thread.join(timeout=10)

    def copy_now(self) -> None:
        try:
            self.last_at = copy_store(self.db, self.target)
            self.copies += 1
            if self.error:
                log.info("the store is copied again to %s", self.target)
                if self.health is not None:
                    self.health.ok("copy", f"made again after each question ({self.target.name})")
            self.error = ""
        except (sqlite3.Error, OSError) as exc:
            if str(exc) != self.error:
                log.error("cannot copy the store to %s: %s", self.target, exc)
                if self.health is not None:  # the game goes on; a power cut now could cost more
                    self.health.failing("copy", f"cannot be made ({exc}); the game goes on, tried again "
                                                "after the next question")
            self.error = str(exc)

    def _run(self) -> None:
        while True:
            self._wanted.wait()
            if self._stop.is_set():
                return
            self._wanted.clear()
            self.copy_now()
            with self._idle:
                if not self._wanted.is_set():
                    self._busy = False
                    self._idle.notify_all()


# -- the write-ahead log --------------------------------------------------------------------------------


@dataclass(frozen=True)
class WalScan:
    """What SQLite will make of a WAL file (docs: "WAL-mode File Format")."""

    size: int
    frames: int = 0  # whole frames in the file
    read: int = 0  # frames SQLite will apply (up to the last commit before the first bad frame)
    commits: int = 0  # transactions among those
    bad_frame: int | None = None  # index of the first frame whose checksum fails
    lost_commits: int = 0  # transactions written after the bad frame (same salt): never applied
    torn_bytes: int = 0  # bytes of a frame cut off at the end
    header_bad: bool = False

    @property
    def damaged(self) -> bool:
        return self.header_bad or self.bad_frame is not None

    def words(self) -> str:
        if self.header_bad:
            return "the database's write-ahead log was damaged at its start: none of it could be read"
        if self.bad_frame is not None:
            lost = f"{self.lost_commits} saved change{'s' if self.lost_commits != 1 else ''} after it" \
                if self.lost_commits else "what came after it"
            return (f"the database's write-ahead log was damaged at frame {self.bad_frame + 1} of "
                    f"{self.frames}: {lost} could not be read")
        if self.torn_bytes:
            return "the database's write-ahead log ends in the middle of a change (cut off)"
        return ""


def _checksum(data: bytes, big: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def scan_wal(db: Path) -> WalScan | None:
    """Read ``<db>-wal`` as SQLite's recovery will (None when there is none or it is empty)."""
    path = Path(f"{db}-wal")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    if not data:
        return None
    size = len(data)
    if size < WAL_HEADER:
        return WalScan(size, header_bad=True)
    magic, _version, page_size, _ckpt, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:WAL_HEADER])
    if magic not in WAL_MAGIC or page_size < 512 or page_size & (page_size - 1):
        return WalScan(size, header_bad=True)
    big = bool(magic & 1)
    s0, s1 = _checksum(data[:24], big, 0, 0)
    if (s0, s1) != (c1, c2):
        return WalScan(size, header_bad=True)
    frame_size = FRAME_HEADER + page_size
    frames, torn = divmod(size - WAL_HEADER, frame_size)
    read = commits = 0
    bad: int | None = None
    lost = 0
    for i in range(frames):
        off = WAL_HEADER + i * frame_size
        _page, commit, fs1, fs2, f1, f2 = struct.unpack(">6I", data[off:off + FRAME_HEADER])
        if (fs1, fs2) != (salt1, salt2):
            break  # frames of an earlier round of the log: not damage
        if bad is not None:
            lost += commit != 0
            continue
        s0, s1 = _checksum(data[off:off + 8], big, s0, s1)
        s0, s1 = _checksum(data[off + FRAME_HEADER:off + frame_size], big, s0, s1)
        if (s0, s1) != (f1, f2):
            bad = i
            continue
        if commit:
            read, commits = i + 1, commits + 1
    if bad is None and torn == 0 and frames > read:
        pass  # an uncommitted tail: a transaction the power cut interrupted, never acked
    return WalScan(size, frames, read, commits, bad, lost, torn)


# -- comparing the database with its copy -------------------------------------------------------------


@dataclass
class Logs:
    """The games of one database file, read with plain SQL (no migrations: a copy is only read)."""

    games: dict[int, JSON] = field(default_factory=dict)  # id -> {"game", "status", "setup", "log"}
    undone: dict[int, tuple[int, float]] = field(default_factory=dict)  # game -> (keep, at) of its last undo
    copied_at: float | None = None


def read_logs(path: Path) -> Logs:
    """The games and logs in ``path``; sqlite3.DatabaseError when SQLite cannot read it whole."""
    db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        check = db.execute("PRAGMA quick_check").fetchall()
        if [r[0] for r in check] != ["ok"]:
            raise sqlite3.DatabaseError("; ".join(str(r[0]) for r in check[:3]))
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        logs = Logs()
        if "games" not in tables:
            return logs
        for gid, game, status, setup in db.execute("SELECT id, game, status, setup FROM games"):
            logs.games[int(gid)] = {"game": game, "status": status, "setup": json.loads(setup), "log": []}
        for gid, action in db.execute("SELECT game_id, action FROM actions ORDER BY game_id, seq"):
            if int(gid) in logs.games:
                logs.games[int(gid)]["log"].append(json.loads(action))
        if "undone" in tables:
            for gid, keep, at in db.execute("SELECT game_id, keep, at FROM undone"):
                logs.undone[int(gid)] = (int(keep), float(at))
        if "good_copy" in tables:
            row = db.execute("SELECT at FROM good_copy").fetchone()
            logs.copied_at = float(row[0]) if row else None
        return logs
    finally:
        db.close()


@dataclass(frozen=True)
class Loss:
    """What the database lost of one game that its good copy still holds."""

    game_id: int
    game: str
    entries: int  # log entries the copy has and the database lost
    answers: int  # of those, players' inputs
    question: int | None  # the question the first lost entry belongs to (1 = the first)
    finish: bool  # the copy saw the game end, the database does not


def question_at(game: JSON, upto: int) -> int | None:
    """Which question (1, 2, ...) game's log entry ``upto`` belongs to: cards dealt after the entries
    before it (None when the stored game cannot be rebuilt)."""
    from appliance.session.session import setup_from_json

    try:
        setup = setup_from_json(game["setup"])
        flow = flow_factory(setup.game)(setup, random.Random(0), 0.0)
        flow.restore(game["log"][:upto], 0.0)
    except (QuizboxError, KeyError, TypeError, ValueError):
        return None
    return max(1, flow.cards_dealt)


def compare(database: Logs, copy: Logs) -> list[Loss]:
    """Games in the good copy that the database lost part of (the database should hold the copy's
    every game, each log the copy's log or a longer one, unless an undo after the copy shortened it)."""
    losses = []
    for gid, kept in sorted(copy.games.items()):
        have = database.games.get(gid)
        good = kept["log"]
        if have is None:
            losses.append(Loss(gid, kept["game"], len(good), _answers(good), 1 if good else None,
                               kept["status"] != "running"))
            continue
        limit = len(good)
        undo = database.undone.get(gid)
        # an undo the copy has not seen (its undone row differs): the quizmaster's, after the copy, not a
        # loss. Told by the rows, not by their wall-clock stamps: the Pi's clock jumps when it first reaches
        # a time server, and an undo stamped before the copy's time may still be after it
        if undo is not None and undo != copy.undone.get(gid):
            limit = min(limit, undo[0])
        mine = have["log"]
        common = 0
        while common < min(limit, len(mine)) and mine[common] == good[common]:
            common += 1
        finish = kept["status"] != "running" and have["status"] == "running"
        if common < limit or finish:
            lost = good[common:limit]
            losses.append(Loss(gid, kept["game"], len(lost), _answers(lost),
                               question_at(kept, common) if lost else None, finish))
    return losses


def _answers(entries: list[JSON]) -> int:
    return sum(1 for e in entries if e.get("player"))


# -- the start-up check -----------------------------------------------------------------------------------


@dataclass
class Report:
    """What the start-up check found and did; :meth:`words` says it for people."""

    at: float
    wal: str = ""  # what the WAL scan found
    damaged: str = ""  # that the database could not be read, in plain words
    detail: str = ""  # SQLite's own words for it (the journal and the doctor; never the TV)
    losses: list[Loss] = field(default_factory=list)  # of the database against the good copy
    restored: bool = False  # the good copy is the database now
    copy_at: float | None = None
    aside: str = ""  # where the damaged files were moved
    requested: bool = False  # the admin page asked for the restore
    fresh: bool = False  # damaged with no usable good copy: the box starts with an empty database
    copy_unreadable: bool = False  # there was a good copy, but it could not be read either
    lost_answers: dict[str, int] = field(default_factory=dict)  # handset -> answers it had acked, lost
    returned: dict[str, int] = field(default_factory=dict)  # handset -> acked answers it gave back, applied again
    names: dict[str, str] = field(default_factory=dict)  # handset -> player name, for the words
    question: int | None = None  # the question the resumed game goes on from
    game: str = ""

    @property
    def found(self) -> bool:
        return bool(self.wal or self.damaged or self.losses or self.restored or self.lost_answers or self.fresh
                    or self.returned)

    def words(self) -> str:
        """One paragraph in plain words for the quizmaster (the admin page, the doctor): what was damaged,
        whose acked answers came back, whose did not, and where the game goes on from."""
        parts: list[str] = []
        lost = sum(self.lost_answers.values())
        goes_on = f"the game goes on from question {self.question}" if self.question else ""
        of = f" of question {self.question}" if self.question else ""
        if lost and self.fresh:
            who = ", ".join(sorted(self.names.get(h, h) for h in self.lost_answers))
            parts.append(f"{_count(lost, 'acked answer')} went with the damaged database ({who})")
        elif lost:
            who = ", ".join(sorted(self.names.get(h, h) for h in self.lost_answers))
            parts.append(f"{_count(lost, 'acked answer')}{of} could not come back ({who}: the handset is gone, "
                         "or too old to give it back)" + (f": {goes_on}" if goes_on else "")
                         + ("; that player answers again" if len(self.lost_answers) == 1
                            else "; those players answer again"))
        if self.requested and self.restored:
            parts.append("the box went back to its last good copy, as asked on the admin page")
        elif self.restored:
            why = self.damaged or self.wal or "the database had lost saved work"
            saved = self._lost_in_copy()
            parts.append(f"{why}; the box went back to its last good copy{saved}")
        elif self.fresh:
            parts.append(f"{self.damaged}; {self._no_copy()}, so the box starts with an empty database "
                         "(decks come back, games and handsets must be set up again)")
        elif self.wal:
            parts.append(self.wal)
        if self.returned:
            who = ", ".join(sorted(self.names.get(h, h) for h in self.returned))
            back = sum(self.returned.values())
            parts.append(f"{_count(back, 'acked answer')}{of} came back from the handsets ({who}) and "
                         f"{'is' if back == 1 else 'are'} in the game again")
        if parts and goes_on and not lost:
            parts.append(goes_on)
        if self.aside:
            parts.append(f"the damaged files are kept as {self.aside}")
        text = "; ".join(parts)
        return text[:1].upper() + text[1:] + ("." if text else "")

    def tv_words(self) -> str:
        """What the pub sees: what happened and whether answers must be given again, naming nobody (the
        admin page names them) and never SQLite's own report."""
        if not self.found:
            return ""
        lost = sum(self.lost_answers.values())
        if self.restored:
            said = "The box went back to its last good copy"
            said += ", as asked" if self.requested else " after damage to its storage"
        elif self.fresh:
            said = "The box's storage was damaged and it starts empty: the quizmaster sets up the game again"
        else:
            said = "The box restarted after damage to its storage"
        if self.returned:
            back = sum(self.returned.values())
            said += f"; {_count(back, 'answer')} came back from the handsets"
        if lost and not self.fresh:
            said += f"; {_count(lost, 'answer')} must be given again: the handsets ask"
        elif self.question and not self.fresh:
            said += f"; the game goes on from question {self.question}"
        return said + "."

    def _no_copy(self) -> str:
        return "the good copy could not be read either" if self.copy_unreadable else "there was no good copy"

    def _lost_in_copy(self) -> str:
        answers = sum(loss.answers for loss in self.losses)
        if not answers:
            return ""
        return f" (it holds {answers} answer{'s' if answers != 1 else ''} the damaged database had lost)"

    def as_json(self) -> JSON:
        return {
            "at": self.at, "found": self.found, "text": self.words() if self.found else "",
            "tv": self.tv_words(), "detail": self.detail,
            "wal": self.wal, "damaged": self.damaged, "restored": self.restored, "copy_at": self.copy_at,
            "aside": self.aside, "fresh": self.fresh, "copy_unreadable": self.copy_unreadable,
            "question": self.question, "game": self.game,
            "lost_answers": sum(self.lost_answers.values()), "returned": sum(self.returned.values()),
            "losses": [loss.__dict__ for loss in self.losses],
        }


def check_on_start(db: Path, clock: Callable[[], float] = wallclock.now) -> Report:
    """Check the database ``db`` against its WAL and its good copy before anything opens it; restore
    the good copy when the database lost work or cannot be read. Never raises for a damaged file."""
    db = Path(db)
    report = Report(at=clock())
    good = good_copy_of(db)
    request = db.with_name(RESTORE_REQUEST)
    report.requested = request.exists()
    scan = scan_wal(db) if db.exists() else None
    if scan is not None and scan.damaged:
        report.wal = scan.words()
        log.error("%s", report.wal)
    copy: Logs | None = None
    if good.exists():
        try:
            copy = read_logs(good)
            report.copy_at = copy.copied_at
        except sqlite3.Error as exc:
            report.copy_unreadable = True
            report.detail = f"the good copy {good.name}: {exc}"
            log.error("the good copy %s cannot be read (%s): it is not used", good, exc)
    mine: Logs | None = None
    if db.exists():
        try:
            mine = read_logs(db)  # SQLite's own WAL recovery runs here
        except sqlite3.Error as exc:
            report.damaged = f"the database {db.name} is damaged and could not be read"
            report.detail = "; ".join(filter(None, (f"{db.name}: {exc}", report.detail)))
            log.error("the database %s cannot be read: %s", db, exc)
    if mine is not None and copy is not None:
        report.losses = compare(mine, copy)
        for loss in report.losses:
            log.error("the database lost %d entries (%d answers) of game %d that its good copy holds",
                      loss.entries, loss.answers, loss.game_id)
    restore = copy is not None and (report.damaged or report.losses or report.requested)
    if restore:
        report.aside = _move_aside(db, clock())
        copy_store(good, db)
        report.restored = True
        log.warning("the store is the good copy of %s now", time.ctime(report.copy_at or 0))
    elif report.damaged:
        report.aside = _move_aside(db, clock())
        report.fresh = True
    if report.requested:
        with contextlib.suppress(FileNotFoundError):
            request.unlink()
    return report


def _move_aside(db: Path, now: float) -> str:
    """Move the database and its WAL and shared-memory files to ``<db>.damaged-<time>...``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    aside = db.with_name(f"{db.name}.damaged-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{db}{suffix}")
        if source.exists():
            if suffix == "-shm":
                source.unlink()  # rebuilt from the WAL by whoever opens it
            else:
                os.replace(source, Path(f"{aside}{suffix}"))
    return aside.name


def restore_now(db: Path) -> str:
    """Put the good copy in place of ``db`` now (the admin page, when the box is not running): the
    damaged files are moved aside; returns their new name. QuizboxError without a readable copy."""
    db = Path(db)
    good = good_copy_of(db)
    try:
        read_logs(good)
    except sqlite3.Error as exc:
        raise QuizboxError(f"there is no readable good copy ({good.name}: {exc})") from exc
    aside = _move_aside(db, wallclock.now()) if db.exists() else ""
    copy_store(good, db)
    return aside


# -- what handsets say they had acked -------------------------------------------------------------------


def lost_ack(stored: tuple[int, str] | None, claimed: tuple[int, str]) -> bool:
    """Whether a handset's claim "the box acked my seq S on prompt P" is missing from the store, whose
    last acked input of that handset is ``stored``. A stored seq above the claim is an ack the handset
    never received (the ack, not the input, was lost)."""
    if stored is None:
        return True
    return stored[0] < claimed[0] or (stored[0] == claimed[0] and stored[1] != claimed[1])


class Claims:
    """Listens to the handsets' hellos after a start: each handset that says the box acked an input the
    store does not hold lost an answer; the report is said on the TV, the admin page and the doctor."""

    def __init__(self, report: Report, hub: Any, health: Health, connection: Any) -> None:
        from appliance.edge.accounts import private_client_id
        from appliance.edge.mqtt import Client
        from firmware import protocol

        self.report = report
        self.hub = hub
        self.health = health
        self.checked: set[tuple[str, int, str]] = set()
        # hellos heard before the hub listens (the announcement's grace): handed to the hub once it does,
        # so a handset that stays connected is at the table even when the store forgot it (an empty start)
        self.early: dict[str, tuple[str, bytes]] = {}
        # unguessable: a fixed id let any guest's login drop it (issue 32; docs/security.md)
        self.client = Client(private_client_id(f"quizbox-{hub.box}-claims"), connection, self._on_hello,
                             subscriptions=[protocol.handset_wildcard(hub.box, "hello")])

    def start(self, wait: float = 10.0) -> Claims:
        self.client.start(wait=wait)
        return self

    def announce(self, grace: float = CLAIM_GRACE_SECONDS) -> None:
        """The new start's first heartbeat, then ``grace`` seconds for the handsets' hellos."""
        from firmware import protocol

        beat = protocol.make_heartbeat(round(wallclock.now() * 1000), self.hub.boot)
        self.client.publish(protocol.appliance_heartbeat_topic(self.hub.box), protocol.encode(beat), retain=True,
                            qos=0)
        time.sleep(grace)

    def stop(self) -> None:
        self.client.stop()

    def hand_over(self) -> None:
        """Give the hub the hellos it was not yet listening for (call once the hub has started)."""
        with self.hub.outbox:
            early, self.early = self.early, {}
        for topic, payload in early.values():
            self.hub.on_message(topic, payload)

    def _on_hello(self, topic: str, payload: bytes) -> None:
        from firmware import protocol

        if not self.hub.alive():
            with self.hub.outbox:
                self.early[topic] = (topic, payload)
        try:
            handset_id, _ = protocol.parse_handset_topic(self.hub.box, topic)
            hello = protocol.parse_hello(handset_id, protocol.decode(payload))
        except protocol.ProtocolError:
            return  # the hub says why it refuses a hello
        acked = hello.get("acked")
        if not acked or acked["prompt"].rpartition("-")[0] == self.hub.boot:
            return  # nothing acked, or acked by this start (stored before acked)
        claim = (handset_id, acked["seq"], acked["prompt"])
        if claim in self.checked or self.hub.store is None:
            return
        self.checked.add(claim)
        with self.hub.outbox:
            if not lost_ack(self.hub.store.last_acked(handset_id), (acked["seq"], acked["prompt"])):
                return
            session = self.hub.session
            if handset_id in self.report.lost_answers or handset_id in self.report.returned:
                return
            why = self._apply_again(handset_id, acked)
            if why:
                self.report.lost_answers[handset_id] = 1
                log.error("handset %s had an answer acked (seq %s on %s) that the store lost: %s", *claim, why)
            else:
                self.report.returned[handset_id] = 1
                log.warning("handset %s gave back its acked answer (seq %s on %s): applied again", *claim)
            player = session.player_of(handset_id)
            handset = self.hub.registry.get(handset_id)
            self.report.names[handset_id] = player or (handset.name if handset is not None else handset_id)
            say(self.report, session, self.health)
            if self.hub.alive():  # before the hub's start, its first connect publishes all of it
                self.hub.publish_changes()

    def _apply_again(self, handset_id: str, acked: JSON) -> str:
        """Apply a lost acked input the handset gave back, through the session's ordinary checks; "" when
        it is in the game again, else why not (in words, for the journal)."""
        from firmware import protocol

        if "kind" not in acked:
            return "the handset does not say what it was (protocol before 1.3)"
        if acked["kind"] == protocol.BUZZ:
            return "a buzz is timed on the clock of the box that died"
        handset = self.hub.registry.get(handset_id)
        if handset is None:
            return "the handset is not at the table"
        session = self.hub.session
        prompt, _ = session.prompt_for(handset)
        if prompt.get("kind") != acked["kind"] or protocol.prompt_mark(prompt) != acked["mark"]:
            return "its seat is asked something else now"
        try:
            session.handle_input(handset_id, str(prompt["id"]), acked["kind"], acked["data"],
                                 origin=(handset_id, acked["seq"], acked["prompt"]))
        except QuizboxError as exc:
            return f"the game refused it again ({exc})"
        return ""


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def say(report: Report, session: Any, health: Health) -> None:
    """Put the report where people look: the admin page and the doctor (health.json, the whole report),
    the TV's message line (ten minutes, :meth:`Report.tv_words`)."""
    flow = session.flow
    if flow is not None and session.state == "playing":
        report.question = max(1, int(flow.cards_dealt))
        report.game = session.setup.game if session.setup is not None else ""
    health.set_recovery(report.as_json())
    if report.found:
        session.message, session.message_until = report.tv_words(), session.clock() + 600
