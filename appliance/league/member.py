"""A member box's side of the league (docs/league.md): its results out, the league's plans, acks and table in.

The box's own broker bridges ``league/...`` to the league's broker (deploy/configure.py
``render_bridge``). This link only talks to the box's own broker: it publishes every result of the
store's outbox (retained, QoS 1) at start, a newly finished night's within ``poll`` seconds (it looks
at the outbox that often), and every waiting one again every ``resend`` seconds until the league's ack
for that result id comes back, so a result survives the pub's internet, the league's broker and this box
being killed; the league stores it once by its id (rules.md The league 5).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from appliance.infra.league_store import LeagueStore
from appliance.league import topics
from appliance.league.client import LeagueClient
from appliance.league.payloads import LeagueError, read_plan

log = logging.getLogger(__name__)


class MemberLink:
    def __init__(self, league: LeagueStore, box: str, host: str, port: int, username: str, password: str,
                 resend: float = 60.0, on_table: Callable[[list[Any]], None] | None = None,
                 poll: float = 2.0) -> None:
        self.league, self.box, self.resend, self.poll = league, box, resend, min(poll, resend)
        self.on_table = on_table
        self.sent = 0
        self._published: set[str] = set()  # result ids published since the last full flush
        self._stop = threading.Event()
        self.client = LeagueClient(
            f"quizbox-league-{box}", host, port, username, password,
            ["league/plan/#", topics.ack_topic(box, "+"), topics.TABLE_TOPIC], self._message, self._connected)
        self.client.start()
        self._timer = threading.Thread(target=self._resend, name="league-resend", daemon=True)
        self._timer.start()

    def _connected(self) -> None:
        self.flush()

    def flush(self) -> int:
        """Publish every result the league has not acknowledged; how many."""
        return self._publish(self.league.pending())

    def _publish(self, results: list[tuple[str, Any]]) -> int:
        for result_id, result in results:
            self.client.publish(topics.result_topic(self.box, result_id), json.dumps(result).encode(), retain=True)
            self._published.add(result_id)
        self.sent += len(results)
        return len(results)

    def _resend(self) -> None:
        waited = 0.0
        while not self._stop.wait(self.poll):
            waited += self.poll
            if not self.client.connected.is_set():
                continue
            if waited >= self.resend:
                waited = 0.0
                self.flush()
            else:  # a night finished since: its result goes out now, not at the next resend
                self._publish([r for r in self.league.pending() if r[0] not in self._published])

    def _message(self, topic: str, payload: bytes) -> None:
        if topic.startswith("league/ack/"):
            result_id = topic.rsplit("/", 1)[1]
            if self.league.delivered(result_id):
                log.info("the league has result %s", result_id)
                self.client.publish(topics.result_topic(self.box, result_id), b"", retain=True)  # clear it here
        elif topic.startswith("league/plan/"):
            if not payload:
                return
            try:
                plan = read_plan(payload)
            except LeagueError as exc:
                log.error("a league plan on %s was refused: %s", topic, exc)
                return
            self.league.save_plan(plan["plan"], plan)
        elif topic == topics.TABLE_TOPIC and self.on_table is not None and payload:  # empty: cleared
            table = json.loads(payload)
            if isinstance(table, list):
                self.on_table(table)

    def close(self) -> None:
        self._stop.set()
        self.client.close()
