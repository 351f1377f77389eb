"""The largest prompt a handset gets and the largest retained board the TV gets, every game at 40 seats.

    python bench/sizes.py [--seats 40] [--games GAME ...] [--names ascii accented] [--limit BYTES]
                          [--json out.json]

For every game (Confident? plain and in each of its variants, two_players at the 2 seats it is for;
Estimation poker, whose 40 seats play at room tables of 8 until a final table; All In; sQuizz; the buzzer
round) a real hub and session (appliance/edge/hub.py) seat ``--seats`` handsets named with
protocol.MAX_NAME characters each, once of ASCII letters and once of accented ones (JSON writes each as
six bytes: the largest a name makes a message), and play a whole game to its results, dealt the shipped
decks' 30 longest cards (a game ends at its target or when its cards run out; random players seldom reach
a target under minus_points): the handsets are the firmware's bot (firmware/core/bot.py: a random legal
input from each prompt, as the simulated handsets play), their hellos and inputs handed to
``Hub.on_message`` as paho would; the quizmaster's *next* (and the buzzer's right / wrong) are admin
commands. The hub's MQTT client is swapped for a recorder (as bench/cpu.py does): what it records is what
the hub hands to paho, byte for byte, on the same topics (each prompt as protocol.encode or the session's
one serialisation of it made it; the board as the hub writes it, retained). No broker: the hub's publisher
thread is not started, so every board state the game goes through is published and measured (over MQTT the
hub paces boards, STATE_BURST, and may skip a state a later one replaces, which would make the largest one
a matter of timing).

Printed per game: the largest prompt sent (bytes, its kind) against protocol.MAX_PAYLOAD (the limit
named once in firmware/protocol.py, an ESP32's RAM); the largest prompt as the game built it, before the
hub fitted it, and how many were built over the limit (appliance/edge/prompts.py then shortens what is
for reading, the text first, keeping every option a handset acts on: "cut"); the largest retained board
state (bytes, its scene) against the box broker's message_size_limit (appliance/edge/broker.py
MESSAGE_SIZE_LIMIT: mosquitto drops anything bigger), and the largest admin state (retained too, under
the same limit). The exit status is 1 when a prompt sent is over the limit or the hub could not fit one
(it sent "Too much to show" instead), a retained state is over the broker's limit, or a game did not
reach its results.

There is no timing here: sizes are deterministic (seeded bots, a fake clock), so there is no baseline and
no ratio.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import random
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.decks.deal import DECK_TYPE, card_fields  # noqa: E402
from appliance.decks.shipped import shipped_decks  # noqa: E402
from appliance.edge.broker import MESSAGE_SIZE_LIMIT  # noqa: E402
from appliance.edge.handsets import Handset  # noqa: E402
from appliance.edge.hub import Hub  # noqa: E402
from appliance.edge.mqtt import Connection  # noqa: E402
from appliance.errors import QuizboxError  # noqa: E402
from appliance.flows import flow_factory  # noqa: E402
from appliance.games.confident.options import Variant  # noqa: E402
from appliance.session.session import Session  # noqa: E402
from firmware import protocol  # noqa: E402
from firmware.core import bot  # noqa: E402

BOX = "sizes"
CARDS = 30
"""Cards a game is dealt: a game ends at its target or when its cards run out (the results either way);
random players under Confident?'s minus_points seldom reach a target at all."""
MAX_STEPS = 5000  # rounds of the table (every seat's input, then the host's step): a game ends long before


@dataclass(frozen=True)
class Game:
    label: str
    game: str
    options: dict[str, Any]
    seats: int | None = None  # None: the bench's --seats


def games() -> list[Game]:
    """Every game and variant the bench plays."""
    confident = [Game("confident", "confident", {"target": 15})]
    confident += [Game(f"confident {v.value}", "confident", {"target": 15, "variants": [v.value]},
                       2 if v is Variant.TWO_PLAYERS else None) for v in Variant]
    return [*confident,
            # a short stack for the ante: players go out, and the room comes down to its final table
            Game("poker", "poker", {"stack": 60, "ante": 10, "ante_every": {"questions": 2}}),
            Game("allin", "allin", {}),
            Game("squizz", "squizz", {}),
            Game("buzzer", "buzzer", {"settle_ms": 0, "questions": 6})]


@functools.cache
def _shipped(game: str) -> tuple[dict[str, Any], ...]:
    kind = DECK_TYPE[game]
    return tuple({"id": c.id, **card_fields(c)} for d in shipped_decks() if d.type == kind for c in d.cards)


def cards(game: str, most: int = CARDS) -> list[dict[str, Any]]:
    """The longest ``most`` shipped cards of the game's deck type (the longest text makes the largest
    prompt and board), as the admin page sends them with a start."""
    return sorted(_shipped(game), key=lambda c: -len(json.dumps(c)))[:most]


NAMES = ("ascii", "accented")


