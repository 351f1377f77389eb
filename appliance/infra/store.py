"""SQLite (WAL) store: decks, handsets, games and each game's action log, quiz nights and run-sheets,
with schema migrations.

Persistence is the action log: a game is its set-up (game, options, players, seats, cards) and its
accepted actions; the state is rebuilt from them after a restart. The session appends an accepted input
here (synchronous=FULL, one transaction) BEFORE the hub acks it, so an acked input survives a power cut.

Disk full, a read-only card or a corrupted file raise :class:`StoreError` with a message for the board
and the admin page; a failed write leaves the database as it was (the transaction is rolled back).
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from appliance.errors import QuizboxError
from appliance.infra import wallclock

JSON = dict[str, Any]

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE decks (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,              -- the whole deck as JSON (appliance.decks format)
        builtin INTEGER NOT NULL DEFAULT 0,
        updated REAL NOT NULL
    );
    CREATE TABLE handsets (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        accepted INTEGER NOT NULL,
        data TEXT NOT NULL DEFAULT '{}',  -- firmware, layout, credentials' user name...
        updated REAL NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        setup TEXT NOT NULL,             -- options, players, cards (JSON)
        seats TEXT NOT NULL,             -- player -> handset id (JSON)
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'abandoned')),
        started REAL NOT NULL,
        ended REAL,
        result TEXT
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE used_cards (
        card TEXT PRIMARY KEY,           -- "<deck id>/<card id>"
        used REAL NOT NULL
    );
    """,
    # 2: what a power cut can take (appliance/box/recovery.py): each handset's last acked input, written in
    # the same transaction as the actions it became, and each game's last undo (an undo shortens the log,
    # which a copy made before it must not call a loss)
    """
    CREATE TABLE acked (
        handset TEXT PRIMARY KEY,
        seq INTEGER NOT NULL,
        prompt TEXT NOT NULL,            -- the prompt id as the handset saw it ("<boot>-p<n>")
        game_id INTEGER NOT NULL,
        entry INTEGER NOT NULL,          -- the seq of the first action it became
        at REAL NOT NULL
    );
    CREATE TABLE undone (
        game_id INTEGER PRIMARY KEY,
        keep INTEGER NOT NULL,
        at REAL NOT NULL
    );
    """,
    # 3: quiz nights (rules.md Quiz night): the night's own log, its rounds' games, reusable run-sheets
    """
    CREATE TABLE nights (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT NOT NULL,
        players TEXT NOT NULL,           -- the night's players in seat order (JSON)
        seats TEXT NOT NULL,             -- player -> handset id (JSON)
        options TEXT NOT NULL,           -- the night engine's options: title and run-sheet (JSON)
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'abandoned')),
        started REAL NOT NULL,
        ended REAL,
        result TEXT
    );
    CREATE TABLE night_actions (
        night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (night_id, seq)
    );
    CREATE TABLE night_rounds (
        night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,          -- the round's number in the night engine
        game_id INTEGER NOT NULL REFERENCES games(id),
        PRIMARY KEY (night_id, round)
    );
    CREATE TABLE runsheets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        data TEXT NOT NULL,              -- {"title", "rounds": [plan...]} (JSON)
        updated REAL NOT NULL
    );
    """,
    # 4: teams and the league (rules.md The league 1-5, docs/league.md): a team and the devices it last used
    # persist across nights; a night says which team each player was and the league plan it was started
    # from; a member box keeps each league night's result until the league says it has it (the outbox); a
    # league box keeps results once by id, the teams' home boxes, members and their one-time join codes
    """
    CREATE TABLE teams (
        name TEXT PRIMARY KEY COLLATE NOCASE,
        devices TEXT NOT NULL DEFAULT '[]',  -- the handset ids it last played on (JSON)
        updated REAL NOT NULL
    );
    ALTER TABLE nights ADD COLUMN teams TEXT NOT NULL DEFAULT '{}';  -- player -> team name (JSON)
    ALTER TABLE nights ADD COLUMN league_plan TEXT;                  -- the league plan it played, if any
    CREATE TABLE league_outbox (
        result_id TEXT PRIMARY KEY,
        night_id INTEGER NOT NULL REFERENCES nights(id),
        payload TEXT NOT NULL,           -- the result as sent (appliance/league/payloads.py)
        created REAL NOT NULL,
        delivered REAL                   -- when the league's acknowledgement came in
    );
    CREATE TABLE league_plans (
        plan TEXT PRIMARY KEY,
        data TEXT NOT NULL,              -- the plan as the league sent it (JSON)
        received REAL NOT NULL
    );
    CREATE TABLE league_results (
        result_id TEXT PRIMARY KEY,
        box TEXT NOT NULL,
        plan TEXT NOT NULL,
        payload TEXT NOT NULL,
        received REAL NOT NULL
    );
    CREATE TABLE league_teams (
        name TEXT PRIMARY KEY COLLATE NOCASE,
        box TEXT NOT NULL                -- the team's home box (rules.md The league 1)
    );
    CREATE TABLE league_members (
        box TEXT PRIMARY KEY,
        code_hash TEXT NOT NULL,         -- sha256 of the one-time join code
        created REAL NOT NULL,
        joined REAL                      -- when the code was used (it works once)
    );
    """,
    # 5: what the quizmaster set for the night's screens and the final screen the TV held (docs/night.md):
    # {"hold": seconds or null, "joining": the join QR code between rounds, "held": "round", "tiebreak" or null}
    """
    ALTER TABLE nights ADD COLUMN screen TEXT NOT NULL DEFAULT '{}';
    """,
)

