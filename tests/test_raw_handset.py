"""A handset maker's check: raw-paho handsets written from docs/protocol.md (tests/support/rawhandset.py,
no Quizbox import) play a whole question of every game against the real appliance (hub, session and
store) on mosquitto, the quizmaster's commands sent raw too; and liveness, seen from the admin state and
the board."""

from __future__ import annotations

import ast
import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from appliance.decks.deal import cards_for_game, seed_shipped
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.flows import flow_factory
from appliance.infra.store import Store
from appliance.session.session import Session
from tests.conftest import connection_of
from tests.faults.harness import wait_until
from tests.support.rawhandset import RawAdmin, RawHandset

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("confident", {}, 3),
    ("allin", {"chips": 6}, 3),
    ("squizz", {}, 3),
    ("poker", {"stack": 60, "ante": 10}, 3),
    ("buzzer", {}, 2),
]
NAMES = ["Ann", "Bob", "Cat"]


def test_the_raw_handset_imports_nothing_of_quizbox() -> None:
    tree = ast.parse(Path("tests/support/rawhandset.py").read_text())
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert modules <= {"__future__", "json", "threading", "time", "typing", "paho"}, modules


def _cards_left(board: dict[str, Any]) -> int | None:
    view = board.get("view") or {}
    left = view.get("cards_left")
    return left if isinstance(left, int) else None


@pytest.mark.mqtt
@pytest.mark.parametrize(("game", "options", "players"), GAMES, ids=[g for g, _, _ in GAMES])
def test_raw_handsets_play_a_whole_question(mosquitto: MosquittoBroker, box_id: str, tmp_path: Path,
                                            game: str, options: dict[str, Any], players: int) -> None:
    store = Store(tmp_path / "q.db")
    seed_shipped(store)
    cards = [{"id": c.id, **c.fields} for c in cards_for_game(store, game, random.Random(3), limit=12)]
    session = Session(time.monotonic, random.Random(3), store=store, flows=flow_factory)
    session.auto_advance = 0.05
    host, port = mosquitto.address.host, mosquitto.address.port
    with Hub(box_id, session, connection_of(mosquitto), store=store, tick_interval=0.02):
        admin = RawAdmin(host, port, box_id)
        handsets = [RawHandset(host, port, box_id, f"raw{i}", NAMES[i]) for i in range(players)]
        try:
            assert admin.wait(lambda b, s: sum(h["online"] for h in s.get("handsets", [])) == players)
            for handset in handsets:  # the lobby's wait screen
                assert admin.wait(lambda b, s, h=handset: bool(h.prompts), 10)
                assert handset.prompts[0]["kind"] == "info"
            reply = admin.command("start", game=game, options=options, cards=cards)
            assert reply["ok"], reply
            assert admin.wait(lambda b, s: b.get("scene") == "playing" and _cards_left(b) is not None)
            first = _cards_left(admin.board)
            assert first is not None
            deadline = time.monotonic() + 60
            done = False
            while time.monotonic() < deadline and not done:
                for handset in handsets:
                    handset.tick()
                if game == "buzzer":  # the quizmaster arms the buzzers and judges the first buzz right
                    admin.command("arm")
                    if admin.wait(lambda b, s: bool((b.get("view") or {}).get("answering")), 2):
                        admin.command("right")
                left = _cards_left(admin.board)
                done = admin.board.get("scene") == "results" or (left is not None and left < first)
                time.sleep(0.05)
            assert done, admin.board
            inputs_ok = [a for h in handsets for a in h.acks if a["ok"]]
            assert inputs_ok, [h.acks for h in handsets]
            for handset in handsets:
                for ack in handset.acks:
                    assert ack["ok"] or ack["code"], ack  # every refusal says why with a code
                    assert len(ack["msg"]) <= 48
        finally:
            for handset in handsets:
                handset.stop()
            admin.stop()


@pytest.fixture
def clocked(mosquitto: MosquittoBroker, box_id: str) -> Iterator[tuple[Hub, list[float]]]:
    now = [1000.0]
    with Hub(box_id, Session(time.monotonic, flows=flow_factory), connection_of(mosquitto), clock=lambda: now[0],
             tick_interval=0.02) as hub:
        yield hub, now


