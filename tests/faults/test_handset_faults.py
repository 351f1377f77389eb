"""Handset faults against the hub on a real mosquitto, with a real game (Confident?) stored in SQLite: a
handset that loses power while a player is typing or while its input is on the way; the same input
delivered many times at once, late, out of order, and again after the appliance restarted."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.flows import flow_factory
from appliance.infra.store import Store
from appliance.session.session import Session
from firmware import protocol
from tests.conftest import connection_of
from tests.faults.checks import match_all, problems
from tests.faults.harness import NAMES, Player, cards, wait_until
from tests.test_hub import Raw

pytestmark = pytest.mark.mqtt


@dataclass
class Box:
    hub: Hub
    store: Store
    folder: Path
    broker: MosquittoBroker

    def log(self) -> list[dict[str, Any]]:
        game = self.store.unfinished_game() or self.store.games(limit=1)[0]
        return game.log

    def entries(self, player: str) -> list[dict[str, Any]]:
        return [e for e in self.log() if e.get("player") == player]

    def restart(self) -> Box:
        """A new session and hub on the same database: what a restarted appliance is."""
        self.hub.stop()
        session = Session(time.monotonic, random.Random(2), store=self.store, flows=flow_factory)
        assert session.resume_stored()
        hub = Hub(self.hub.box, session, connection_of(self.broker), store=self.store).start()
        return Box(hub, self.store, self.folder, self.broker)


@pytest.fixture
def box(broker: MosquittoBroker, tmp_path: Path) -> Iterator[Box]:
    store = Store(tmp_path / "q.db")
    session = Session(time.monotonic, random.Random(1), store=store, flows=flow_factory)
    name = f"hf{int(time.time() * 1000) % 10**8}"
    made = Box(Hub(name, session, connection_of(broker), store=store).start(), store, tmp_path, broker)
    yield made
    made.hub.stop()
    store.close()


def _start(box: Box, handsets: list[str]) -> None:
    seats = [{"player": NAMES[i], "handset": h} for i, h in enumerate(handsets)]
    box.hub.command({"cmd": "start", "game": "confident", "seats": seats,
                     "cards": cards("confident", 3, box.folder)})


def _raws(box: Box, count: int) -> list[Raw]:
    raws = [Raw(box.hub.box, f"r{i + 1}", connection_of(box.broker)) for i in range(count)]
    for i, raw in enumerate(raws):
        raw.hello(NAMES[i])
        # as every handset does on connecting: a retained "online" (its last will says "offline")
        raw.client.publish(protocol.status_topic(box.hub.box, raw.id), protocol.ONLINE, retain=True)
    return raws


def _answer(raw: Raw, seq: int, prompt: dict[str, Any], low: str = "1", high: str = "100") -> dict[str, Any]:
    return protocol.make_input(seq, prompt["id"], "range", {"bottom": low, "top": high})


def test_a_burst_of_duplicates_is_applied_once_and_acked_alike(box: Box) -> None:
    raws = _raws(box, 3)
    try:
        _start(box, [r.id for r in raws])
        question = raws[0].wait("prompt", 2)
        assert question["kind"] == "range"
        message = _answer(raws[0], 1, question)
        for _ in range(6):  # QoS 1 re-deliveries and a nervous retry, back to back
            raws[0].send("input", message)
        acks = [raws[0].wait("ack", n) for n in range(1, 7)]
        assert all(a == acks[0] for a in acks) and acks[0]["ok"] is True
        assert len(box.entries("Ann")) == 1
    finally:
        for raw in raws:
            raw.stop()


def test_late_and_out_of_order_deliveries_change_nothing(box: Box) -> None:
    raws = _raws(box, 3)
    try:
        _start(box, [r.id for r in raws])
        first = [r.wait("prompt", 2) for r in raws]
        for seq_raw, prompt in zip(raws, first, strict=True):
            seq_raw.send("input", _answer(seq_raw, 1, prompt))
            assert seq_raw.wait("ack")["ok"] is True
        box.hub.command({"cmd": "next"})  # everyone is in: reveal and score
        box.hub.command({"cmd": "next"})  # the next question
        ann = raws[0]

        def latest() -> dict[str, Any]:
            with ann.cond:
                return [m for t, m in ann.messages if t == "prompt"][-1]

        wait_until(lambda: latest()["kind"] == "range" and latest()["id"] != first[0]["id"], 10, "question two")
        second = latest()
        ann.send("input", _answer(ann, 2, second, "5", "6"))
        assert ann.wait("ack", 2)["ok"] is True
        log_before = box.log()
        ann.send("input", _answer(ann, 1, first[0]))  # seq 1 again, late: after seq 2
        assert ann.wait("ack", 3) == ann.wait("ack", 1)  # the same ack again, from memory
        ann.send("input", _answer(ann, 7, first[0], "2", "3"))  # new, but for question one
        refused = ann.wait("ack", 4)
        assert refused["ok"] is False and "old" in refused["msg"]
        assert box.log() == log_before
        assert len(box.entries("Ann")) == 2
    finally:
        for raw in raws:
            raw.stop()


def test_a_duplicate_after_the_appliance_restarted_is_refused_not_applied_again(box: Box) -> None:
    raws = _raws(box, 3)
    try:
        _start(box, [r.id for r in raws])
        ann = raws[0]
        question = ann.wait("prompt", 2)
        message = _answer(ann, 1, question)
        ann.send("input", message)
        assert ann.wait("ack")["ok"] is True
        prompts = ann.count("prompt")
        box = box.restart()
        # no hello from Ann's handset: its retained "online" is enough for its prompt to come back
        resent = ann.wait("prompt", prompts + 1)
        assert resent["kind"] == "info" and resent["id"] != question["id"]
        ann.send("input", message)  # the ack was lost: the handset sends the input once more
        again = ann.wait("ack", 2)
        assert again["ok"] is False and "old" in again["msg"]
        assert len(box.entries("Ann")) == 1
    finally:
        for raw in raws:
            raw.stop()


def _player(box: Box, handset: str, name: str, seed: int, paused: bool) -> Player:
    player = Player(box.hub.box, handset, connection_of(box.broker), name, seed)
    player.paused = paused
    return player.start()


def test_a_handset_power_cycled_while_typing_gets_its_prompt_back_and_answers_once(box: Box) -> None:
    players = [_player(box, f"p{i + 1}", NAMES[i], i, paused=i == 0) for i in range(3)]
    try:
        _start(box, [p.id for p in players])
        ann = players[0]
        question = ann.wait_prompt("range")
        players[0].power_cut()  # the battery falls out while Ann types
        handset = box.hub.registry.get("p1")
        assert handset is not None
        wait_until(lambda: not handset.online, 10, "the broker's last will")
        reborn = _player(box, "p1", "Ann", 7, paused=False)  # seq and screen start from nothing
        players[0] = reborn
        assert reborn.wait_prompt("range")["id"] == question["id"]  # the same question, re-sent on hello
        wait_until(lambda: any(s.acked for s in reborn.sent), 10, "Ann's answer acked")
        assert len(box.entries("Ann")) == 1
    finally:
        for player in players:
            player.stop()


def test_a_handset_power_cycled_with_its_input_on_the_way_shows_the_truth(box: Box) -> None:
    players = [_player(box, f"p{i + 1}", NAMES[i], i, paused=True) for i in range(3)]
    try:
        _start(box, [p.id for p in players])
        ann = players[0]
        ann.wait_prompt("range")
        with ann.changed:
            ann.core.submit({"bottom": "1", "top": "9"})
        ann.power_cut()  # before its ack can arrive, or just after
        reborn = _player(box, "p1", "Ann", 7, paused=True)
        players[0] = reborn
        prompt = reborn.wait_prompt()
        stored = box.entries("Ann")
        if stored:  # it arrived: the handset shows Ann locked in, and the entry is there once
            assert prompt["kind"] == "info" and len(stored) == 1
        else:  # it was lost with the power: the question again, nothing stored
            assert prompt["kind"] == "range"
        reborn.paused = False
        for player in players:
            player.paused = False
        wait_until(lambda: box.hub.session.flow is not None and box.hub.session.flow.can_advance(), 10,
                   "everyone answered")
        assert len(box.entries("Ann")) == 1
        game = box.store.unfinished_game()
        assert game is not None and not problems(match_all(game, players[1:]))
    finally:
        for player in players:
            player.stop()
