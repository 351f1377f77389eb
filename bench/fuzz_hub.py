"""Fuzz the running hub with hypothesis-made handset payloads of every kind, and time it against raw publishes.

    python bench/fuzz_hub.py [--payloads 100000] [--seed 1] [--batch 500]

Payloads: inputs of every kind (range, bet, choice, split, token, buzz) near-valid and broken, with the
handset's current prompt id or a wrong one, from seated, unknown and unpaired handsets; hellos,
telemetry, status lines and pairing requests, valid and not; bytes that are not JSON, not UTF-8 or too
big. They go to a real hub (real mosquitto, SQLite store, broker accounts for the seated handsets) while
Confident?, estimation poker, All In and sQuizz are played on: between batches a seated handset makes a
legal input and the quizmaster presses *next*, so the fuzz lands in every phase of every game.

It checks what it prints: every input gets exactly one ack (lost = inputs without one), the hub logs no
failure of its own (crashes), and the stored logs hold exactly the inputs acked ok. It also runs
number-like text through the number parser. The same payloads, in the same batches, are then published
to topics nobody but a counting client reads: payloads/s through the hub against that raw rate, measured
in the same run, so the ratio survives a noisy machine. tests/faults/test_fuzz.py runs a share of this
in every CI run.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from appliance.decks.deal import cards_for_game, seed_shipped  # noqa: E402
from appliance.edge.accounts import MemoryAccounts  # noqa: E402
from appliance.edge.broker import MosquittoBroker, RunningBroker  # noqa: E402
from appliance.edge.flood import FloodGuard  # noqa: E402
from appliance.edge.hub import Hub  # noqa: E402
from appliance.edge.mqtt import Client, Connection  # noqa: E402
from appliance.edge.pairing import Pairing, request_payload  # noqa: E402
from appliance.errors import MalformedInput  # noqa: E402
from appliance.flows import flow_factory  # noqa: E402
from appliance.games.numbers import format_plain, parse_number  # noqa: E402
from appliance.infra.store import Store  # noqa: E402
from appliance.session.session import Session, setup_from_json  # noqa: E402
from firmware import protocol  # noqa: E402
from firmware.core import bot  # noqa: E402

SEATED = ["f1", "f2", "f3"]
NAMES = ["Ann", "Bob", "Cat"]
OTHERS = ["x9", "phone-abcd2345"]  # paired but not seated; a phone; (and any id hypothesis makes up)
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("confident", {"target": 5}),
    ("poker", {}),
    ("allin", {"chips": 5}),
    ("squizz", {}),
]
PROMPT = "\x00prompt"  # replaced by the sending handset's current prompt id when sent

# -- payloads -------------------------------------------------------------------------------------------

scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | st.text(max_size=30)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
digits = st.text("0123456789", min_size=1, max_size=12)
numbers = st.one_of(
    digits,
    st.builds(lambda sign, a, b: f"{sign}{a}.{b}", st.sampled_from(["", "-", "+"]), digits, digits),
    st.builds(lambda a, s: f"{a}{s}", digits, st.sampled_from(["k", "K", "M", "m", "bn", "B", "T", " million", "%"])),
    st.builds(lambda a, e: f"{a} x 10^{e}", digits, st.integers(-400, 400)),
    st.builds(lambda a, e: f"{a}e{e}", digits, st.integers(-5000, 5000)),
    st.builds(lambda a, b: f"{a},{b}", digits, digits),
    st.text(alphabet="0123456789.,-+ xX^eEkMbnT_'", max_size=40),
    st.text(max_size=45),
)
names = st.sampled_from(NAMES + ["Dan", "", "x" * 30]) | st.text(max_size=26)
range_data = st.one_of(
    st.fixed_dictionaries(
        {"bottom": numbers, "top": numbers},
        optional={"swap": st.lists(names, max_size=3), "double": st.booleans() | values},
    ),
    st.fixed_dictionaries({"copy": names | values}, optional={"swap": values, "double": values}),
)
bet_data = st.fixed_dictionaries(
    {"action": st.sampled_from([*protocol.BET_ACTIONS, "steal"])}, optional={"to": st.integers(-5, 10**7) | values}
)
choice_data = st.fixed_dictionaries(
    {
        "choices": st.dictionaries(
            st.sampled_from(["pick", "answer", "exclude", "other"]) | st.text(max_size=34),
            st.sampled_from(["0", "1", "2", "3", "true", "false"]) | names | values,
            max_size=5,
        )
    }
)
split_data = st.fixed_dictionaries(
    {
        "split": st.dictionaries(
            st.sampled_from(["true", "false", "maybe"]) | st.text(max_size=34), st.integers(-3, 20) | values, max_size=5
        )
    }
)
token_data = st.fixed_dictionaries(
    {"answer": st.sampled_from(["A", "B", "C", "D", "a"]) | values, "token": st.integers(-2, 12) | values}
)
buzz_data = st.fixed_dictionaries({}, optional={"pressed": st.integers(0, 2**40) | values})
DATA = {
    protocol.RANGE: range_data,
    protocol.BET: bet_data,
    protocol.CHOICE: choice_data,
    protocol.SPLIT: split_data,
    protocol.TOKEN: token_data,
    protocol.BUZZ: buzz_data,
}


@st.composite
def inputs(draw: st.DrawFn) -> tuple[str, Any]:
    kind = draw(st.sampled_from([*protocol.INPUT_KINDS, "info", "dance"]))
    data = draw(DATA.get(kind, values) | values) if draw(st.integers(0, 9)) == 0 else draw(DATA.get(kind, values))
    body: dict[str, Any] = {
        "seq": draw(st.integers(0, 2**31 - 1) | st.integers(-5, 2**33) | values),
        "prompt": PROMPT if draw(st.integers(0, 3)) else draw(st.text(max_size=40) | values),
        "kind": kind,
        "data": data,
    }
    optional = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "v": st.sampled_from([1, 1, 1, 2, "1"]),
                "id": st.sampled_from(["", "f1", "f2", "zz"]),
                "clock": st.integers(0, 2**40) | values,
            },
        )
    )
    return "input:" + kind, {**body, **optional}


others = st.one_of(
    st.tuples(
        st.just("hello"),
        st.fixed_dictionaries(
            {"v": st.just(1)},
            optional={
                "id": st.sampled_from(["f1", "f2", "x"]),
                "name": names | values,
                "fw": st.text(max_size=40) | values,
                "layout": st.sampled_from([*protocol.LAYOUTS, "piano"]) | values,
                "clock": values,
            },
        ),
    ),
    st.tuples(
        st.just("telemetry"),
        st.fixed_dictionaries(
            {"v": st.sampled_from([1, 2])},
            optional={
                "battery": st.integers(-10, 120) | values,
                "rssi": st.integers(-200, 10) | values,
                "fw": st.text(max_size=40),
                "layout": values,
            },
        ),
    ),
    st.tuples(st.just("status"), st.sampled_from([b"online", b"offline", b"", b"maybe", b"\xff"])),
    st.tuples(
        st.just("pairing"),
        st.one_of(
            st.builds(
                request_payload, st.sampled_from(["f1", "x9", "n1", "web"]), st.text(min_size=10, max_size=70), names
            ),
            values.map(lambda v: json.dumps(v).encode()),
        ),
    ),
)
garbage = st.tuples(
    st.sampled_from(["input:garbage", "hello", "telemetry", "pairing"]),
    st.one_of(
        st.binary(max_size=1400),
        st.text(max_size=1300).map(str.encode),
        values.map(lambda v: json.dumps(v).encode()),
        st.just(b"{" + b'"a":' * 300 + b"1" + b"}" * 300),
    ),
)
payloads = st.tuples(
    st.sampled_from(SEATED * 6 + OTHERS) | st.text("abcdefgh-_", min_size=1, max_size=8),
    st.one_of(inputs(), inputs(), inputs(), others, garbage),
)  # inputs: 3 in 5
Item = tuple[str, tuple[str, Any]]  # (handset id, (kind, body: a dict or raw bytes))
CHUNK = 2500  # payloads per generating process


def generate(count: int, seed_value: int) -> list[Item]:
    """``count`` payloads made by hypothesis, in one process per core for big counts (hypothesis makes
    a few hundred a second on a Pi-class core)."""
    if count <= CHUNK:
        return generate_chunk(count, seed_value)
    import concurrent.futures
    import os

    sizes = [min(CHUNK, count - first) for first in range(0, count, CHUNK)]
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        chunks = pool.map(generate_chunk, sizes, [seed_value * 10_000 + i for i in range(len(sizes))])
        return [item for chunk in chunks for item in chunk]


def generate_only(count: int) -> settings:
    """Hypothesis settings for making ``count`` examples: generation only (no shrinking, no example
    database, no deadline, no health checks)."""
    return settings(max_examples=count, phases=[Phase.generate], database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))


def generate_chunk(count: int, seed_value: int) -> list[Item]:
    """``count`` payloads made by hypothesis (:func:`generate_only`)."""
    made: list[Item] = []

    @seed(seed_value)
    @generate_only(count)
    @given(payloads)
    def collect(item: tuple[str, tuple[str, Any]]) -> None:
        made.append(item)

    collect()
    return made[:count]


def fuzz_numbers(count: int, seed_value: int) -> dict[str, int]:
    """Number-like text through the number parser: a value or MalformedInput, nothing else, and every
    value printed plainly parses back to itself."""
    texts: list[str] = []

    @seed(seed_value)
    @generate_only(count)
    @given(numbers)
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    parsed = refused = 0
    for text in texts:
        try:
            value = parse_number(text)
        except MalformedInput:
            refused += 1
            continue
        assert isinstance(value, Decimal) and parse_number(format_plain(value)) == value, text
        parsed += 1
    return {"parsed": parsed, "refused": refused}


# -- the table ------------------------------------------------------------------------------------------


class Failures(logging.Handler):
    """Counts the hub's own failures: records logged with an exception (log.exception)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(self.format(record))


