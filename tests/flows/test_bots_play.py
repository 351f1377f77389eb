"""End to end, per game: from set-up to a winner with bot handsets (the firmware's handset core playing
random legal inputs) over a real mosquitto, the game stored as it goes and its stored log replaying to
the same result."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from appliance.box.sim import SimHandset
from appliance.decks.deal import cards_for_game, seed_shipped
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.flows import flow_factory
from appliance.infra.store import Store
from appliance.session.session import Session, setup_from_json
from tests.conftest import connection_of

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("confident", {"target": 6}, 4),
    ("allin", {"chips": 6}, 4),
    ("squizz", {}, 3),
    ("poker", {"stack": 60, "ante": 10, "ante_every": {"questions": 3}}, 3),
]


@pytest.mark.parametrize(("game", "options", "players"), GAMES, ids=[g for g, _, _ in GAMES])
def test_bots_play_a_whole_game(mosquitto: MosquittoBroker, box_id: str, tmp_path: Path,
                                game: str, options: dict[str, Any], players: int) -> None:
    store = Store(tmp_path / "q.db")
    seed_shipped(store)
    cards = cards_for_game(store, game, random.Random(7), limit=60)
    session = Session(time.monotonic, random.Random(7), store=store, flows=flow_factory)
    session.auto_advance = 0.05
    conn = connection_of(mosquitto)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"][:players]
    with Hub(box_id, session, conn, store=store, tick_interval=0.02) as hub:
        bots = [SimHandset(box_id, f"b{i}", conn, name=n, bot_seed=i, think=(0.0, 0.01)).start()
                for i, n in enumerate(names)]
        try:
            for bot in bots:
                bot.wait_prompt("info")
            hub.command({"cmd": "start", "game": game, "options": options,
                         "cards": [{"id": c.id, **c.fields} for c in cards]})
            deadline = time.monotonic() + 120
            while session.state != "results" and time.monotonic() < deadline:
                time.sleep(0.1)
            with hub.outbox:  # the hub's threads have finished storing
                assert session.state == "results", session.flow.board() if session.flow else None
                flow = session.flow
                assert flow is not None and flow.finished
                view = flow.board()
                assert view["winners"] and set(view["winners"]) <= set(names)
                stored = store.game(session.game_id)  # type: ignore[arg-type]
                assert stored is not None and stored.status == "finished" and stored.log == flow.log()
                inputs = [e for e in stored.log if e.get("player")]
                assert inputs and {e["player"] for e in inputs} <= set(names)
            # the stored game replays to the same end (what resuming after a power cut relies on)
            replayed = flow_factory(game)(setup_from_json(stored.setup), random.Random(0), 0.0)
            replayed.restore(stored.log, 0.0)
            assert replayed.board() == view
            for bot in bots:
                bot.wait_for(lambda h: h.prompt is not None and h.prompt["title"] == "Game over")
        finally:
            for bot in bots:
                bot.stop()
