"""Restart mosquitto in the middle of a question, again and again: the appliance (a child process) and the
handsets reconnect by themselves, every handset gets its prompt back, and nothing is lost or doubled: each
input acked is in the log once, and every input in the log is acked (the appliance never died, so a lost
ack is re-sent from its memory when the handset re-sends the input with the same seq)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.broker import MosquittoBroker
from firmware import protocol
from tests.faults.checks import match_all, problems
from tests.faults.harness import GAMES, Table, wait_until

RESTARTS = 10
SEED = 11


def _mid_question(table: Table) -> bool:
    """Some handset shows a question it has not answered yet."""
    return any(p.prompt is not None and p.prompt.get("kind") != protocol.INFO and p.settled()
               for p in table.players)


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(180)
def test_broker_restarts_mid_question_lose_and_double_nothing(
    tmp_path: Path, broker: MosquittoBroker, figures: dict[str, Any]
) -> None:
    table = Table(tmp_path, broker.port, SEED, "mqtt")
    restarts = 0
    reconnect_seconds: list[float] = []
    acked = 0
    played: dict[str, int] = {}
    try:
        round_no = 0
        while restarts < RESTARTS:
            game, options, count = GAMES[round_no % len(GAMES)]
            round_no += 1
            assert round_no <= 12, f"only {restarts} broker restarts in 12 games"
            game_id = table.start_game(game, options, count)
            deadline = time.monotonic() + 60
            while True:
                assert time.monotonic() < deadline, f"{game} game {game_id} did not finish: {table.observer.board}"
                current = table.app.last_game()
                assert current is not None and current.id == game_id
                if current.status != "running":
                    break
                if restarts < RESTARTS and _mid_question(table):
                    time.sleep(table.rng.uniform(0.0, 0.15))  # sometimes with inputs on their way
                    onlines = table.observer.onlines
                    prompts = table.prompt_counts()
                    began = time.monotonic()
                    broker.restart()
                    restarts += 1
                    table.observer.wait_online(onlines, timeout=15)
                    wait_until(lambda: all(p.client.connected.is_set() for p in table.players), 15,
                               "every handset reconnected")
                    table.wait_new_prompts(prompts, timeout=10)
                    reconnect_seconds.append(time.monotonic() - began)
                table.drive()
                time.sleep(0.05)
            table.settle()
            done = table.app.last_game()
            assert done is not None and done.status == "finished"
            matches = match_all(done, table.players[:count])
            assert not problems(matches), problems(matches)
            for m in matches:
                assert m.applied_unacked == 0, m
            acked += sum(m.acked for m in matches)
            played[game] = played.get(game, 0) + 1
        assert table.app.alive() and table.app.crashes() == []
    finally:
        table.close()
    figures["broker restarts mid-question"] = restarts
    figures["broker restart: slowest reconnect of appliance and handsets (s)"] = round(max(reconnect_seconds), 2)
    figures["inputs acked across broker restarts (all found once in the log)"] = acked