@dataclass
class Result:
    payloads: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    inputs: int = 0
    acks: int = 0
    accepted: int = 0  # inputs acked ok, fuzz and legit (a repeated seq and prompt is acked again: once)
    applied: int = 0  # what the hub counted as applied
    legit: int = 0
    lost: int = 0  # inputs without an ack
    stored_inputs: int = 0  # inputs acked ok found in their game's stored log, in order, once each
    unstored: list[str] = field(default_factory=list)  # inputs acked ok and not found
    crashes: list[str] = field(default_factory=list)
    games: Counter[str] = field(default_factory=Counter)
    hub_seconds: float = 0.0
    raw_seconds: float = 0.0
    numbers: dict[str, int] = field(default_factory=dict)

    @property
    def hub_rate(self) -> float:
        return self.payloads / self.hub_seconds if self.hub_seconds else 0.0

    @property
    def raw_rate(self) -> float:
        return self.payloads / self.raw_seconds if self.raw_seconds else 0.0


class Wire:
    """The sending side: one client publishing every payload, reading every prompt and ack back."""

    def __init__(self, box: str, conn: Connection) -> None:
        self.box = box
        self.cond = threading.Condition()
        self.acks = 0
        self.hello_refusals = 0
        self.by_handset: dict[str, list[dict[str, Any]]] = {}  # each handset's acks, in order
        self.prompts: dict[str, dict[str, Any]] = {}
        self.client = Client(
            f"fuzz-wire-{box}",
            conn,
            self._on,
            subscriptions=[protocol.handset_wildcard(box, "ack"), protocol.handset_wildcard(box, "prompt")],
        ).start()

    def _on(self, topic: str, payload: bytes) -> None:
        handset, leaf = protocol.parse_handset_topic(self.box, topic)
        with self.cond:
            if leaf == "ack":
                ack = json.loads(payload)
                if ack.get("re") == "hello":  # the answer to a refused hello (protocol 1.1), not an input's
                    self.hello_refusals += 1
                    return
                self.acks += 1
                self.by_handset.setdefault(handset, []).append(ack)
            else:
                self.prompts[handset] = json.loads(payload)
            self.cond.notify_all()

    def wait_acks(self, count: int, timeout: float) -> int:
        with self.cond:
            self.cond.wait_for(lambda: self.acks >= count, timeout)
            return self.acks


