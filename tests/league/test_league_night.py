"""A night seats teams the box keeps, and a night from a league plan leaves its result in the outbox in the
transaction that finishes it (rules.md The league 1, 2, 5); payloads refuse bad input, naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from appliance.errors import IllegalAction
from appliance.infra.league_store import LeagueStore, Refused
from appliance.infra.store import Store
from appliance.league.payloads import LeagueError, plan_payload, read_plan, read_result
from tests.night.test_night_session import SEATS, buzz_right, handsets, table

RUNSHEET = [{"game": "buzzer", "title": "Fastest finger", "cards": 2}]


def play(store: Store, plan: str | None, winner: str = "Bob") -> None:
    session, runner = table(store)
    runner.box = "pub-a"
    hs = handsets()
    runner.start(SEATS, RUNSHEET, "League night", league_plan=plan)
    runner.start_round()
    buzz_right(session, hs, winner)
    buzz_right(session, hs, winner)
    assert runner.engine is not None and runner.engine.finished


def test_a_league_night_leaves_one_result_in_the_outbox(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    play(store, "week-1")
    pending = LeagueStore(store).pending()
    assert len(pending) == 1
    result_id, result = pending[0]
    assert result["result_id"] == result_id and result["box"] == "pub-a" and result["plan"] == "week-1"
    # Bob won both questions: 3 night points, Ann and Cat 1 each, sharing second
    assert result["places"] == {"Ann": 2, "Bob": 1, "Cat": 2} and result["points"] == {"Ann": 1, "Bob": 3, "Cat": 1}
    assert [s["team"] for s in result["seats"]] == ["Ann", "Bob", "Cat"] and result["seats"][1]["device"] == "bob"
    assert result["rounds"][0]["game"] == "buzzer" and result["rounds"][0]["places"]["Bob"] == 1
    assert read_result(json.dumps(result).encode(), box="pub-a") == result
    night = store.nights()[0]
    assert night.league_plan == "week-1" and night.teams == {"Ann": "Ann", "Bob": "Bob", "Cat": "Cat"}
    assert LeagueStore(store).delivered(result_id) and not LeagueStore(store).delivered(result_id)
    assert LeagueStore(store).pending() == []


def test_a_night_not_from_a_league_plan_sends_nothing_but_keeps_its_teams(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    play(store, None)
    assert LeagueStore(store).pending() == []
    teams = {t["name"]: t["devices"] for t in LeagueStore(store).teams()}
    assert teams == {"Ann": ["ann"], "Bob": ["bob"], "Cat": ["cat"]}


def test_a_box_without_an_id_cannot_start_a_league_night(tmp_path: Path) -> None:
    _, runner = table(Store(tmp_path / "q.db"))
    with pytest.raises(IllegalAction, match="no id"):
        runner.start(SEATS, RUNSHEET, league_plan="week-1")


def test_the_league_stores_a_result_once_and_refuses_a_team_of_another_box(tmp_path: Path) -> None:
    pub = Store(tmp_path / "pub.db")
    play(pub, "week-1")
    _, result = LeagueStore(pub).pending()[0]
    league = LeagueStore(Store(tmp_path / "league.db"))
    with pytest.raises(Refused, match="not the league's"):
        league.add_result(result)
    league.save_plan("week-1", plan_payload("week-1", "Week 1", RUNSHEET, {}))
    assert league.add_result(result) is True
    assert league.add_result(result) is False and league.count_results() == 1
    other = {**result, "result_id": "pub-b-n1-x", "box": "pub-b"}
    with pytest.raises(Refused, match="'Ann' plays for pub-a"):
        league.add_result(other)
    assert league.count_results() == 1


@pytest.mark.parametrize(("raw", "says"), [
    (b"\xff", "not JSON"),
    (b"[]", "JSON object"),
    (b'{"v": 2}', "version"),
    (b'{"v": 1, "result_id": "a/b", "box": "x", "plan": "p"}', "result_id"),
    (b'{"v": 1, "result_id": "r", "box": "x", "plan": "p", "places": {"A": 3}, "points": {"A": 1}, '
     b'"rounds": [], "seats": []}', "places run from 1"),
])
def test_a_bad_result_is_refused_naming_what_is_wrong(raw: bytes, says: str) -> None:
    with pytest.raises(LeagueError, match=says):
        read_result(raw)


def test_a_result_signed_by_another_box_is_refused() -> None:
    raw = json.dumps({"v": 1, "result_id": "r", "box": "pub-b", "plan": "p", "places": {"A": 1},
                      "points": {"A": 1}, "rounds": [], "seats": []}).encode()
    with pytest.raises(LeagueError, match="came from box 'pub-a'"):
        read_result(raw, box="pub-a")


def test_a_bad_plan_is_refused_naming_the_round() -> None:
    with pytest.raises(LeagueError, match="round 1: unknown round key"):
        read_plan(b'{"v": 1, "plan": "w1", "rounds": [{"game": "buzzer", "colour": 1}]}')
    with pytest.raises(LeagueError, match="deck 'd1'"):
        read_plan(b'{"v": 1, "plan": "w1", "rounds": [{"game": "buzzer", "deck": "d1"}]}')


def test_a_box_from_before_the_league_keeps_its_nights_when_it_upgrades(tmp_path: Path) -> None:
    import sqlite3

    from appliance.infra.store import MIGRATIONS

    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:3]:
        db.executescript(script)
    db.execute("PRAGMA user_version = 3")
    db.execute("INSERT INTO nights (title, players, seats, options, status, started) "
               "VALUES ('Old', '[\"A\", \"B\"]', '{}', '{}', 'finished', 1)")
    db.commit()
    db.close()
    store = Store(path)
    night = store.nights()[0]
    assert night.title == "Old" and night.teams == {} and night.league_plan is None
    assert LeagueStore(store).teams() == [] and LeagueStore(store).pending() == []
