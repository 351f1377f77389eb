"""A team on several devices (rules.md room-6) through a real mosquitto with simulated handsets (the
firmware's handset core): a second handset joins a team's seat, shows its prompt, the first input counts,
every device shows the ack, the board lists the team once, and the link outlives a restart (SQLite)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from appliance.box.sim import SimHandset
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.errors import QuizboxError
from appliance.flows import flow_factory
from appliance.infra.store import Store
from appliance.session.session import Session
from firmware import protocol
from firmware.core.handset import VIEW_LOCKED
from tests.conftest import connection_of
from tests.support import guess  # noqa: F401  (registers the test game)

CARDS = [{"id": "c1", "question": "Legs on a spider?", "answer": "8"},
         {"id": "c2", "question": "Moons of Mars?", "answer": "2"}]


def _hub(box_id: str, mosquitto: MosquittoBroker, store: Store | None = None) -> Hub:
    return Hub(box_id, Session(time.monotonic, flows=flow_factory, store=store), connection_of(mosquitto), store=store)


@contextmanager
def _handsets(box_id: str, mosquitto: MosquittoBroker, ann2: str = "Ann2", layout: str = protocol.LAYOUT_KEYPAD,
              **more: str) -> Iterator[tuple[SimHandset, ...]]:
    """Simulated handsets ann, bob and ann2 (named ``ann2``, with ``layout``), then ``more`` (id: name), each
    waiting on its info screen; all stopped at the end."""
    conn = connection_of(mosquitto)
    names = {"ann": ("Ann", protocol.LAYOUT_KEYPAD), "bob": ("Bob", protocol.LAYOUT_KEYPAD), "ann2": (ann2, layout)}
    names.update((handset, (name, protocol.LAYOUT_KEYPAD)) for handset, name in more.items())
    started: list[SimHandset] = []
    try:
        for handset, (name, shape) in names.items():
            started.append(SimHandset(box_id, handset, conn, name=name, layout=shape).start())
        for h in started:
            h.wait_prompt("info")
        yield tuple(started)
    finally:
        for h in started:
            h.stop()


def _start(hub: Hub) -> None:
    hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                 "seats": [{"player": "Ann", "handset": "ann"}, {"player": "Bob", "handset": "bob"}]})


def _names_on_board(hub: Hub) -> list[str]:
    board: dict[str, Any] = hub.session.board_state(list(hub.registry), hub.registry.colour)
    return [p["name"] for p in board["players"]]


def test_a_second_handset_plays_the_teams_seat_first_input_counts(mosquitto: MosquittoBroker, box_id: str) -> None:
    with (_hub(box_id, mosquitto) as hub,
          _handsets(box_id, mosquitto, ann2="Ann's 2nd", layout=protocol.LAYOUT_FIVE) as (ann, bob, ann2)):
        reply = hub.command({"cmd": "team", "handset": "ann2", "team": "ann"})
        assert reply["msg"] == "Ann's 2nd now plays for Ann"
        _start(hub)
        q_ann, q_ann2 = ann.wait_prompt("range"), ann2.wait_prompt("range")
        assert q_ann2["text"] == q_ann["text"] and "spider" in q_ann2["text"]  # the team's prompt on both
        # the TV and the admin page's board list the team once: Ann, Bob, never "Ann's 2nd"
        assert sorted(_names_on_board(hub)) == ["Ann", "Bob"]

        ack = ann2.wait_ack(ann2.submit({"bottom": "6", "top": "10"}))
        assert ack["ok"] is True
        # Ann's own handset gets the team's ack on its current prompt and shows it locked in
        ann.wait_for(lambda h: any(a.get("re") == protocol.TEAM_ACK for a in h.acks))
        team_ack = next(a for a in ann.acks if a.get("re") == protocol.TEAM_ACK)
        assert team_ack["seq"] == -1 and team_ack["msg"] == ack["msg"]
        # both devices get the next prompt (the guess game's "Locked in" screen)
        for h in (ann, ann2):
            h.wait_for(lambda h: h.prompt is not None and h.prompt.get("title") == "Locked in")
        flow = hub.session.flow
        assert flow is not None
        assert [e["player"] for e in flow.log() if e.get("player")] == ["Ann"]  # applied once, as Ann's
        # each handset knows its team's seat number from the start (protocol 1.4's result ack)
        for h, seat in ((ann, 1), (ann2, 1), (bob, 2)):
            h.wait_for(lambda h, seat=seat: h.seat == seat)
        assert ann.result is None  # no result before the first reveal
        bob.wait_ack(bob.submit({"bottom": "0", "top": "1"}))
        hub.command({"cmd": "next"})  # the reveal: Ann's range held the answer, Bob's did not
        assert hub.session.flow is not None and hub.session.flow.board()["scores"]["Ann"] == 1
        for h in (ann, ann2):  # every device of the team gets the seat's result and place
            assert {k: h.wait_result()[k] for k in ("seat", "result", "total", "place", "of")} == {
                "seat": 1, "result": 1, "total": 1, "place": 1, "of": 2}
        assert bob.wait_result()["place"] == 2 and bob.result is not None and bob.result["result"] == 0
        results = [a for a in ann.acks if a.get("re") == protocol.RESULT_ACK]
        assert len(results) == 2  # the seat number at the start, the result after the reveal: once each


def test_two_devices_answering_the_same_screen_one_counts_the_other_is_already_in(
        mosquitto: MosquittoBroker, box_id: str) -> None:
    with _hub(box_id, mosquitto) as hub, _handsets(box_id, mosquitto) as (ann, bob, ann2):
        hub.command({"cmd": "team", "handset": "ann2", "team": "ann"})
        _start(hub)
        ann.wait_prompt("range")
        ann2.wait_prompt("range")
        # both press at once: neither has heard of the other's input when it sends its own
        with ann.changed, ann2.changed:
            first = ann.core.submit({"bottom": "1", "top": "9"})
            second = ann2.core.submit({"bottom": "5", "top": "8"})
        a, b = ann.wait_ack(first), ann2.wait_ack(second)
        assert sorted([a["ok"], b["ok"]]) == [False, True]
        refused = a if not a["ok"] else b
        assert refused["code"] == "already_in"
        flow = hub.session.flow
        assert flow is not None and len([e for e in flow.log() if e.get("player")]) == 1
        for h in (ann, ann2):  # both show the team locked in (the refused one too: its team is in)
            h.wait_for(lambda h: h.core.view == VIEW_LOCKED or (h.prompt or {}).get("title") == "Locked in")


def test_the_link_survives_a_restart_and_bad_joins_are_refused(mosquitto: MosquittoBroker, box_id: str,
                                                               tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    with _hub(box_id, mosquitto, store) as hub, _handsets(box_id, mosquitto) as (ann, bob, ann2):
        ann_code = hub.registry.get("ann").code  # type: ignore[union-attr]
        with pytest.raises(QuizboxError, match="wrong team code"):
            hub.command({"cmd": "team", "handset": "ann2", "code": "x" + ann_code})
        with pytest.raises(QuizboxError, match="cannot join itself"):
            hub.command({"cmd": "team", "handset": "ann", "team": "ann"})
        assert hub.command({"cmd": "team", "handset": "ann2", "code": ann_code})["msg"] == "Ann2 now plays for Ann"
        with pytest.raises(QuizboxError, match="plays for another team"):
            hub.command({"cmd": "team", "handset": "bob", "team": "ann2"})
        with pytest.raises(QuizboxError, match="other devices play for Ann"):
            hub.command({"cmd": "team", "handset": "ann", "team": "bob"})
    store.close()

    store = Store(tmp_path / "q.db")  # the box restarted
    with _hub(box_id, mosquitto, store) as hub:
        assert hub.registry.get("ann2").team == "ann"  # type: ignore[union-attr]
        with _handsets(box_id, mosquitto) as (ann, bob, ann2):
            _start(hub)
            assert ann2.wait_prompt("range")["text"] == ann.wait_prompt("range")["text"]
            ann2.wait_ack(ann2.submit({"bottom": "6", "top": "10"}))
            flow = hub.session.flow
            assert flow is not None and [e["player"] for e in flow.log() if e.get("player")] == ["Ann"]
            assert sorted(_names_on_board(hub)) == ["Ann", "Bob"]
            # seating the second device as a player of its own is refused: it plays on Ann's seat
            hub.command({"cmd": "end"})
            with pytest.raises(QuizboxError, match="plays for another team's seat"):
                hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                             "seats": [{"player": "Ann", "handset": "ann"}, {"player": "X", "handset": "ann2"}]})
            assert hub.command({"cmd": "team", "handset": "ann2"})["msg"] == "Ann2 no longer plays for Ann"
            hub.command({"cmd": "team", "handset": "ann2", "team": "ann"})
            hub.command({"cmd": "remove", "handset": "ann"})  # the team's own handset goes: ann2 plays alone
            assert hub.registry.get("ann2").team is None and hub.session.devices == {}  # type: ignore[union-attr]
            assert next(h for h in store.handsets() if h["id"] == "ann2")["team"] is None
    store.close()


def test_the_teams_other_devices_follow_its_seat_to_another_handset(mosquitto: MosquittoBroker, box_id: str,
                                                                    tmp_path: Path) -> None:
    """Issue 30 room-6 follow-up: the quizmaster moved a team's seat to a spare handset, and the team's
    second device stayed linked to the old handset, answering for nobody. Now the links follow the seat."""
    store = Store(tmp_path / "q.db")
    with (_hub(box_id, mosquitto, store) as hub,
          _handsets(box_id, mosquitto, spare="Spare") as (ann, bob, ann2, spare)):
        hub.command({"cmd": "team", "handset": "ann2", "team": "ann"})
        _start(hub)
        before = ann2.wait_prompt("range")["id"]
        reply = hub.command({"cmd": "seat", "player": "Ann", "handset": "spare"})
        assert reply["msg"] == "Ann's seat is now on Spare (and its 1 other device)"
        assert hub.registry.get("ann2").team == "spare" and hub.session.devices == {"ann2": "spare"}  # type: ignore[union-attr]
        assert next(h for h in store.handsets() if h["id"] == "ann2")["team"] == "spare"
        q_spare = spare.wait_prompt("range")
        # the same question on a new screen (its old one, of the same text, is refused as old)
        ann2.wait_for(lambda h: h.prompt is not None and h.prompt.get("kind") == "range"
                      and h.prompt.get("text") == q_spare["text"] and h.prompt.get("id") != before)
        ann.wait_prompt("info")  # the old handset waits, seated nowhere
        ack = ann2.wait_ack(ann2.submit({"bottom": "6", "top": "10"}))
        assert ack["ok"] is True, (ack, ann2.prompt)
        flow = hub.session.flow
        assert flow is not None and [e["player"] for e in flow.log() if e.get("player")] == ["Ann"]
        spare.wait_for(lambda h: any(a.get("re") == protocol.TEAM_ACK for a in h.acks))  # the team's ack
        names = _names_on_board(hub)  # the team once, by its name (the old handset is listed as seatless)
        assert names.count("Ann") == 1 and "Ann2" not in names and "Spare" not in names
        # a seat moved to a handset with no other devices: nothing else moves, nothing more is said
        assert hub.command({"cmd": "seat", "player": "Bob", "handset": "ann"})["msg"] == "Bob's seat is now on Ann"
        assert hub.session.devices == {"ann2": "spare"}
    store.close()