def names(seats: int, style: str = "ascii") -> list[str]:
    """Team names as long as a handset's name may be (protocol.MAX_NAME), seat number in each; "accented":
    every letter one JSON writes as ``\\uXXXX`` (6 bytes), the largest a name can make a message."""
    if style == "accented":
        return [f"Équipe {n:02d} ".ljust(protocol.MAX_NAME, "é") for n in range(1, seats + 1)]
    return [f"The Quizzy Rascals {n:02d}".ljust(protocol.MAX_NAME, "x")[: protocol.MAX_NAME]
            for n in range(1, seats + 1)]


class Recorder:
    """Stands in for the hub's MQTT client: keeps every message as handed to paho (topic, bytes, retain)
    and each handset's last prompt (the bot answers it as the handset would)."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self.prompts: dict[str, dict[str, Any]] = {}

    def publish(self, topic: str, payload: bytes | str, retain: bool = False, qos: int | None = None) -> None:
        data = payload.encode() if isinstance(payload, str) else bytes(payload)  # paho sends a str as UTF-8
        self.messages.append((topic, data, retain))
        if topic.endswith("/prompt"):
            self.prompts[topic.split("/")[-2]] = json.loads(data)

    def stop(self) -> None:
        return None


class MeasuredHub(Hub):
    """The hub, noting each prompt's size as the game built it, before the hub fitted it to a handset."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.built: list[tuple[str, int]] = []  # (kind, bytes) of every prompt published

    def _publish_prompt(self, handset: Handset, prompt: dict[str, Any]) -> None:
        whole = json.dumps(protocol.wire_prompt(self.boot, prompt), separators=(",", ":")).encode()
        self.built.append((str(prompt.get("kind")), len(whole)))  # protocol.encode's bytes, with no limit
        super()._publish_prompt(handset, prompt)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Sizes:
    """One game's figures: the largest of each message, in bytes, and what it was."""

    game: str
    seats: int
    names: str = "ascii"
    finished: bool = False
    prompts: int = 0
    prompt_bytes: int = 0
    prompt_kind: str = ""
    built_bytes: int = 0
    built_kind: str = ""
    over: int = 0  # prompts built over the limit
    too_much: int = 0  # prompts the hub replaced by "Too much to show"
    kinds: list[str] = field(default_factory=list)
    boards: int = 0
    board_bytes: int = 0
    board_scene: str = ""
    scenes: list[str] = field(default_factory=list)
    admin_bytes: int = 0
    inputs: int = 0


def measure(messages: Iterable[tuple[str, bytes, bool]], built: Iterable[tuple[str, int]], label: str,
            seats: int, limit: int) -> Sizes:
    """The figures of one game from what the hub published (and the prompts' sizes as built)."""
    out = Sizes(label, seats)
    kinds: set[str] = set()
    scenes: set[str] = set()
    for topic, data, _retain in messages:
        if topic.endswith("/prompt"):
            prompt = json.loads(data)
            out.prompts += 1
            kinds.add(prompt["kind"])
            out.too_much += prompt.get("title") == "Too much to show"
            if len(data) > out.prompt_bytes:
                out.prompt_bytes, out.prompt_kind = len(data), prompt["kind"]
        elif topic == protocol.board_topic(BOX):
            board = json.loads(data)
            scene = _scene(board)
            out.boards += 1
            scenes.add(scene)
            if len(data) > out.board_bytes:
                out.board_bytes, out.board_scene = len(data), scene
        elif topic == protocol.admin_state_topic(BOX):
            out.admin_bytes = max(out.admin_bytes, len(data))
    for kind, size in built:
        out.over += size > limit
        if size > out.built_bytes:
            out.built_bytes, out.built_kind = size, kind
    out.kinds, out.scenes = sorted(kinds), sorted(scenes)
    return out


def _scene(board: dict[str, Any]) -> str:
    """The board's scene in words: the session's state, and the game's phase while one is played."""
    view = board.get("view") or {}
    phase = view.get("phase") if isinstance(view, dict) else None
    final = " (final table)" if isinstance(view, dict) and view.get("final_table") else ""
    return f"{board.get('scene')}/{phase}{final}" if phase else str(board.get("scene"))


