"""kill -9 of the appliance and kill -9 of the broker, again and again, on a box whose TV cannot open
(issue 17): every game still finishes from the handsets, every acked input is in the log once, the
board's failure is reported each start and never ends the program, and no start reports a loss that did
not happen (after a plain kill -9 the store holds everything acked: the handsets' claims must agree)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.broker import MosquittoBroker
from tests.faults.checks import match_all, problems
from tests.faults.harness import GAMES, Table, wait_until
from tests.faults.sizing import sized

SEED = 41
APP_KILLS = sized(12, 5)  # the full counts under make faults and outside CI
BROKER_KILLS = sized(6, 3)


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(300)
def test_kill_9_loops_of_box_and_broker_with_the_tv_failing_lose_nothing(
    tmp_path: Path, broker: MosquittoBroker, figures: dict[str, Any]
) -> None:
    table = Table(tmp_path, broker.port, SEED, "loop", display="kmsdrm")
    rng = table.rng
    app_kills = broker_kills = 0
    finished: dict[str, int] = {}
    acked = 0
    try:
        round_no = 0
        while app_kills < APP_KILLS or broker_kills < BROKER_KILLS or len(finished) < 2:
            game, options, count = GAMES[round_no % len(GAMES)]
            round_no += 1
            assert round_no <= 20, f"only {app_kills} + {broker_kills} kills in 20 games"
            game_id = table.start_game(game, options, count)
            next_kill = time.monotonic() + rng.uniform(0.3, 1.2)
            deadline = time.monotonic() + 90
            while (current := table.app.last_game()) is not None and current.status == "running":
                assert current.id == game_id
                assert time.monotonic() < deadline, f"{game} did not finish: {table.observer.board}"
                if time.monotonic() >= next_kill and (app_kills < APP_KILLS or broker_kills < BROKER_KILLS):
                    onlines = table.observer.onlines
                    if broker_kills < BROKER_KILLS and (app_kills >= APP_KILLS or rng.random() < 0.35):
                        os.kill(broker.pid, signal.SIGKILL)  # the broker crashes, the box lives on
                        broker.restart()
                        broker_kills += 1
                    else:
                        table.app.kill9()
                        table.app.start()
                        app_kills += 1
                    table.observer.wait_online(onlines, timeout=20)
                    wait_until(lambda: all(p.client.connected.is_set() for p in table.players), 20, "handsets back")
                    wait_until(lambda: table.app.health().get("parts", {}).get("board", {}).get("ok") is False, 10,
                               "the failing TV reported again")
                    assert not table.app.health().get("recovery", {}).get("found"), table.app.health()["recovery"]
                    next_kill = time.monotonic() + rng.uniform(0.3, 1.5)
                table.drive()
                time.sleep(0.05)
            table.settle()
            done = table.app.last_game()
            assert done is not None and done.status == "finished"
            matches = match_all(done, table.players[:count])
            assert not problems(matches), problems(matches)
            acked += sum(m.acked for m in matches)
            finished[game] = finished.get(game, 0) + 1
        assert table.app.alive(), table.app.tail()
        assert table.app.crashes() == []
        assert not table.app.health().get("recovery", {}).get("found")
    finally:
        table.close()
    figures["no TV: kill -9 of the box"] = app_kills
    figures["no TV: kill -9 of the broker"] = broker_kills
    figures["no TV: games finished"] = dict(sorted(finished.items()))
    figures["no TV: inputs acked (all found once in the log)"] = acked
