"""Estimation poker for a room of 24 in the session (rules.md Estimation poker 13-15): prompts per player at
their table, every table's own action clock, the host's next, a resume from the stored log (the real
SQLite store) in the middle of a hand at a random table and at the final table, and the TV's board view
drawn by the current poker scene at 24 seats."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.flows.poker import PokerFlow
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session

CARDS = [DealtCard(f"e/{i}", {"question": f"Bones in a human body? ({i})", "answer": "206",
                              "hints": ["More than 150.", "Fewer than 250."]}) for i in range(8)]
PLAYERS = [f"Team {n:02d}" for n in range(1, 25)]
SEATS = {p: f"h{n:02d}" for n, p in enumerate(PLAYERS, 1)}


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def _session(store: Store, clock: Clock) -> Session:
    return Session(clock, random.Random(1), store=store, flows=flow_factory)


def _room(tmp_path: Path, options: dict[str, object]) -> tuple[Session, dict[str, Handset], Clock]:
    clock = Clock()
    session = _session(Store(tmp_path / "q.db"), clock)
    session.start_game(GameSetup("poker", PLAYERS, options, CARDS), SEATS)
    return session, _handsets(), clock


def _handsets() -> dict[str, Handset]:
    return {p: Handset(id=SEATS[p], name=p, accepted=True, online=True) for p in PLAYERS}


def _flow(session: Session) -> PokerFlow:
    assert isinstance(session.flow, PokerFlow)
    return session.flow


def _send(session: Session, handset: Handset, kind: str, data: dict[str, object]) -> str:
    prompt, _ = session.prompt_for(handset)
    return session.handle_input(handset.id, prompt["id"], kind, data)


def _ranges(session: Session, hs: dict[str, Handset], winners: tuple[str, ...] = ("Team 01",)) -> None:
    for player in _flow(session).engine.holders():
        prompt = session.prompt_for(hs[player])[0]
        assert prompt["kind"] == "range", (player, prompt)
        low, high = ("200", "210") if player in winners else ("0", "1")
        _send(session, hs[player], "range", {"bottom": low, "top": high})


def test_a_room_of_24_plays_at_three_tables_with_prompts_at_each(tmp_path: Path) -> None:
    session, hs, _ = _room(tmp_path, {"stack": 100, "ante": 10})
    engine = _flow(session).engine
    assert engine.room and [len(t.players) for t in engine.tables] == [8, 8, 8]
    _ranges(session, hs)
    assert engine.phase == "betting"  # every range in at every table: betting starts everywhere together
    assert engine.actors() == {1: "Team 01", 2: "Team 02", 3: "Team 03"}  # each table's first seat
    for player in ("Team 01", "Team 02", "Team 03"):
        assert session.prompt_for(hs[player])[0]["kind"] == "bet"
    assert session.prompt_for(hs["Team 04"])[0]["kind"] == "info"  # table 1's second seat waits for its turn
    _send(session, hs["Team 02"], "bet", {"action": "check"})
    assert session.prompt_for(hs["Team 05"])[0]["kind"] == "bet"  # table 2 moved on; table 1 did not
    assert engine.actors()[1] == "Team 01"
    view = _flow(session).board()
    assert view["seat_numbers"]["Team 24"] == 24 and view["table_of"]["Team 24"] == 3
    assert len(view["table_players"]) == 8 and view["table"] == 1
    assert [t["to_act"] for t in view["tables"]] == ["Team 01", "Team 05", "Team 03"]


def test_every_table_has_its_own_action_clock(tmp_path: Path) -> None:
    session, hs, clock = _room(tmp_path, {"stack": 100, "ante": 10, "action_seconds": 15})
    engine = _flow(session).engine
    _ranges(session, hs)
    clock.now += 10
    _send(session, hs["Team 02"], "bet", {"action": "check"})  # table 2's clock starts again for Team 05
    clock.now += 5.1
    assert session.tick()  # tables 1 and 3 are out of time: their first seats check
    assert engine.actors() == {1: "Team 04", 2: "Team 05", 3: "Team 06"}
    clock.now += 10
    assert session.tick()  # now table 2's Team 05 (15 s since Team 02 checked)
    assert engine.actors()[2] == "Team 08"


def _play_a_while(session: Session, hs: dict[str, Handset], rng: random.Random, steps: int) -> None:
    engine = _flow(session).engine
    for _ in range(steps):
        actors = engine.actors()
        if not actors:
            return
        player = actors[rng.choice(sorted(actors))]
        kinds = [o.kind for o in engine.offered_inputs(player)]
        kind = rng.choice([k for k in kinds if k in ("check", "call", "fold")] or kinds)
        data: dict[str, object] = {"action": kind}
        if kind in ("bet", "raise"):
            data["to"] = next(o.min_to for o in engine.offered_inputs(player) if o.kind == kind)
        _send(session, hs[player], "bet", data)


@pytest.mark.parametrize("seed", range(4))
def test_a_room_hand_resumes_from_the_stored_log_at_a_random_table(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    session, hs, _ = _room(tmp_path, {"stack": 100, "ante": 10})
    _ranges(session, hs)
    _play_a_while(session, hs, rng, rng.randint(1, 20))
    engine = _flow(session).engine
    assert engine.phase == "betting"
    table = rng.choice(sorted(engine.actors()))
    player = engine.actors()[table]
    before_board, before = _flow(session).board(), engine.snapshot()
    prompts = {p: session.prompt_for(hs[p])[0] for p in PLAYERS}
    assert session.store is not None
    session.store.close()

    resumed = _session(Store(tmp_path / "q.db"), Clock())  # a new process, the same file
    assert resumed.resume_stored()
    again = _flow(resumed).engine
    assert again.snapshot() == before and _flow(resumed).board() == before_board
    hs2 = _handsets()
    for p in PLAYERS:
        prompt = resumed.prompt_for(hs2[p])[0]
        assert {k: v for k, v in prompt.items() if k != "id"} == {k: v for k, v in prompts[p].items() if k != "id"}
    kind = "check" if any(o.kind == "check" for o in again.offered_inputs(player)) else "fold"
    _send(resumed, hs2[player], "bet", {"action": kind})  # the hand goes on at that table
    assert again.actors().get(table) != player


def test_the_final_table_resumes_as_it_was(tmp_path: Path) -> None:
    session, hs, _ = _room(tmp_path, {"stack": 20, "ante": 10})
    engine = _flow(session).engine
    _ranges(session, hs, winners=("Team 01", "Team 02", "Team 03"))
    while engine.actors():  # everyone goes all-in; each table's best range takes its pots
        player = next(iter(engine.actors().values()))
        _send(session, hs[player], "bet", {"action": "allin" if player in ("Team 01", "Team 02", "Team 03")
                                           else "call"})
    assert engine.phase == "showdown"
    holders = engine.holders()
    assert holders == ["Team 01", "Team 02", "Team 03"]  # one per table: 3 players hold chips
    session.advance()  # the host's next: question 2 at the final table (rules.md Estimation poker 14)
    assert engine.final and engine.current is not None and engine.current.tables == (tuple(holders),)
    assert engine.actors() == {} and engine.phase == "ranges"
    _send(session, hs[holders[0]], "range", {"bottom": "0", "top": "1000"})
    before = engine.snapshot()
    assert session.store is not None
    session.store.close()
    resumed = _session(Store(tmp_path / "q.db"), Clock())
    assert resumed.resume_stored()
    again = _flow(resumed).engine
    assert again.final and again.snapshot() == before
    assert [t.players for t in again.tables] == [tuple(holders)]


def test_the_poker_scene_draws_a_room_of_24(tmp_path: Path) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from appliance.board.compose import render_png
    from appliance.board.samples import envelope

    session, hs, _ = _room(tmp_path, {"stack": 100, "ante": 10})
    shots = []
    views = [_flow(session).board()]
    _ranges(session, hs)
    views.append(_flow(session).board())
    _send(session, hs["Team 01"], "bet", {"action": "bet", "to": 20})
    views.append(_flow(session).board())
    for view in views:
        json.dumps(view)
        assert len(view["table_players"]) <= 8
        png = render_png(envelope("poker", view, PLAYERS), (1280, 720))
        assert png.startswith(b"\x89PNG")
        shots.append(png)
    (tmp_path / "room-24.png").write_bytes(shots[-1])
