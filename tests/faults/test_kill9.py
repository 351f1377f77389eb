"""kill -9 the appliance at random moments (a seeded RNG) during bot-played games of every kind, 50 times
and more, and restart it each time. Each time it is dead, the store must already hold every input a
handset saw acked (stored before acked) and everything stored before (append only); each time it comes
back, the board must show exactly the game rebuilt from the log, and the handsets must get their prompts
again without saying hello. Each finished game must hold every acked input exactly once, only inputs its
players' own handsets sent, and no chip may be created."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from appliance.broker import MosquittoBroker
from appliance.store import StoredGame
from tests.conftest import connection_of
from tests.faults.checks import chip_trail, match_all, problems, replay
from tests.faults.harness import GAMES, ApplianceProcess, Observer, Player, cards, start_players, wait_until

KILLS = 52
SEED = 8
QUIET = 0.3  # seconds without a change before the quizmaster presses *next*


class Table:
    """One appliance process, its observer and three bot players, killed and restarted by the test."""

    def __init__(self, folder: Path, broker: MosquittoBroker, rng: random.Random) -> None:
        self.rng = rng
        self.box = f"kill{int(time.time() * 1000) % 10**8}"
        conn = connection_of(broker)
        self.app = ApplianceProcess(folder, self.box, broker.port)
        self.observer = Observer(self.box, conn).start()
        self.app.start()
        self.observer.wait_online(0)
        self.players: list[Player] = start_players(self.box, conn, 3, SEED)
        self.kills = 0
        self.startup_kills = 0
        self.resumes_checked = 0
        self._next_sent: tuple[int, float] = (-1, 0.0)
        self._quiet_since: tuple[int, float] = (-1, 0.0)

    def close(self) -> None:
        for player in self.players:
            player.stop()
        self.observer.stop()
        self.app.stop()

    # -- the quizmaster ------------------------------------------------------------------------------

    def drive(self) -> None:
        """Press *next* once the table has been quiet for a moment and there is something to do."""
        board, now = self.observer.board, time.monotonic()
        version = board.get("version", -1)
        if self._quiet_since[0] != version:
            self._quiet_since = (version, now)
        if not board.get("can_advance") or now - self._quiet_since[1] < QUIET:
            return
        sent_version, sent_at = self._next_sent
        if sent_version == version and now - sent_at < 2.0:
            return  # sent for this state already (re-sent after 2 s: a kill may have eaten it)
        self.observer.command(cmd="next")
        self._next_sent = (version, now)

    def start_game(self, game: str, options: dict[str, Any], count: int, folder: Path) -> int:
        previous = self.app.last_game()
        for player in self.players:
            player.forget()
        seats = [{"player": p.player, "handset": p.id} for p in self.players[:count]]
        self.observer.command(cmd="start", game=game, options=options, seats=seats,
                              cards=cards(game, self.rng.randrange(1000), folder))
        wait_until(lambda: (g := self.app.last_game()) is not None and (previous is None or g.id > previous.id),
                   10, f"{game} started")
        started = self.app.last_game()
        assert started is not None and started.game == game
        return started.id

    # -- the power cord ------------------------------------------------------------------------------------

    def kill_and_check(self, game_id: int, stored_before: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """kill -9, check the store, restart (sometimes killing it again while it starts); returns the
        log as stored at the last kill."""
        while True:
            self.app.kill9()
            self.kills += 1
            with self.app.stored() as store:
                game = store.game(game_id)
                assert store.check() == "ok"
            assert game is not None
            # stored before acked: every input a handset saw acked is in the store of the dead appliance
            found = problems(match_all(game, self.players))
            assert not found, f"kill {self.kills}: {found}"
            assert game.log[: len(stored_before)] == stored_before, f"kill {self.kills}: the stored log changed"
            stored_before = game.log
            onlines = self.observer.onlines
            prompts = [len(p.prompts) for p in self.players]
            self.app.start()
            if self.kills < KILLS and self.rng.random() < 0.3:  # again, while it is starting or resuming
                time.sleep(self.rng.uniform(0.05, 1.0))
                self.startup_kills += 1
                continue
            self.observer.wait_online(onlines)
            self._check_resumed(game)
            # the handsets said no hello (their own link never dropped): their prompts came anyway
            self._wait_prompts(prompts)
            return stored_before

    def _wait_prompts(self, before: list[int]) -> None:
        wait_until(lambda: all(len(p.prompts) > n for p, n in zip(self.players, before, strict=True)),
                   5, "every handset's prompt re-sent by the restarted appliance")

    def _check_resumed(self, game: StoredGame) -> None:
        """The first board of the restarted appliance is the stored game, rebuilt exactly."""
        number = self.observer.onlines
        wait_until(lambda: number in self.observer.first_board, 10, "the restarted appliance's first board")
        board = self.observer.first_board[number]
        if game.status == "running":
            assert board["scene"] == "playing" and board["game"] == game.game
            assert board["view"] == json.loads(json.dumps(replay(game).board()))
        else:
            assert board["scene"] == "lobby"
        self.resumes_checked += 1


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(240)
def test_kill_9_at_random_moments_loses_and_doubles_nothing(
    tmp_path: Path, broker: MosquittoBroker, figures: dict[str, Any]
) -> None:
    rng = random.Random(SEED)
    table = Table(tmp_path, broker, rng)
    finished: dict[str, int] = {}
    acked = unacked_applied = 0
    try:
        round_no = 0
        while table.kills < KILLS or len(finished) < len(GAMES):
            game, options, count = GAMES[round_no % len(GAMES)]
            round_no += 1
            assert round_no <= 40, f"only {table.kills} kills in 40 games"
            kills_wanted = rng.randint(3, 7) if table.kills < KILLS else 0
            game_id = table.start_game(game, options, count, tmp_path)
            stored: list[dict[str, Any]] = []
            next_kill = time.monotonic() + rng.uniform(0.1, 1.0)
            deadline = time.monotonic() + 90
            killed_here = 0
            while True:
                assert time.monotonic() < deadline, f"{game} game {game_id} did not finish: {table.observer.board}"
                current = table.app.last_game()
                assert current is not None and current.id == game_id
                if current.status != "running":
                    break
                if killed_here < kills_wanted and table.kills < KILLS and time.monotonic() >= next_kill:
                    before = table.kills
                    stored = table.kill_and_check(game_id, stored)
                    killed_here += table.kills - before
                    next_kill = time.monotonic() + rng.uniform(0.05, 0.8)
                table.drive()
                time.sleep(0.05)
            wait_until(lambda: all(p.settled() for p in table.players), 10, "every input settled")
            done = table.app.last_game()
            assert done is not None and done.status == "finished"
            matches = match_all(done, table.players[:count])
            assert not problems(matches), problems(matches)
            assert done.result == json.loads(json.dumps(replay(done).board()))
            assert done.result == table.observer.board["view"]  # what the TV shows is the stored result
            for m in matches:
                assert m.applied_unacked <= killed_here, m  # an ack can only die with a killed appliance
            trail = chip_trail(done)
            if game == "allin":  # rules.md All In: chips are lost to wrong answers, never created
                assert all(b <= a for a, b in zip(trail, trail[1:], strict=False)), trail
            if game == "poker":
                assert len(set(trail)) == 1, trail
            acked += sum(m.acked for m in matches)
            unacked_applied += sum(m.applied_unacked for m in matches)
            finished[game] = finished.get(game, 0) + 1
        assert table.app.crashes() == []
    finally:
        table.close()
    assert table.kills >= 50
    figures["kill -9 survived"] = table.kills
    figures["kill -9 while starting or resuming"] = table.startup_kills
    figures["games finished under kill -9"] = dict(sorted(finished.items()))
    figures["inputs acked under kill -9 (all found once in the log)"] = acked
    figures["inputs applied whose ack died with the appliance"] = unacked_applied