Origin = tuple[str, int, str]
"""Who an input came from: (handset id, seq, prompt id as sent to the handset)."""


class StoreError(QuizboxError):
    """The store cannot read or write (disk full, read-only, corrupted)."""

    code: ClassVar[str] = "not_saved"


@dataclass(frozen=True)
class StoredGame:
    id: int
    game: str
    setup: JSON
    seats: dict[str, str]
    status: str
    log: list[JSON]
    started: float
    ended: float | None
    result: JSON | None


@dataclass(frozen=True)
class StoredNight:
    id: int
    title: str
    players: list[str]
    seats: dict[str, str]
    options: JSON
    status: str
    log: list[JSON]
    rounds: dict[int, int]
    """Round number -> the id of the game that played it."""
    started: float
    ended: float | None
    result: JSON | None
    teams: dict[str, str] = field(default_factory=dict)
    """Player -> the team it was (rules.md The league 1); empty for a night of players."""
    league_plan: str | None = None
    screen: JSON = field(default_factory=dict)
    """What the quizmaster set for the night's screens and the final screen held (Store.set_night_screen)."""


class Store:
    """One SQLite database; thread-safe (one connection behind a lock); a context manager."""

    def __init__(self, path: str | Path, clock: Any = wallclock.now) -> None:
        self.path = str(path)
        self.clock = clock
        self._lock = threading.RLock()
        # called after a game starts, a question's cards are dealt, a game ends or an undo: the appliance
        # copies the store then (appliance/box/recovery.py); must return at once
        self.milestone: Any = None
        try:
            uri = self.path.startswith("file:")  # e.g. "file:/var/lib/quizbox/q.db?mode=ro" for a read-only view
            if self.path != ":memory:" and not uri:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=10, uri=uri
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self.migrate()
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from exc

    # -- plumbing --------------------------------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StoreError(_plain(exc, self.path)) from exc

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                cur = self._db.execute(sql, args)
                cur.row_factory = sqlite3.Row
                return cur.fetchall()
            except sqlite3.Error as exc:
                raise StoreError(_plain(exc, self.path)) from exc

    def migrate(self) -> int:
        """Apply the migrations not yet applied (PRAGMA user_version); returns the schema version."""
        with self._lock:
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"the database {self.path} is from a newer Quizbox (schema {version}, this one knows "
                    f"{len(MIGRATIONS)}): upgrade the software"
                )
            if "mode=ro" in self.path:  # a read-only view reads the schema as it is
                return version
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                self._db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
            return len(MIGRATIONS)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self) -> str:
        """``ok`` or what SQLite's integrity check found (for ``quizbox doctor``)."""
        rows = self._query("PRAGMA integrity_check")
        return "; ".join(str(r[0]) for r in rows)

    # -- games and the action log ----------------------------------------------------------------------

    def create_game(self, game: str, setup: JSON, seats: dict[str, str]) -> int:
        with self._tx() as db:
            db.execute("UPDATE games SET status='abandoned', ended=? WHERE status='running'", (self.clock(),))
            cur = db.execute(
                "INSERT INTO games (game, setup, seats, status, started) VALUES (?, ?, ?, 'running', ?)",
                (game, json.dumps(setup), json.dumps(seats), self.clock()),
            )
            assert cur.lastrowid is not None
            game_id = int(cur.lastrowid)
        self._milestone()
        return game_id

    def _milestone(self) -> None:
        if self.milestone is not None:
            self.milestone()

    def append_actions(self, game_id: int, first_seq: int, actions: Sequence[JSON],
                       origin: Origin | None = None) -> None:
        """Append ``actions`` as seq ``first_seq``... in one durable transaction (all or none); with
        ``origin``, the handset input they came from is that handset's last acked input."""
        now = self.clock()
        with self._tx() as db:
            db.executemany(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                [(game_id, first_seq + i, json.dumps(a), now) for i, a in enumerate(actions)],
            )
            if origin is not None:
                _record_acked(db, origin, game_id, first_seq, now)

    def update_seats(self, game_id: int, seats: dict[str, str],
                     night: tuple[int, dict[str, str]] | None = None) -> None:
        """A seat moved to another handset mid-game (player -> handset id): a resume seats it there. With
        ``night`` (its id and seats), the game is a quiz night's round and the night's seats move in the
        same transaction, so the night's later rounds seat the player there too."""
        with self._tx() as db:
            db.execute("UPDATE games SET seats=? WHERE id=?", (json.dumps(seats), game_id))
            if night is not None:
                db.execute("UPDATE nights SET seats=? WHERE id=?", (json.dumps(night[1]), night[0]))

    def truncate_actions(self, game_id: int, keep: int) -> None:
        """Drop every action from seq ``keep`` on (undo)."""
        with self._tx() as db:
            db.execute("DELETE FROM actions WHERE game_id=? AND seq>=?", (game_id, keep))
            db.execute("INSERT OR REPLACE INTO undone (game_id, keep, at) VALUES (?, ?, ?)",
                       (game_id, keep, self.clock()))
        self._milestone()

    def last_acked(self, handset_id: str) -> tuple[int, str] | None:
        """The (seq, prompt id) of ``handset_id``'s last input stored as acked, if any."""
        rows = self._query("SELECT seq, prompt FROM acked WHERE handset=?", (handset_id,))
        return (int(rows[0]["seq"]), str(rows[0]["prompt"])) if rows else None

    def finish_game(self, game_id: int, result: JSON, status: str = "finished") -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE games SET status=?, ended=?, result=? WHERE id=?",
                (status, self.clock(), json.dumps(result), game_id),
            )
        self._milestone()

    def game(self, game_id: int) -> StoredGame | None:
        rows = self._query("SELECT * FROM games WHERE id=?", (game_id,))
        if not rows:
            return None
        row = rows[0]
        log = [json.loads(r["action"]) for r in self._query(
            "SELECT action FROM actions WHERE game_id=? ORDER BY seq", (game_id,))]
        return StoredGame(
            id=row["id"], game=row["game"], setup=json.loads(row["setup"]), seats=json.loads(row["seats"]),
            status=row["status"], log=log, started=row["started"], ended=row["ended"],
            result=json.loads(row["result"]) if row["result"] else None,
        )

    def unfinished_game(self) -> StoredGame | None:
        rows = self._query("SELECT id FROM games WHERE status='running' ORDER BY id DESC LIMIT 1")
        return self.game(rows[0]["id"]) if rows else None

    def games(self, limit: int = 50) -> list[StoredGame]:
        rows = self._query("SELECT id FROM games ORDER BY id DESC LIMIT ?", (limit,))
        return [g for r in rows if (g := self.game(r["id"])) is not None]

    # -- quiz nights: the night's log and its rounds' games (appliance/session/night.py) ---------------------

    def create_night(self, title: str, players: Sequence[str], seats: dict[str, str], options: JSON,
                     teams: dict[str, str] | None = None, league_plan: str | None = None) -> int:
        """A new running night; a night still running is abandoned (one night at a time). ``teams`` (player ->
        team name) seats teams: each is kept (or made) with the devices it sits at tonight as its last ones.
        ``league_plan``: the league plan the night plays (rules.md The league 2)."""
        now = self.clock()
        with self._tx() as db:
            db.execute("UPDATE nights SET status='abandoned', ended=? WHERE status='running'", (now,))
            cur = db.execute(
                "INSERT INTO nights (title, players, seats, options, status, started, teams, league_plan) "
                "VALUES (?, ?, ?, ?, 'running', ?, ?, ?)",
                (title, json.dumps(list(players)), json.dumps(seats), json.dumps(options), now,
                 json.dumps(teams or {}), league_plan),
            )
            for player, team in (teams or {}).items():
                devices = [seats[player]] if player in seats else []
                db.execute("INSERT INTO teams (name, devices, updated) VALUES (?, ?, ?) ON CONFLICT(name) "
                           "DO UPDATE SET devices=excluded.devices, updated=excluded.updated",
                           (team, json.dumps(devices), now))
            assert cur.lastrowid is not None
            return int(cur.lastrowid)

    def append_night_actions(self, night_id: int, first_seq: int, actions: Sequence[JSON],
                             origin: Origin | None = None) -> None:
        """Append a night's actions in one transaction; with ``origin`` (a tied player's tie-break number from
        a handset) that input is its handset's last acked one, as :meth:`append_actions` keeps a game's
        (``game_id`` 0 in ``acked``: a night's action, ``entry`` its seq in the night)."""
        with self._tx() as db:
            now = self.clock()
            _insert_night_actions(db, night_id, first_seq, actions, now)
            if origin is not None:
                _record_acked(db, origin, 0, first_seq, now)

    def join_night(self, night_id: int, seq: int, action: JSON, seats: dict[str, str]) -> None:
        """A latecomer joins the night: its action and the night's seats (with the latecomer's handset) in
        one transaction, so a restart never has the player without a handset or the other way round."""
        with self._tx() as db:
            _insert_night_actions(db, night_id, seq, [action], self.clock())
            db.execute("UPDATE nights SET seats=? WHERE id=?", (json.dumps(seats), night_id))

    def start_night_round(
        self, night_id: int, seq: int, action: JSON, round_number: int, game: str, setup: JSON, seats: dict[str, str]
    ) -> int:
        """In one transaction: the night's start of a round, the round's game and the link between them
        (so a power cut never leaves a started round without its game, or a game without its round)."""
        with self._tx() as db:
            now = self.clock()
            _insert_night_actions(db, night_id, seq, [action], now)
            db.execute("UPDATE games SET status='abandoned', ended=? WHERE status='running'", (now,))
            cur = db.execute(
                "INSERT INTO games (game, setup, seats, status, started) VALUES (?, ?, ?, 'running', ?)",
                (game, json.dumps(setup), json.dumps(seats), now),
            )
            assert cur.lastrowid is not None
            db.execute("INSERT INTO night_rounds (night_id, round, game_id) VALUES (?, ?, ?)",
                       (night_id, round_number, cur.lastrowid))
            return int(cur.lastrowid)

    def end_night_round(self, night_id: int, seq: int, action: JSON, game_id: int, result: JSON, status: str) -> None:
        """In one transaction: the night's end of a round (finish now, abandon) and its game's status."""
        with self._tx() as db:
            now = self.clock()
            _insert_night_actions(db, night_id, seq, [action], now)
            db.execute("UPDATE games SET status=?, ended=?, result=? WHERE id=? AND status='running'",
                       (status, now, json.dumps(result), game_id))

    def finish_night(self, night_id: int, result: JSON, status: str = "finished",
                     league: tuple[str, JSON] | None = None) -> None:
        """The night's end; with ``league`` (result id, payload) its league result goes into the outbox in the
        same transaction, so a finished league night always has its result to send (docs/league.md)."""
        now = self.clock()
        with self._tx() as db:
            db.execute("UPDATE nights SET status=?, ended=?, result=? WHERE id=?",
                       (status, now, json.dumps(result), night_id))
            if league is not None:
                db.execute("INSERT OR IGNORE INTO league_outbox (result_id, night_id, payload, created) "
                           "VALUES (?, ?, ?, ?)", (league[0], night_id, json.dumps(league[1]), now))

    def set_night_screen(self, night_id: int, screen: JSON) -> None:
        """What the quizmaster set for the night's screens (hold time, the join QR code) and the final screen
        the TV holds: a restart brings them back (docs/night.md, A power cut)."""
        with self._tx() as db:
            db.execute("UPDATE nights SET screen=? WHERE id=?", (json.dumps(screen), night_id))

    def night(self, night_id: int) -> StoredNight | None:
        rows = self._query("SELECT * FROM nights WHERE id=?", (night_id,))
        if not rows:
            return None
        row = rows[0]
        log = [json.loads(r["action"]) for r in self._query(
            "SELECT action FROM night_actions WHERE night_id=? ORDER BY seq", (night_id,))]
        rounds = {int(r["round"]): int(r["game_id"]) for r in self._query(
            "SELECT round, game_id FROM night_rounds WHERE night_id=?", (night_id,))}
        return StoredNight(
            id=row["id"], title=row["title"], players=json.loads(row["players"]), seats=json.loads(row["seats"]),
            options=json.loads(row["options"]), status=row["status"], log=log, rounds=rounds,
            started=row["started"], ended=row["ended"], result=json.loads(row["result"]) if row["result"] else None,
            teams=json.loads(row["teams"]), league_plan=row["league_plan"], screen=json.loads(row["screen"]),
        )

    def unfinished_night(self) -> StoredNight | None:
        rows = self._query("SELECT id FROM nights WHERE status='running' ORDER BY id DESC LIMIT 1")
        return self.night(rows[0]["id"]) if rows else None

    def nights(self, limit: int = 50) -> list[StoredNight]:
        rows = self._query("SELECT id FROM nights ORDER BY id DESC LIMIT ?", (limit,))
        return [n for r in rows if (n := self.night(r["id"])) is not None]

    def save_runsheet(self, name: str, data: JSON) -> int:
        """Save (or replace, by name) a reusable run-sheet; returns its id."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO runsheets (name, data, updated) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET data=excluded.data, updated=excluded.updated",
                (name, json.dumps(data), self.clock()),
            )
            return int(db.execute("SELECT id FROM runsheets WHERE name=?", (name,)).fetchone()[0])

    def runsheets(self) -> list[JSON]:
        return [{"id": r["id"], "name": r["name"], "updated": r["updated"], **json.loads(r["data"])}
                for r in self._query("SELECT * FROM runsheets ORDER BY name")]

    def runsheet(self, sheet_id: int) -> JSON | None:
        rows = self._query("SELECT * FROM runsheets WHERE id=?", (sheet_id,))
        return {"id": rows[0]["id"], "name": rows[0]["name"], **json.loads(rows[0]["data"])} if rows else None

    def delete_runsheet(self, sheet_id: int) -> bool:
        with self._tx() as db:
            return db.execute("DELETE FROM runsheets WHERE id=?", (sheet_id,)).rowcount > 0

    # -- handsets ------------------------------------------------------------------------------------------

    def save_handset(self, handset_id: str, name: str, accepted: bool, data: JSON | None = None) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO handsets (id, name, accepted, data, updated) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET name=excluded.name, accepted=excluded.accepted, "
                "data=excluded.data, updated=excluded.updated",
                (handset_id, name, int(accepted), json.dumps(data or {}), self.clock()),
            )

    def delete_handset(self, handset_id: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM handsets WHERE id=?", (handset_id,))

    def handsets(self) -> list[JSON]:
        return [
            {"id": r["id"], "name": r["name"], "accepted": bool(r["accepted"]), **json.loads(r["data"])}
            for r in self._query("SELECT * FROM handsets ORDER BY rowid")
        ]

    # -- decks and the cards used on this box ---------------------------------------------------------------

    def save_deck(self, deck_id: str, name: str, deck_type: str, data: JSON, builtin: bool = False) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO decks (id, name, type, data, builtin, updated) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET name=excluded.name, type=excluded.type, data=excluded.data, "
                "builtin=excluded.builtin, updated=excluded.updated",
                (deck_id, name, deck_type, json.dumps(data), int(builtin), self.clock()),
            )

    def delete_deck(self, deck_id: str) -> bool:
        with self._tx() as db:
            return db.execute("DELETE FROM decks WHERE id=?", (deck_id,)).rowcount > 0

    def deck(self, deck_id: str) -> JSON | None:
        rows = self._query("SELECT data FROM decks WHERE id=?", (deck_id,))
        return json.loads(rows[0]["data"]) if rows else None

    def decks(self) -> list[JSON]:
        return [
            {"id": r["id"], "name": r["name"], "type": r["type"], "builtin": bool(r["builtin"]),
             "cards": r["cards"], "updated": r["updated"]}
            for r in self._query(
                "SELECT id, name, type, builtin, updated, json_array_length(data, '$.cards') AS cards "
                "FROM decks ORDER BY name")
        ]

    def mark_used(self, cards: Sequence[str]) -> None:
        """Cards dealt: a new question begins (the one before is over), so it is also a milestone."""
        with self._tx() as db:
            db.executemany(
                "INSERT OR REPLACE INTO used_cards (card, used) VALUES (?, ?)", [(c, self.clock()) for c in cards]
            )
        self._milestone()

    def used_cards(self) -> set[str]:
        return {r["card"] for r in self._query("SELECT card FROM used_cards")}

    def last_dealt(self) -> dict[str, float]:
        """Each card this box has dealt (``<deck id>/<card id>``) and when it was last dealt (store clock)."""
        return {r["card"]: float(r["used"]) for r in self._query("SELECT card, used FROM used_cards")}

    def forget_used(self, prefix: str = "") -> None:
        with self._tx() as db:
            db.execute("DELETE FROM used_cards WHERE card LIKE ?", (prefix.replace("%", r"\%") + "%",))


def _record_acked(db: sqlite3.Connection, origin: Origin, game_id: int, entry: int, now: float) -> None:
    """``origin`` (handset, seq, prompt id) is that handset's last acked input: it became the actions from
    seq ``entry`` of game ``game_id`` (0: of the night's log). In the transaction of those actions."""
    handset, seq, prompt = origin
    db.execute("INSERT OR REPLACE INTO acked (handset, seq, prompt, game_id, entry, at) VALUES (?, ?, ?, ?, ?, ?)",
               (handset, seq, prompt, game_id, entry, now))


def _insert_night_actions(
    db: sqlite3.Connection, night_id: int, first_seq: int, actions: Sequence[JSON], now: float
) -> None:
    db.executemany(
        "INSERT INTO night_actions (night_id, seq, action, at) VALUES (?, ?, ?, ?)",
        [(night_id, first_seq + i, json.dumps(a), now) for i, a in enumerate(actions)],
    )


def _plain(exc: sqlite3.Error, path: str) -> str:
    text = str(exc)
    if "disk I/O error" in text and _read_only_folder(path):
        text = "read-only"  # a card the kernel turned read-only: SQLite only says "disk I/O error"
    if "full" in text:
        return f"the disk is full: cannot save to {path} (free some space)"
    if "readonly" in text or "read-only" in text:
        return f"the database {path} is read-only (check the SD card and file permissions)"
    if "malformed" in text or "not a database" in text:
        return f"the database {path} is damaged ({text}); restore a backup or move it away"
    return f"database error on {path}: {text}"


def _read_only_folder(path: str) -> bool:
    """Whether the database's folder is on a read-only filesystem now (tries to make a file there)."""
    folder = Path(path.removeprefix("file:").split("?")[0]).parent
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".quizbox-probe-")
    except OSError as exc:
        return exc.errno == errno.EROFS
    os.close(fd)
    os.unlink(name)
    return False