def play(spec: Game, seats: int, limit: int = protocol.MAX_PAYLOAD, seed: int = 1,
         style: str = "ascii") -> tuple[Sizes, Recorder, MeasuredHub]:
    """A whole game of ``spec`` at ``seats`` (or the game's own seat count), measured."""
    seats = spec.seats or seats
    clock = Clock()
    session = Session(clock, random.Random(seed), flows=flow_factory)
    hub = MeasuredHub(BOX, session, Connection("127.0.0.1", 1), clock=clock)
    recorder = Recorder()
    hub.client = recorder  # type: ignore[assignment]
    ids = [f"h{n:02d}" for n in range(1, seats + 1)]
    for hid, name in zip(ids, names(seats, style), strict=True):
        hub.on_message(protocol.hello_topic(BOX, hid), protocol.encode(protocol.make_hello(hid, name)))
        hub.on_message(protocol.status_topic(BOX, hid), protocol.ONLINE.encode())
    hub.command({"cmd": "start", "game": spec.game, "options": spec.options, "cards": cards(spec.game)})
    rng, seq, inputs = random.Random(seed), 0, 0
    for _step in range(MAX_STEPS):
        if session.state != "playing":
            break
        taken = 0
        for hid in ids:  # every seat answers what it is shown, once a round
            prompt = recorder.prompts.get(hid)
            data = bot.choose(prompt, rng) if prompt is not None else None
            if prompt is None or data is None:
                continue
            seq += 1
            clock.now += 0.01
            accepted = hub.accepted
            payload = protocol.encode(protocol.make_input(seq, prompt["id"], prompt["kind"], data, hid,
                                                          round(clock.now * 1000)))
            hub.on_message(protocol.input_topic(BOX, hid), payload)
            taken += hub.accepted - accepted
        inputs += taken
        if not taken:
            clock.now += 1
            _host_step(hub, rng)
    if hub.flood.warnings():  # the hub's flood guard dropped a handset's messages: the game was not played
        raise SystemExit(f"{spec.label}: {hub.flood.warnings()}")
    figures = measure(recorder.messages, hub.built, spec.label, seats, limit)
    figures.finished, figures.inputs, figures.names = session.state == "results", inputs, style
    return figures, recorder, hub


def _host_step(hub: Hub, rng: random.Random) -> None:
    """The quizmaster: *next*, or for a buzzer's answer, right or wrong."""
    flow = hub.session.flow
    answering = getattr(getattr(getattr(flow, "engine", None), "current", None), "answering", None)
    command = rng.choice(["right", "wrong"]) if answering else "next"
    try:
        hub.command({"cmd": command})
    except QuizboxError:
        hub.session.tick()  # nothing to step (a time limit to run out): the ticker's turn
        hub.publish_changes()


def check(rows: list[Sizes], limit: int, board_limit: int) -> list[str]:
    """What is wrong with the figures, in words (empty: every prompt and retained state within its limit)."""
    wrong = []
    for r in rows:
        which = f"{r.game} ({r.names} names)"
        if r.prompt_bytes > limit or r.too_much:
            wrong.append(f"{which}: a prompt of {r.prompt_bytes} bytes ({r.prompt_kind}) is over {limit}; "
                         f"{r.too_much} sent as 'Too much to show' (the hub could not fit them)")
        retained = max(r.board_bytes, r.admin_bytes)
        if retained > board_limit:
            wrong.append(f"{which}: a retained state of {retained} bytes is over {board_limit}")
        if not r.finished:
            wrong.append(f"{which}: the game did not reach its results")
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=40)
    parser.add_argument("--limit", type=int, default=protocol.MAX_PAYLOAD,
                        help="bytes a prompt may have (default protocol.MAX_PAYLOAD; a test passes 1)")
    parser.add_argument("--games", nargs="+", choices=[g.label for g in games()], metavar="GAME",
                        help="only these games (their labels, e.g. 'confident nail_it' poker); default every one")
    parser.add_argument("--names", nargs="+", choices=NAMES, default=list(NAMES),
                        help="team names of ASCII letters, of accented ones (6 bytes each in JSON), or both "
                             "(default: every game with each)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)  # the bots' refused inputs (each one logged by the hub) are expected
    board_limit = MESSAGE_SIZE_LIMIT
    print(f"every game at {args.seats} seats ({' / '.join(args.names)} names of {protocol.MAX_NAME} "
          f"characters), played to its results; prompt limit {args.limit} bytes (protocol.MAX_PAYLOAD "
          f"{protocol.MAX_PAYLOAD}), retained states against the broker's message_size_limit {board_limit} bytes")
    print(f"{'game':>24} {'names':>8} {'seats':>5} {'inputs':>6} | {'prompts':>7} {'largest':>7} {'kind':>7} "
          f"{'built':>5} {'cut':>4} | {'boards':>6} {'largest':>7} {'scene':>30} | {'admin':>6}")
    rows = []
    for style, spec in ((style, spec) for style in args.names for spec in games()):
        if args.games and spec.label not in args.games:
            continue
        r, _, _ = play(spec, args.seats, args.limit, style=style)
        rows.append(r)
        print(f"{r.game:>24} {r.names:>8} {r.seats:>5} {r.inputs:>6} | {r.prompts:>7} {r.prompt_bytes:>7} "
              f"{r.prompt_kind:>7} {r.built_bytes:>5} {r.over:>4} | {r.boards:>6} {r.board_bytes:>7} "
              f"{r.board_scene:>30} | {r.admin_bytes:>6}", flush=True)
    wrong = check(rows, args.limit, board_limit)
    for line in wrong:
        print("OVER:" if "over" in line else "FAILED:", line)
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "sizes", "seats": args.seats, "names": args.names,
                                               "limit": args.limit, "board_limit": board_limit,
                                               "rows": [asdict(r) for r in rows], "wrong": wrong}, indent=1))
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
