"""kill -9 the appliance at random moments (a seeded RNG) during a bot-played quiz night, and restart it
each time (rules.md Quiz night 5). Each time it is dead the store holds a night whose stored log only
grows; each time it comes back the board shows the night (its standing between rounds, or the round in
play); at the end every round's points equal what its own stored game log gives, and the night's
standing is their sum."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.broker import MosquittoBroker
from appliance.flows import flow_factory
from appliance.games.night import FinishRound, NightEngine, StartRound
from appliance.infra.store import Store, StoredNight
from appliance.session.session import setup_from_json
from tests.faults.harness import Table, wait_until
from tests.faults.sizing import sized

SEED = 15
KILLS = sized(12, 6)  # the full count under make faults and outside CI
AT_LEAST = KILLS * 2 // 3
RUNSHEET = [
    {"game": "confident", "options": {"target": 5}, "cards": 8},
    {"game": "allin", "options": {"chips": 5}, "cards": 8, "multiplier": 2},
    {"game": "squizz", "seats": ["Ann", "Bob"], "cards": 3},
]


def stored_night(table: Table) -> StoredNight:
    with table.app.stored() as store:
        nights = store.nights(limit=1)
    assert nights, "no night in the store"
    return nights[0]


def rescored(store: Store, night: StoredNight) -> NightEngine:
    """The night played again with each finished round scored from nothing but its stored game log."""

    engine = NightEngine(night.players, night.options)
    for data in night.log:
        action = engine.action_from_json(data)
        if isinstance(action, FinishRound):
            round_ = engine.playing
            assert round_ is not None
            game = store.game(night.rounds[round_.number])
            assert game is not None
            setup = setup_from_json(game.setup)
            flow = flow_factory(setup.game)(setup, random.Random(0), 0.0)
            flow.restore(game.log, 0.0)
            log = tuple(a.to_json() for a in flow.engine.log)  # type: ignore[attr-defined]
            assert log == action.log, f"round {round_.number}: the night's copy of its log is not the game's"
            action = FinishRound(action.player, log, action.stopped)
        engine.apply(action)
    return engine


def tiebreak(table: Table) -> None:
    """The quizmaster's part of a tie-break (no *next* for it): a card, then a number for each tied player."""
    night = table.observer.board.get("night") or {}
    if table.observer.board.get("scene") not in ("night-tiebreak",):
        return
    if night.get("phase") == "tiebreak":
        table.observer.command(cmd="night_card", question="How many keys has a piano?", answer="88")
    elif night.get("phase") == "card":
        for player in (night.get("cards") or [{}])[-1].get("waiting_for", []):
            table.observer.command(cmd="night_number", player=player, number=str(table.rng.randint(60, 120)))
    time.sleep(0.3)


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(240)
def test_kill_9_during_a_night_keeps_every_round_and_resumes_the_one_in_play(
    tmp_path: Path, broker: MosquittoBroker, figures: dict[str, Any]
) -> None:
    table = Table(tmp_path, broker.port, SEED, "night")
    rng = table.rng
    kills = 0
    try:
        seats = [{"player": p.player, "handset": p.id} for p in table.players]
        for _ in range(10):  # refused while the bots' hellos are still on their way: send it again
            table.observer.command(cmd="night_start", title="Fault night", seats=seats, rounds=RUNSHEET)
            try:
                wait_until(lambda: table.observer.board.get("scene") == "night", 2, "the night's standing")
                break
            except AssertionError:
                continue
        assert table.observer.board.get("scene") == "night", table.observer.board
        previous_log: list[dict[str, Any]] = []
        deadline = time.monotonic() + 200
        next_kill = time.monotonic() + rng.uniform(0.1, 0.7)
        while True:
            assert time.monotonic() < deadline, f"the night did not finish: {table.observer.board}"
            night = stored_night(table)
            if night.status != "running":
                break
            if kills < KILLS and time.monotonic() >= next_kill:
                table.app.kill9()
                kills += 1
                night = stored_night(table)
                with table.app.stored() as store:
                    assert store.check() == "ok"
                assert night.log[: len(previous_log)] == previous_log, f"kill {kills}: the night's log changed"
                previous_log = night.log
                onlines = table.observer.onlines
                table.app.start()
                table.observer.wait_online(onlines)
                wait_until(lambda: "night" in table.observer.board, 10, "the restarted board shows the night")
                next_kill = time.monotonic() + rng.uniform(0.1, 0.7)
            tiebreak(table)
            table.drive()
            time.sleep(0.05)
        assert night.status == "finished"
        with table.app.stored() as store:
            again = rescored(store, night)
            games = [store.game(g) for g in night.rounds.values()]
        assert all(g is not None and g.status == "finished" for g in games)
        assert again.finished and again.phase == "finished"
        played = [a for a in night.log if a["kind"] == StartRound.kind]
        assert len(played) == len(RUNSHEET) == len(again.scored())
        view = table.observer.board.get("night", {})
        assert view.get("standing") == again.standing() and view.get("winners") == again.winners()
        assert sum(again.standing().values()) == sum(sum(r.points.values()) for r in again.scored())
        assert table.app.crashes() == []
    finally:
        table.close()
    assert kills >= AT_LEAST, f"only {kills} kills before the night was over"
    figures["kill -9 during a quiz night survived"] = kills
    figures["quiz night rounds scored from their stored logs"] = len(RUNSHEET)
