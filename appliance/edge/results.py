"""Each seat's result and place for its handsets (issue 30 item 2, protocol revision 1.4).

When a game starts (or the box resumes one) every seat's devices are told their seat number; after each
question's reveal (the points changed while nobody is being waited for), each seat's devices are told what
that question changed for it, its total and its place among the seats (equal totals share a place). The
message is a small ack on the handset's own ack topic (``re`` "result", ``seq`` -1; no new topic, so every
paired account may already read it), sent only to handsets whose hello says ``"results": true``: a handset
built before 1.4 never gets one. The totals are the game's own
public standing (appliance.games.registry.read_standing), the one the TV's scoreboard reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from appliance.edge import teams
from appliance.games.registry import read_standing
from firmware import protocol

if TYPE_CHECKING:
    from appliance.edge.hub import Hub


class Results:
    """What the hub last told the seats, so it says each reveal once."""

    def __init__(self) -> None:
        self._game: object = None  # the set-up of the game last seen (kept across an undo's rebuild)
        self._version = -1  # the session's version last looked at
        self._totals: dict[str, int] = {}

    def after_change(self, hub: Hub) -> None:
        """Called after the hub published what changed: tell the seats what a reveal changed."""
        session = hub.session
        if session.version == self._version:
            return
        self._version = session.version
        flow, setup = session.flow, session.setup
        if flow is None or setup is None or session.state not in ("playing", "results"):
            self._game = None
            return
        if setup is self._game and session.state == "playing" and flow.waiting_for_players():
            return  # a question is open (the path of almost every input): no reveal to tell, nothing built
        seats = list(session.seats)
        standing = read_standing(setup.game, flow.board(session.game_time()), seats)
        totals = {p: _whole(standing.points.get(p)) for p in seats}
        if setup is not self._game:  # a new game: each seat's number, nothing to say about results yet
            self._game, self._totals = setup, totals
            self._send(hub, totals, standing.unit, None)
            return
        if totals == self._totals:
            return
        changes = {p: totals[p] - self._totals.get(p, 0) for p in seats}
        self._totals = totals
        self._send(hub, totals, standing.unit, changes)

    def _send(self, hub: Hub, totals: dict[str, int], unit: str, changes: dict[str, int] | None) -> None:
        seats = list(hub.session.seats.items())
        for number, (player, handset_id) in enumerate(seats, 1):
            place = 1 + sum(1 for q in totals if totals[q] > totals[player])
            payload: dict[str, Any] = protocol.make_result(number, totals[player], place, len(seats), unit,
                                                           None if changes is None else changes[player])
            encoded = protocol.encode(payload)
            for device in teams.devices_of(hub, handset_id):
                if device.results:  # only to handsets whose hello says they take them (older ones: never)
                    hub.outbox.post(protocol.ack_topic(hub.box, device.id), encoded)


def _whole(value: object) -> int:
    """A total as a whole number (a table may hold None for a player with no entry yet)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return round(value)