@pytest.mark.mqtt
def test_a_handset_gone_silent_is_shown_offline_and_back_when_heard(
        clocked: tuple[Hub, list[float]], mosquitto: MosquittoBroker, box_id: str) -> None:
    """A handset that disconnects cleanly without saying offline left no last will: before liveness it
    stayed online on the admin page and the TV for ever."""
    hub, now = clocked
    host, port = mosquitto.address.host, mosquitto.address.port
    admin = RawAdmin(host, port, box_id)
    handset = RawHandset(host, port, box_id, "quiet", "Ann")
    try:
        def online(b: dict[str, Any], s: dict[str, Any]) -> tuple[bool, bool]:
            on_admin = [h["online"] for h in s.get("handsets", []) if h["id"] == "quiet"]
            on_board = [p["online"] for p in b.get("players", []) if p["handset"] == "quiet"]
            return bool(on_admin and on_admin[0]), bool(on_board and on_board[0])

        def settle() -> None:
            """Let the hub take in what the handset sent before it left (its last clock answers), then
            start the silence from when it was last heard."""
            time.sleep(0.5)
            with hub.outbox:
                quiet = hub.registry.get("quiet")
                assert quiet is not None
                now[0] = quiet.last_seen

        assert admin.wait(lambda b, s: online(b, s) == (True, True), 10)
        handset.stop(say_offline=False)  # a clean disconnect: the broker sends no will
        settle()
        now[0] += 89  # SILENT_AFTER (90 s) not yet passed: still online
        time.sleep(0.3)
        assert online(admin.board, admin.state) == (True, True)
        now[0] += 2
        assert admin.wait(lambda b, s: online(b, s) == (False, False), 10), (admin.board, admin.state)
        handset = RawHandset(host, port, box_id, "quiet", "Ann")  # back: hello, then telemetry
        assert admin.wait(lambda b, s: online(b, s) == (True, True), 10)
        handset.stop(say_offline=False)
        settle()
        now[0] += 91
        assert admin.wait(lambda b, s: online(b, s) == (False, False), 10)
        handset = RawHandset(host, port, box_id, "quiet", "Ann")
        assert admin.wait(lambda b, s: online(b, s) == (True, True), 10)
        now[0] += 60
        handset.telemetry()  # heard within the limit: stays online past the first silence
        time.sleep(0.3)
        now[0] += 60
        time.sleep(0.3)
        assert online(admin.board, admin.state) == (True, True)
    finally:
        handset.stop()
        admin.stop()


@pytest.mark.mqtt
def test_raw_handsets_break_a_quiz_nights_tie_with_their_own_numbers(mosquitto: MosquittoBroker, box_id: str,
                                                                     tmp_path: Path) -> None:
    """The tie-break's ``number`` prompt as docs/protocol.md shows it: each tied handset types one number;
    the closest wins the night. The numbers are stored before they are acked (the night's log)."""
    store = Store(tmp_path / "q.db")
    session = Session(time.monotonic, random.Random(3), store=store, flows=flow_factory)
    host, port = mosquitto.address.host, mosquitto.address.port
    with Hub(box_id, session, connection_of(mosquitto), store=store, tick_interval=0.02):
        admin = RawAdmin(host, port, box_id)
        ann, bob = (RawHandset(host, port, box_id, f"raw{i}", name) for i, name in enumerate(("Ann", "Bob")))
        ann.number, bob.number = "320", "345"
        try:
            assert admin.wait(lambda b, s: sum(h["online"] for h in s.get("handsets", [])) == 2)
            seats = [{"player": "Ann", "handset": "raw0"}, {"player": "Bob", "handset": "raw1"}]
            reply = admin.command("night_start", seats=seats, rounds=[{"game": "buzzer", "cards": 1}])
            assert reply["ok"], reply
            for cmd in ("night_round", "night_finish"):  # nobody scores: Ann and Bob tie for first
                assert admin.command(cmd)["ok"]
            assert admin.wait(lambda b, s: (b.get("night") or {}).get("phase") == "tiebreak", 10)
            reply = admin.command("night_card", question="How tall is the Eiffel Tower, in metres?", answer="330")
            assert reply["ok"], reply
            assert admin.wait(lambda b, s: bool((b.get("night") or {}).get("winners")), 15), admin.board
            assert admin.board["night"]["winners"] == ["Ann"]
            for handset, number in ((ann, "320"), (bob, "345")):
                asked = [p for p in handset.prompts if p["kind"] == "number"]
                assert asked and asked[-1]["title"] == "Tie-break!"
                # the board with the winners can reach the admin's client before the last number's ack
                # reaches its handset's (two connections; a fresh-clone run saw it): waited for, 5 s at most
                with contextlib.suppress(AssertionError):  # still missing: the assertion below says what came
                    wait_until(lambda h=handset, i=asked[-1]["id"]: any(a.get("prompt") == i for a in h.acks), 5,
                               "the last number's ack")
                answered = [a for a in handset.acks if a.get("prompt") == asked[-1]["id"]]
                assert answered and answered[0]["ok"] is True and number in answered[0]["msg"], (handset.acks, asked)
                assert store.last_acked(handset.id) == (answered[0]["seq"], asked[-1]["id"])
        finally:
            for handset in (ann, bob):
                handset.stop()
            admin.stop()
