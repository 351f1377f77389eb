"""The league box's service (docs/league.md): it stores each member's results once by result id, acks
them, publishes the plans and the season table, and makes members and their one-time join codes.

It connects to the league's own broker with a persistent session (results that arrive while it is down
wait in the broker) and reads results from ``league/result/<box>/<result id>``: the broker's rights let
only box <box> write there (appliance/league/topics.py), and the result must say the same box
(rules.md The league 5). A refused result is logged and dropped; nothing stored changes.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
from typing import Any

from appliance.edge.accounts import AccountsError, Dynsec
from appliance.infra.league_store import LeagueStore, Refused
from appliance.league import topics
from appliance.league.client import LeagueClient
from appliance.league.joincode import JoinCode, new_code, secret_hash
from appliance.league.payloads import LeagueError, read_result
from appliance.league.table import NightPlaces, season

log = logging.getLogger(__name__)


class LeagueService:
    def __init__(self, league: LeagueStore, host: str, port: int, username: str, password: str,
                 dynsec: Dynsec | None = None) -> None:
        self.league, self.dynsec = league, dynsec
        self.received = 0
        self.refused: list[str] = []
        self.client = LeagueClient("quizbox-league-service", host, port, username, password,
                                   [topics.RESULTS_FILTER], self._message)
        self.client.start()

    def _message(self, topic: str, payload: bytes) -> None:
        self.received += 1
        parts = topic.split("/")
        if len(parts) != 4 or not payload:
            return  # a member clearing its retained copy
        box, result_id = parts[2], parts[3]
        try:
            result = read_result(payload, box=box)
            if result["result_id"] != result_id:
                raise LeagueError(f"result {result['result_id']} was sent as {result_id}")
            new = self.league.add_result(result)
        except (LeagueError, Refused) as exc:
            self.refused.append(str(exc))
            log.error("a result was refused: %s", exc)
            return
        self.client.publish(topics.ack_topic(box, result_id), b"1", retain=True)
        if new:
            self.publish_table()

    def table(self) -> list[dict[str, Any]]:
        nights = [NightPlaces(r["result_id"], r["box"], r["places"]) for r in self.league.results()]
        return [dataclasses.asdict(row) for row in season(nights)]

    def results(self) -> list[dict[str, Any]]:
        return self.league.results()

    def publish_table(self) -> None:
        self.client.publish(topics.TABLE_TOPIC, json.dumps(self.table()).encode(), retain=True)

    def publish_plan(self, plan: dict[str, Any]) -> None:
        """Keep ``plan`` (read by appliance.league.payloads.read_plan) and send it to every member (retained)."""
        self.league.save_plan(plan["plan"], plan)
        self.client.publish(topics.plan_topic(plan["plan"]), json.dumps(plan).encode(), retain=True)

    def invite(self, box: str, url: str, ca_pem: str) -> JoinCode:
        """A one-time join code for member ``box`` (a new one replaces an unused old one)."""
        code = new_code(url, box, ca_pem)
        self.league.add_member(box, secret_hash(code.secret))
        return code

    def redeem(self, box: str, secret: str) -> str:
        """Use ``box``'s join code: its league account is made now, with a fresh password, which is
        returned (once). Refused if the code is wrong or used."""
        if self.dynsec is None:
            raise LeagueError("this league service cannot make accounts (no connection to the plugin)")
        self.league.redeem(box, secret_hash(secret))
        password = secrets.token_urlsafe(24)
        try:
            self.dynsec.run(topics.member_commands(box, password))
        except AccountsError:
            self.league.add_member(box, secret_hash(secret))  # the code still works: nothing was made
            raise
        return password

    def close(self) -> None:
        self.client.close()
