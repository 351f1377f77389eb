"""Three real mosquitto brokers on loopback (the league's and two pubs'), the bridges written by the
installer's code (TLS with a CA made here): two pubs play a night each from one league plan, the league's
broker is killed while the second pub finishes and comes back, a pub's broker is killed with SIGKILL before
its bridge delivered; every result is stored once, and a member's account cannot write another pub's
results or read its traffic (rules.md The league 1-5)."""

from __future__ import annotations

import json
import shutil
import ssl
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.edge.handsets import Handset
from appliance.infra.league_store import LeagueStore
from appliance.infra.store import Store
from appliance.league import topics
from appliance.league.joincode import check_answer, parse_code
from appliance.league.member import MemberLink
from appliance.league.payloads import plan_payload
from appliance.league.service import LeagueService
from tests.conftest import _need_mosquitto
from tests.league.brokers import APPLIANCE, LEAGUE_PASSWORD, League, Pub, wait_until
from tests.night.test_night_session import buzz_right, table

pytestmark = [pytest.mark.mqtt, pytest.mark.timeout(120)]
PLAN = plan_payload("week-1", "Week 1", [{"game": "buzzer", "title": "Fastest finger", "cards": 3}], {})


@pytest.fixture
def base() -> Iterator[Path]:
    """Not pytest's tmp_path: its parents are root's alone, and mosquitto drops root when it starts."""
    path = Path(tempfile.mkdtemp(prefix="quizbox-league-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def league(base: Path) -> Iterator[tuple[League, LeagueService]]:
    _need_mosquitto()
    league = League(base / "league")
    service = LeagueService(league.store, "127.0.0.1", league.broker.port, topics.SERVICE_USER, LEAGUE_PASSWORD,
                            league.dynsec)
    service.client.wait(10)
    yield league, service
    service.close()
    league.stop()


def join(tmp_path: Path, league: League, service: LeagueService, box: str) -> Pub:
    """The member side of a join: the code as the league's page shows it, redeemed once."""
    code = parse_code(service.invite(box, "http://league.invalid", league.ca_pem).text())
    answer = {"host": "127.0.0.1", "port": league.tls_port, "ca": league.ca_pem,
              "password": service.redeem(code.box, code.secret)}
    return Pub(tmp_path / box, box, league, check_answer(code, answer)["password"])


def link(pub: Pub, store: Store | None = None) -> MemberLink:
    league = LeagueStore(store) if store is not None else pub.league
    member = MemberLink(league, pub.box, "127.0.0.1", pub.broker.port, *APPLIANCE, resend=1.0)
    member.client.wait(10)
    return member


def play(pub: Pub, store: Store, teams: list[str], rights: list[str]) -> None:
    """A league night of one buzzer round from the plan; ``rights`` says who answers each card right."""
    session, runner = table(store)
    runner.box = pub.box
    hs = {t: Handset(id=t.lower(), name=t, accepted=True, online=True) for t in teams}
    plan = pub.league.plan("week-1")
    assert plan is not None
    runner.start({t: t.lower() for t in teams}, plan["rounds"], plan["title"], league_plan="week-1")
    runner.start_round()
    for team in rights:
        buzz_right(session, hs, team)
    assert runner.engine is not None and runner.engine.finished


def test_two_pubs_one_plan_an_outage_and_a_killed_pub(base: Path, league: tuple[League, LeagueService]) -> None:
    lg, service = league
    pub_a, pub_b = join(base, lg, service, "pub-a"), join(base, lg, service, "pub-b")
    service.publish_plan(PLAN)
    link_a, link_b = link(pub_a), link(pub_b)
    for pub in (pub_a, pub_b):  # the plan comes in over each bridge
        wait_until(lambda p=pub: p.league.plan("week-1"), 15, f"the plan at {pub.box}")

    play(pub_a, pub_a.store, ["Owls", "Foxes", "Bats"], ["Owls", "Owls", "Foxes"])
    link_a.flush()
    wait_until(lambda: lg.store.count_results() == 1, 15, "pub-a's first result at the league")
    wait_until(lambda: pub_a.league.pending() == [], 15, "the league's ack at pub-a")

    lg.broker.kill()  # the league's broker dies before pub-b finishes
    play(pub_b, pub_b.store, ["Cats", "Dogs", "Emus"], ["Dogs", "Cats", "Dogs"])
    link_b.flush()
    time.sleep(3)  # the outage (the 30 s shortened: the bridge retries every 1-2 s here)
    assert lg.store.count_results() == 1
    lg.broker.restart()
    back = time.monotonic()
    wait_until(lambda: lg.store.count_results() == 2, 30, "pub-b's result after the league came back")
    print(f"\nresult delivered {time.monotonic() - back:.2f} s after the league's broker came back")
    wait_until(lambda: pub_b.league.pending() == [], 15, "the league's ack at pub-b")

    # the same result sent again (its retained copy, by the box itself) is stored once
    seen = service.received
    _, again = lg.store.results()[1]["result_id"], lg.store.results()[1]
    link_b.client.publish(topics.result_topic("pub-b", again["result_id"]), json.dumps(again).encode(), retain=True)
    wait_until(lambda: service.received > seen, 15, "the re-sent result at the league")
    assert lg.store.count_results() == 2

    # pub-a finishes a second night while the league is down, and is killed before its bridge delivered
    lg.broker.kill()
    play(pub_a, pub_a.store, ["Owls", "Foxes", "Bats"], ["Bats", "Bats", "Foxes"])
    link_a.flush()
    link_a.close()  # the box's program is gone...
    pub_a.broker.kill()  # ...and its broker with SIGKILL, the result queued in it
    pub_a.store.close()
    lg.broker.restart()
    pub_a.broker.restart()
    store = Store(pub_a.dir / "pub.db")  # the box starts again from its files
    link_a = link(pub_a, store)
    wait_until(lambda: lg.store.count_results() == 3, 30, "pub-a's second result after its restart")
    wait_until(lambda: LeagueStore(store).pending() == [], 15, "the ack at pub-a after its restart")
    time.sleep(2.5)  # two more resend periods: nothing is counted twice
    assert lg.store.count_results() == 3
    assert sorted(r["box"] for r in lg.store.results()) == ["pub-a", "pub-a", "pub-b"]

    # rules.md The league 3-4, by hand: pub-a night 1 Owls 100, Foxes 50, Bats 0; pub-b Dogs 100, Cats 50,
    # Emus 0; pub-a night 2 Bats 100, Foxes 50, Owls 0. Bats, Dogs, Owls: 100 and one night won each;
    # Foxes 100 without a win; then Cats 50, Emus 0.
    rows = [(r["place"], r["team"], r["points"], r["wins"]) for r in service.table()]
    assert rows == [(1, "Bats", 100, 1), (1, "Dogs", 100, 1), (1, "Owls", 100, 1), (4, "Foxes", 100, 0),
                    (5, "Cats", 50, 0), (6, "Emus", 0, 0)]
    link_a.close()
    link_b.close()


class Probe:
    """A client logged in to the league's broker over TLS as member ``box`` (its bridge's account)."""

    def __init__(self, lg: League, box: str, password: str) -> None:
        self.granted: dict[int, list[bool]] = {}
        self.got: list[str] = []
        self.done = threading.Event()
        paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=topics.bridge_client_id(box), protocol=mqtt.MQTTv311)
        paho.username_pw_set(box, password)
        paho.tls_set(ca_certs=str(lg.dir / "tls" / "ca.pem"), cert_reqs=ssl.CERT_REQUIRED)
        paho.on_subscribe = self._subscribed
        paho.on_message = lambda c, u, m: self.got.append(m.topic)
        paho.connect("127.0.0.1", lg.tls_port)
        paho.loop_start()
        self.paho = paho

    def _subscribed(self, client: Any, userdata: object, mid: int, reasons: Any, properties: object) -> None:
        self.granted[mid] = [not r.is_failure for r in reasons]

    def subscribe(self, topic: str) -> bool:
        _, mid = self.paho.subscribe(topic, qos=1)
        wait_until(lambda: mid in self.granted, 10, f"the answer to subscribing {topic}")
        return self.granted[mid][0]


def test_a_member_cannot_write_another_pubs_results_or_read_its_traffic(
        league: tuple[League, LeagueService]) -> None:
    lg, service = league
    passwords = {}
    for box in ("pub-a", "pub-b"):
        code = service.invite(box, "http://league.invalid", lg.ca_pem)
        passwords[box] = service.redeem(box, code.secret)
    service.publish_plan(PLAN)
    rogue = Probe(lg, "pub-a", passwords["pub-a"])
    assert rogue.subscribe("league/plan/#") is True
    assert rogue.subscribe("league/ack/pub-a/#") is True
    assert rogue.subscribe("league/result/#") is False
    assert rogue.subscribe("league/ack/pub-b/#") is False
    assert rogue.subscribe("league/#") is False
    fake = plan_payload("week-1", "x", [{"game": "buzzer"}], {})  # any payload: the broker drops it unread
    seen = service.received
    rogue.paho.publish(topics.result_topic("pub-b", "pub-b-n9-forged"), str(fake).encode(), qos=1).wait_for_publish(5)
    rogue.paho.publish(topics.plan_topic("week-2"), b"{}", qos=1).wait_for_publish(5)
    # a message the member may send arrives, so the ones before it would have too
    rogue.paho.publish(topics.result_topic("pub-a", "probe"), b"", qos=1).wait_for_publish(5)
    wait_until(lambda: service.received > seen, 10, "pub-a's own (empty) message at the league")
    assert service.received == seen + 1 and lg.store.count_results() == 0
    assert lg.store.plan("week-2") is None and not [t for t in rogue.got if "week-2" in t]
    assert all(t.startswith(("league/plan/", "league/ack/pub-a/")) for t in rogue.got)
    rogue.paho.disconnect()
    rogue.paho.loop_stop()
    # a used join code, or a made-up one, gets nothing
    from appliance.infra.league_store import Refused

    with pytest.raises(Refused, match="used already"):
        service.redeem("pub-a", "not-the-secret")
