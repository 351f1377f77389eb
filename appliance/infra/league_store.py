"""The league's tables in the box's SQLite store (migration 4 in appliance/infra/store.py): teams, the
member box's outbox and plans, the league box's results, teams' home boxes and members.

Each change is one transaction of the store's; a refused result (rules.md The league 1 and 5) leaves the
database as it was.
"""

from __future__ import annotations

import json
from typing import Any

from appliance.errors import QuizboxError
from appliance.infra.store import JSON, Store


class Refused(QuizboxError):
    """A result or a join the league's rules do not allow; the message says why."""


class LeagueStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    # -- a box's teams (rules.md The league 1) ------------------------------------------------------------

    def teams(self) -> list[JSON]:
        return [{"name": r["name"], "devices": json.loads(r["devices"]), "updated": r["updated"]}
                for r in self.store._query("SELECT * FROM teams ORDER BY name COLLATE NOCASE")]

    # -- a member box: results out, plans in --------------------------------------------------------------

    def pending(self) -> list[tuple[str, JSON]]:
        """The results the league has not acknowledged yet, oldest first."""
        rows = self.store._query("SELECT result_id, payload FROM league_outbox WHERE delivered IS NULL "
                                 "ORDER BY created, result_id")
        return [(r["result_id"], json.loads(r["payload"])) for r in rows]

    def delivered(self, result_id: str) -> bool:
        """Mark ``result_id`` acknowledged by the league; False if it was not (or no longer) waiting."""
        with self.store._tx() as db:
            cur = db.execute("UPDATE league_outbox SET delivered=? WHERE result_id=? AND delivered IS NULL",
                             (self.store.clock(), result_id))
            return cur.rowcount > 0

    def outbox(self) -> list[JSON]:
        return [{"result_id": r["result_id"], "night_id": r["night_id"], "created": r["created"],
                 "delivered": r["delivered"]}
                for r in self.store._query("SELECT * FROM league_outbox ORDER BY created DESC")]

    def save_plan(self, plan_id: str, data: JSON) -> None:
        with self.store._tx() as db:
            db.execute("INSERT INTO league_plans (plan, data, received) VALUES (?, ?, ?) ON CONFLICT(plan) "
                       "DO UPDATE SET data=excluded.data, received=excluded.received",
                       (plan_id, json.dumps(data), self.store.clock()))

    def plans(self) -> list[JSON]:
        return [json.loads(r["data"]) for r in self.store._query("SELECT data FROM league_plans ORDER BY plan")]

    def plan(self, plan_id: str) -> JSON | None:
        rows = self.store._query("SELECT data FROM league_plans WHERE plan=?", (plan_id,))
        return json.loads(rows[0]["data"]) if rows else None

    # -- the league box: results once by id, teams' home boxes, members ------------------------------------

    def add_result(self, result: JSON) -> bool:
        """Store ``result`` (read by appliance.league.payloads.read_result) once by its id: True if new, False
        if that id was stored before (nothing changes). :class:`Refused` if a team of it plays for another
        box, or its plan is not one of the league's (rules.md The league 1, 2, 5)."""
        box, result_id = str(result["box"]), str(result["result_id"])
        with self.store._tx() as db:
            if db.execute("SELECT 1 FROM league_results WHERE result_id=?", (result_id,)).fetchone():
                return False
            if not db.execute("SELECT 1 FROM league_plans WHERE plan=?", (result["plan"],)).fetchone():
                raise Refused(f"result {result_id} from {box}: plan {result['plan']!r} is not the league's")
            for team in result["places"]:
                row = db.execute("SELECT box FROM league_teams WHERE name=?", (team,)).fetchone()
                if row is not None and row[0] != box:
                    raise Refused(f"result {result_id} from {box}: team {team!r} plays for {row[0]}")
            db.executemany("INSERT OR IGNORE INTO league_teams (name, box) VALUES (?, ?)",
                           [(team, box) for team in result["places"]])
            db.execute("INSERT INTO league_results (result_id, box, plan, payload, received) VALUES (?, ?, ?, ?, ?)",
                       (result_id, box, result["plan"], json.dumps(result), self.store.clock()))
        return True

    def results(self) -> list[JSON]:
        return [json.loads(r["payload"]) for r in
                self.store._query("SELECT payload FROM league_results ORDER BY received, result_id")]

    def count_results(self) -> int:
        return int(self.store._query("SELECT COUNT(*) AS n FROM league_results")[0]["n"])

    def add_member(self, box: str, code_hash: str) -> None:
        """A member box with a fresh one-time join code (a box asked again gets a new code; the old one dies)."""
        with self.store._tx() as db:
            db.execute("INSERT INTO league_members (box, code_hash, created) VALUES (?, ?, ?) ON CONFLICT(box) "
                       "DO UPDATE SET code_hash=excluded.code_hash, created=excluded.created, joined=NULL",
                       (box, code_hash, self.store.clock()))

    def redeem(self, box: str, code_hash: str) -> None:
        """Use ``box``'s join code once; :class:`Refused` if it is wrong or was used."""
        with self.store._tx() as db:
            cur = db.execute("UPDATE league_members SET joined=? WHERE box=? AND code_hash=? AND joined IS NULL",
                             (self.store.clock(), box, code_hash))
            if cur.rowcount != 1:
                raise Refused(f"this join code for {box!r} is not the league's, or it was used already: "
                              "ask the league for a new one")

    def members(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.store._query("SELECT box, created, joined FROM league_members ORDER BY box")]
