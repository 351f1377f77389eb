"""What the fault tests are made of: the appliance as a real child process (so ``kill -9`` is real), an
observer that sees what the TV and the admin page see and sends the quizmaster's commands, and bot
handsets (the firmware's handset core over MQTT) that keep a record of every input they sent and every
ack they got."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.box.sim import SimHandset
from appliance.decks.deal import cards_for_game, seed_shipped
from appliance.edge.mqtt import Client, Connection
from appliance.flows import flow_factory
from appliance.infra.store import Store, StoredGame
from firmware import protocol
from firmware.core import bot as chooser
from firmware.core import handset as core

REPO = Path(__file__).resolve().parents[2]
# the checkout whose appliance the child process runs: another one (an older commit) shows a test fails there
APPLIANCE_REPO = Path(os.environ.get("QUIZBOX_FAULT_APPLIANCE_REPO") or REPO)
QUIET = 0.3  # seconds without a change on the board before the quizmaster presses *next*
PATIENCE = 10.0  # seconds a quiet table asking its players for something waits before *next* closes it
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")

# (game, options, players): short games, so that a run sees many of them
GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("confident", {"target": 4}, 3),
    ("allin", {"chips": 4}, 3),
    ("squizz", {}, 3),
]


def poker_ready() -> bool:
    """Whether this checkout has the poker flow yet (it was being written next to these tests)."""
    try:
        flow_factory("poker")
    except Exception:
        return False
    return True


if poker_ready():
    GAMES.append(("poker", {}, 3))


def wait_until(predicate: Callable[[], bool], timeout: float, what: str, step: float = 0.02) -> None:
    """Poll ``predicate`` until it holds; AssertionError naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(step)