def _encode(item: Item, wire: Wire) -> tuple[str, bytes]:
    handset, (kind, body) = item
    leaf = kind.split(":")[0]
    if isinstance(body, bytes):
        return leaf, body
    if leaf == "input" and body.get("prompt") == PROMPT:
        prompt = wire.prompts.get(handset) or wire.prompts.get(SEATED[0]) or {}
        body = {**body, "prompt": prompt.get("id", "none")}
    return leaf, json.dumps(body).encode()


def _topic(box: str, handset: str, leaf: str) -> str:
    if leaf == "pairing":
        return protocol.box_topic(box, "pairing", handset)
    return protocol.box_topic(box, "handset", handset, leaf)


def run(
    payload_count: int,
    seed_value: int,
    broker: RunningBroker,
    batch: int = 500,
    folder: Path | None = None,
    out: Any = None,
    baseline: bool = True,
) -> Result:
    """Fuzz a hub on ``broker`` with ``payload_count`` payloads; then (``baseline``) the raw publishes."""
    say = (lambda text: print(text, file=out, flush=True)) if out is not None else (lambda text: None)
    result = Result()
    items = generate(payload_count, seed_value)
    say(f"generated {len(items)} payloads")
    result.numbers = fuzz_numbers(max(200, payload_count // 20), seed_value)
    rng = random.Random(seed_value)
    with tempfile.TemporaryDirectory(prefix="quizbox-fuzz-") as tmp:
        work = Path(folder or tmp)
        box = f"fuzz{rng.randrange(10**6)}"
        conn = Connection(broker.address.host, broker.address.port)
        store = Store(work / "fuzz.db")
        seed_shipped(store)
        accounts = MemoryAccounts()  # the seated handsets and x9 have broker accounts; others do not
        for handset in [*SEATED, "x9"]:
            accounts.add_handset(handset, f"{handset}-secret-0123456789")
        failures = Failures()
        logging.getLogger("appliance").addHandler(failures)
        processed = Counter[str]()
        session = Session(time.monotonic, random.Random(seed_value), store=store, flows=flow_factory)
        # the fuzz sends as fast as the hub takes them from a few handsets: a flood by the hub's measure
        # (appliance/edge/flood.py), which is not what this bench measures
        hub = Hub(box, session, conn, store=store, pairing=Pairing(accounts), flood=FloodGuard(rate=1e9, burst=10**9))
        on_message = hub.on_message

        def counted(topic: str, payload: bytes) -> None:
            on_message(topic, payload)
            processed["n"] += 1

        hub.client.on_message = counted
        if hub.desk is not None:  # pairing requests come on the pairing desk's own connection: count them too
            desk_on = hub.desk.paho.on_message

            def desk_counted(client: Any, userdata: Any, message: Any) -> None:
                if desk_on is not None:
                    desk_on(client, userdata, message)
                processed["n"] += 1

            hub.desk.paho.on_message = desk_counted
        hub.start()
        wire = Wire(box, conn)
        try:
            for handset, name in zip(SEATED, NAMES, strict=True):
                wire.client.publish(
                    protocol.hello_topic(box, handset),
                    protocol.encode(protocol.make_hello(handset, name, "fuzz", protocol.LAYOUT_KEYPAD)),
                )
            _wait(lambda: len(wire.prompts) == len(SEATED), 10, "the seated handsets' lobby prompts")
            game_no = 0
            game_ids = [_start(hub, store, GAMES[game_no], rng)]
            legit_seq = 10**9
            sent_inputs = 0
            sent: dict[str, list[tuple[bytes, int]]] = {}  # each handset's inputs in order, with their game
            for first in range(0, len(items), batch):
                chunk = [_encode(item, wire) for item in items[first : first + batch]]
                start, before = time.perf_counter(), processed["n"]
                for (handset, (kind, _)), (leaf, data) in zip(items[first : first + batch], chunk, strict=True):
                    wire.client.publish(_topic(box, handset, leaf), data)
                    result.by_kind[kind] += 1
                    if leaf == "input":
                        sent_inputs += 1
                        sent.setdefault(handset, []).append((data, game_ids[-1]))
                target = before + len(chunk)
                _wait(lambda: processed["n"] >= target, 60, "the hub reading the batch")  # noqa: B023
                result.hub_seconds += time.perf_counter() - start
                result.payloads += len(chunk)
                # the game goes on: the seated handsets make legal inputs; the quizmaster moves on
                for handset in SEATED:
                    prompt = wire.prompts.get(handset)
                    data = bot.choose(prompt, rng) if prompt else None
                    if prompt is not None and data is not None:
                        legit_seq += 1
                        sent_inputs += 1
                        result.legit += 1
                        legit = protocol.encode(protocol.make_input(legit_seq, prompt["id"], prompt["kind"], data))
                        wire.client.publish(protocol.input_topic(box, handset), legit)
                        sent.setdefault(handset, []).append((legit, game_ids[-1]))
                result.lost = sent_inputs - wire.wait_acks(sent_inputs, 30)
                with hub.outbox:
                    if session.state == "playing" and session.flow is not None and session.flow.can_advance():
                        hub.command({"cmd": "next"})
                    if session.state != "playing":
                        result.games[GAMES[game_no % len(GAMES)][0]] += session.state == "results"
                        game_no += 1
                        game_ids.append(_start(hub, store, GAMES[game_no % len(GAMES)], rng))
                if first // batch % 20 == 0:
                    say(
                        f"  {result.payloads} payloads, {wire.acks} acks, hub applied {hub.accepted}, "
                        f"lost {result.lost}"
                    )
            result.inputs, result.acks = sent_inputs, wire.acks
            with hub.outbox:
                result.applied = hub.accepted
                _check_stored(result, store, sent, wire.by_handset)
            result.crashes = failures.records
        finally:
            logging.getLogger("appliance").removeHandler(failures)
            wire.client.stop()
            hub.stop()
            store.close()
        if baseline:
            result.raw_seconds = _raw(items, conn, batch, rng)
    return result


def _start(hub: Hub, store: Store, game: tuple[str, dict[str, Any]], rng: random.Random) -> int:
    """Start ``game`` with the seated handsets; its id in the store."""
    name, options = game
    cards = cards_for_game(store, name, rng, limit=30)
    hub.command(
        {
            "cmd": "start",
            "game": name,
            "options": options,
            "seats": [{"player": p, "handset": h} for p, h in zip(NAMES, SEATED, strict=True)],
            "cards": [{"id": c.id, **c.fields} for c in cards],
        }
    )
    assert hub.session.game_id is not None
    return hub.session.game_id


def _check_stored(
    result: Result, store: Store, sent: dict[str, list[tuple[bytes, int]]], acks: dict[str, list[dict[str, Any]]]
) -> None:
    """Pair each handset's inputs with its acks (one each, in order: one sender, one hub), then find every
    input acked ok in its game's stored log: the log entry the game makes of it, among that player's
    entries, in order, each entry used once (the game's own steps, a timeout's fold, sit between them)."""
    wanted: dict[tuple[int, str], list[dict[str, Any]]] = {}  # (game id, player) -> entries, in order
    flows: dict[int, Any] = {}
    seen: set[tuple[str, int, str]] = set()
    for handset, inputs in sent.items():
        for (payload, game_id), ack in zip(inputs, acks.get(handset, []), strict=False):
            key = (handset, ack.get("seq"), ack.get("prompt"))
            if ack.get("ok") is not True or key in seen:  # refused, or a repeat acked again
                continue
            seen.add(key)
            player = NAMES[SEATED.index(handset)]
            if game_id not in flows:
                stored = store.game(game_id)
                assert stored is not None
                flows[game_id] = flow_factory(stored.game)(setup_from_json(stored.setup), random.Random(0), 0.0)
            message = protocol.parse_input(handset, protocol.decode(payload))
            wanted.setdefault((game_id, player), []).append(
                flows[game_id].parse(player, message["kind"], message["data"]).to_json()
            )
    result.accepted = len(seen)
    for (game_id, player), entries in wanted.items():
        stored_game = store.game(game_id)
        assert stored_game is not None
        log = iter([e for e in stored_game.log if e.get("player") == player])
        for entry in entries:
            if any(e == entry for e in log):  # consumes the log up to the match: in order, once
                result.stored_inputs += 1
            else:
                result.unstored.append(f"game {game_id} {player}: {entry}")
                log = iter([e for e in stored_game.log if e.get("player") == player])


def _raw(items: list[Item], conn: Connection, batch: int, rng: random.Random) -> float:
    """The same payloads in the same batches to topics only a counting client reads."""
    box = f"raw{rng.randrange(10**6)}"
    got = Counter[str]()
    cond = threading.Condition()

    def count(topic: str, payload: bytes) -> None:
        with cond:
            got["n"] += 1
            cond.notify_all()

    reader = Client(f"fuzz-raw-reader-{box}", conn, count, subscriptions=[f"quizbox/{box}/#"]).start()
    sender = Client(f"fuzz-raw-sender-{box}", conn, lambda t, p: None).start()
    empty = Wire.__new__(Wire)
    empty.prompts = {}
    seconds = 0.0
    try:
        for first in range(0, len(items), batch):
            chunk = items[first : first + batch]
            encoded = [_encode(item, empty) for item in chunk]
            start, before = time.perf_counter(), got["n"]
            for (handset, _), (leaf, data) in zip(chunk, encoded, strict=True):
                sender.publish(_topic(box, handset, leaf), data)
            target = before + len(chunk)
            with cond:
                cond.wait_for(lambda: got["n"] >= target, 60)  # noqa: B023
            seconds += time.perf_counter() - start
    finally:
        sender.stop()
        reader.stop()
    return seconds


def _wait(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not within {timeout} s: {what}")
        time.sleep(0.005)


def report(result: Result) -> str:
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(result.by_kind.items()))
    return "\n".join(
        [
            f"payloads fuzzed: {result.payloads} ({kinds})",
            f"inputs: {result.inputs} (legal ones from the seated handsets: {result.legit}); acks: {result.acks}; "
            f"acked ok: {result.accepted}; applied: {result.applied}; stored: {result.stored_inputs}; "
            f"lost: {result.lost}; "
            f"crashes: {len(result.crashes)}",
            f"games finished during the fuzz: {dict(result.games)}",
            f"number parser: {result.numbers.get('parsed', 0)} parsed, {result.numbers.get('refused', 0)} refused",
            f"hub: {result.hub_rate:,.0f} payloads/s; raw publishes: {result.raw_rate:,.0f} payloads/s; "
            f"ratio hub/raw {result.hub_rate / result.raw_rate if result.raw_rate else 0:.2f}",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--payloads", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the hub logs every refusal; the report counts them
    with MosquittoBroker() as broker:
        result = run(args.payloads, args.seed, broker, args.batch, out=sys.stdout)
    print(report(result))
    for crash in result.crashes[:5]:
        print(crash)
    bad = (
        result.lost
        or result.crashes
        or result.acks != result.inputs
        or result.unstored
        or not (result.stored_inputs == result.applied == result.accepted)
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
