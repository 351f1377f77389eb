"""The board's and the admin state's lists of handsets are kept while no handset changes what they show
(issue 22: at 256 handsets comparing every field of every handset after each input cost more than the
input); any shown change, a new handset or a removed one makes them anew."""

from __future__ import annotations

import time

from appliance.edge.handsets import Handset, Registry, revision
from appliance.flows import flow_factory
from appliance.session.session import Session


def _colour(_: str) -> str:
    return "#fff"


def test_a_shown_change_moves_the_revision_and_a_hidden_one_does_not() -> None:
    handset = Handset(id="h1", name="Ann")
    before = revision()
    handset.last_seen, handset.identify_until = 5.0, 9.0
    handset.online = False  # unchanged
    assert revision() == before
    handset.battery = 40
    assert revision() == before + 1


def test_the_board_list_follows_every_shown_change() -> None:
    registry = Registry()
    session = Session(time.monotonic, flows=flow_factory)
    ann, _ = registry.hello("h1", "Ann", 0.0)
    first = session.board_players(list(registry), _colour)
    assert session.board_players(list(registry), _colour) is first  # nothing changed: the same list
    ann.last_seen = 99.0
    assert session.board_players(list(registry), _colour) is first
    ann.battery = 12
    assert session.board_players(list(registry), _colour)[0]["battery"] == 12
    registry.hello("h2", "Bob", 0.0)
    assert [p["name"] for p in session.board_players(list(registry), _colour)] == ["Ann", "Bob"]
    registry.remove("h1")
    assert [p["name"] for p in session.board_players(list(registry), _colour)] == ["Bob"]
    other = [Handset(id="h9", name="Zed", accepted=True)]  # another list of handsets, same revision
    assert [p["name"] for p in session.board_players(other, _colour)] == ["Zed"]