class ApplianceProcess:
    """``python -m appliance run --config <toml>`` in a child process, restarted as often as a test likes."""

    def __init__(self, folder: Path, box: str, port: int, data_dir: Path | None = None,
                 display: str = "headless") -> None:
        self.folder = folder
        self.box = box
        self.data_dir = data_dir or folder / "data"
        self.config = folder / "quizbox.toml"
        self.config.write_text(
            f'[box]\nid = "{box}"\nname = "Fault Pub"\ndata_dir = "{self.data_dir}"\njoin = "open"\n'
            f'[broker]\nhost = "127.0.0.1"\nport = {port}\n'
            f'[board]\ndisplay = "{display}"\nwidth = 640\nheight = 360\n',
            encoding="utf-8",
        )
        self.log_path = folder / "appliance.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0

    @property
    def db(self) -> Path:
        return self.data_dir / "quizbox.db"

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {self.starts + 1}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "appliance", "run", "--config", str(self.config)],
                cwd=APPLIANCE_REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
        self.starts += 1

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        """SIGKILL: no clean-up, no goodbye, as when the plug is pulled."""
        assert self.proc is not None
        assert self.alive(), f"the appliance died by itself (exit {self.proc.returncode}): {self.tail()}"
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.kills += 1

    def stop(self) -> None:
        if self.proc is not None and self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def crashes(self) -> list[str]:
        """Tracebacks the appliance logged: a handler, the session or the store failing on its own."""
        return [chunk[:400] for chunk in self.log().split("Traceback (most recent call last):")[1:]]

    def health(self) -> dict[str, Any]:
        """What the appliance says of its optional parts and its last recovery (``health.json``); {} while
        there is none or it is being written."""
        try:
            data: dict[str, Any] = json.loads((self.data_dir / "health.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data

    def stored(self) -> Store:
        """The appliance's database, opened read-only by this process (SQLite WAL: safe while it runs)."""
        return Store(f"file:{self.db}?mode=ro")

    def last_game(self) -> StoredGame | None:
        with self.stored() as store:
            games = store.games(limit=1)
        return games[0] if games else None


class Observer:
    """The TV's and the admin page's view of the box: appliance status, the board, the admin state;
    sends the quizmaster's commands."""

    def __init__(self, box: str, connection: Connection) -> None:
        self.box = box
        self.cond = threading.Condition()
        self.onlines = 0  # "online" announcements of the appliance seen live
        self.status = ""
        self.board: dict[str, Any] = {}
        self.admin: dict[str, Any] = {}
        self.first_board: dict[int, dict[str, Any]] = {}  # the first board after the n-th "online"
        self.client = Client(
            f"observer-{box}-{time.monotonic_ns()}",
            connection,
            self._on,
            subscriptions=[protocol.appliance_status_topic(box), protocol.board_topic(box),
                           protocol.admin_state_topic(box)],
        )

    def start(self) -> Observer:
        self.client.start()
        return self

    def stop(self) -> None:
        self.client.stop()

    def _on(self, topic: str, payload: bytes) -> None:
        with self.cond:
            if topic == protocol.appliance_status_topic(self.box):
                self.status = payload.decode()
                if self.status == protocol.ONLINE:
                    self.onlines += 1
            elif topic == protocol.board_topic(self.box):
                self.board = json.loads(payload)
                if self.status == protocol.ONLINE:
                    self.first_board.setdefault(self.onlines, self.board)
            else:
                self.admin = json.loads(payload)
            self.cond.notify_all()

    def command(self, **command: Any) -> None:
        self.client.publish(protocol.admin_command_topic(self.box), json.dumps(command))

    def wait_online(self, after: int, timeout: float = 20.0) -> None:
        """Until the appliance announced itself more than ``after`` times and is online."""
        with self.cond:
            ok = self.cond.wait_for(lambda: self.onlines > after and self.status == protocol.ONLINE, timeout)
        assert ok, f"the appliance did not come online within {timeout} s"


@dataclass
class Sent:
    seq: int
    prompt: str
    kind: str
    data: dict[str, Any]
    acked: bool = False  # an ok ack came back
    refused: bool = False


class Player(SimHandset):
    """A bot handset that plays like a person looking at the screen: it answers each input prompt once,
    tries again after a refusal, and keeps the firmware core's clock ticking (the core re-sends an
    unacknowledged input every RESEND_MS, as the ESP32 and Pi Zero loops do)."""

    def __init__(self, box: str, handset_id: str, connection: Connection, name: str, seed: int,
                 think: tuple[float, float] = (0.0, 0.08)) -> None:
        super().__init__(box, handset_id, connection, name=name)
        self.player = name
        self.dice = random.Random(seed)
        self.think_range = think
        self.sent: list[Sent] = []
        self.tries: dict[str, int] = {}
        self.paused = False
        self._cut = False
        self._next_at = 0.0
        self._running = threading.Event()
        self._loop = threading.Thread(target=self._play_loop, name=f"player-{handset_id}", daemon=True)

    def start(self, wait: float = 10.0) -> Player:
        super().start(wait)
        self._running.set()
        self._loop.start()
        return self

    def stop(self, clean: bool = True) -> None:
        if self._cut:
            return
        self._running.clear()
        if self._loop.is_alive():
            self._loop.join(timeout=2)
        super().stop(clean)

    def power_cut(self) -> None:
        """The battery falls out: no DISCONNECT (the broker publishes the last will), and what the handset
        held in RAM (its seq, its screen, an input waiting for its ack) is gone with it."""
        self._cut = True
        self._running.clear()
        self.client.paho.loop_stop()
        sock = self.client.paho.socket()
        if sock is not None:
            sock.close()
        if self._loop.is_alive() and self._loop is not threading.current_thread():
            self._loop.join(timeout=2)

    def _message(self, topic: str, payload: bytes) -> None:
        super()._message(topic, payload)
        if not topic.endswith("/ack"):
            return
        try:
            ack = protocol.parse_ack(protocol.decode(payload))
        except protocol.ProtocolError:
            return
        with self.changed:
            for sent in self.sent:
                if sent.seq == ack["seq"] and sent.prompt == ack["prompt"]:
                    if ack["ok"]:
                        sent.acked = True
                    else:
                        sent.refused = True

    def _play_loop(self) -> None:
        while self._running.is_set():
            with self.changed:
                self.core.tick()
                self._maybe_answer()
            time.sleep(0.01)

    def _maybe_answer(self) -> None:
        h, prompt = self.core, self.core.prompt
        if self.paused or prompt is None or prompt.get("kind") == protocol.INFO or h.pending is not None:
            return
        if h.view not in (core.VIEW_EDIT, core.VIEW_REFUSED):
            return
        now = time.monotonic()
        tries = self.tries.get(prompt["id"], 0)
        if tries == 0 or h.view == core.VIEW_REFUSED:
            if self._next_at == 0.0:
                self._next_at = now + self.dice.uniform(*self.think_range)
            if now < self._next_at or tries >= 4:
                return
            self._next_at = 0.0
            data = chooser.choose(prompt, self.dice)
            if data is None:
                return
            self.tries[prompt["id"]] = tries + 1
            seq = h.submit(data)
            self.sent.append(Sent(seq, prompt["id"], prompt["kind"], data))

    def settled(self) -> bool:
        """No input waits for its ack."""
        with self.changed:
            return self.core.pending is None

    def forget(self) -> None:
        """Start a new record (a new game)."""
        with self.changed:
            self.sent = []


class Table:
    """One appliance process, its observer and three bot players; the quizmaster's part is :meth:`drive`."""

    def __init__(self, folder: Path, port: int, seed: int, prefix: str, data_dir: Path | None = None,
                 display: str = "headless", players: int = 3) -> None:
        self.folder = folder
        self.rng = random.Random(seed)
        self.box = f"{prefix}{int(time.time() * 1000) % 10**8}"
        conn = Connection("127.0.0.1", port)
        self.connection = conn
        self.app = ApplianceProcess(folder, self.box, port, data_dir, display)
        self.observer = Observer(self.box, conn).start()
        self.app.start()
        self.observer.wait_online(0)
        self.players: list[Player] = start_players(self.box, conn, players, seed)
        self._next_sent: tuple[int, float] = (-1, 0.0)
        self.send_next: Callable[[], None] = lambda: self.observer.command(cmd="next")  # the quizmaster's *next*
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
        if board.get("waiting") and now - self._quiet_since[1] < PATIENCE:
            return  # the players are being asked: give them (and a restarted box) time before closing
        sent_version, sent_at = self._next_sent
        if sent_version == version and now - sent_at < 2.0:
            return  # sent for this state already (re-sent after 2 s: a kill may have eaten it)
        self.send_next()
        self._next_sent = (version, now)

    def start_game(self, game: str, options: dict[str, Any], count: int) -> int:
        previous = self.app.last_game()
        for player in self.players:
            player.forget()
        seats = [{"player": p.player, "handset": p.id} for p in self.players[:count]]
        self.observer.command(cmd="start", game=game, options=options, seats=seats,
                              cards=cards(game, self.rng.randrange(1000), self.folder))
        wait_until(lambda: (g := self.app.last_game()) is not None and (previous is None or g.id > previous.id),
                   10, f"{game} started")
        started = self.app.last_game()
        assert started is not None and started.game == game
        return started.id

    def prompt_counts(self) -> list[int]:
        return [len(p.prompts) for p in self.players]

    def wait_new_prompts(self, before: list[int], timeout: float = 10.0) -> None:
        """Until every handset got a prompt since ``before`` (:meth:`prompt_counts`)."""
        wait_until(lambda: all(len(p.prompts) > n for p, n in zip(self.players, before, strict=True)),
                   timeout, "every handset's prompt sent again")

    def settle(self) -> None:
        wait_until(lambda: all(p.settled() for p in self.players), 10, "every input settled")

def start_players(box: str, connection: Connection, count: int, seed: int) -> list[Player]:
    players = []
    for i in range(count):
        name = NAMES[i] if i < len(NAMES) else f"Team {i + 1:02d}"  # a room has more than the six names
        players.append(Player(box, f"fh{i + 1}", connection, name, seed * 100 + i).start())
    return players


def cards(game: str, seed: int, folder: Path) -> list[dict[str, Any]]:
    """Cards from the shipped decks for ``game``, as the start command carries them."""
    with Store(folder / f"decks-{game}.db") as store:
        seed_shipped(store)
        drawn = cards_for_game(store, game, random.Random(seed), limit=40)
    return [{"id": c.id, **c.fields} for c in drawn]
