"""Who is at the table: the registry of handsets the hub has heard from."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from appliance.palette import PALETTE
from firmware import protocol

RECENT_ACKS = protocol.RECENT_ACKS

SHOWN = frozenset({"id", "name", "accepted", "online", "battery", "rssi", "firmware", "layout", "team", "code"})
"""What the board and the admin page show of a handset: a change to one of these moves :func:`revision`."""

_revision = [0]


def revision() -> int:
    """A number that moves whenever any handset's shown fields change, or a registry gains or loses one:
    the board and the admin state keep their lists of handsets while it stays (at 256 handsets comparing
    every field after each input cost more than the input)."""
    return _revision[0]


def _moved() -> None:
    _revision[0] += 1


@dataclass
class Handset:
    id: str
    name: str
    accepted: bool = False
    online: bool = False
    last_seen: float = 0.0
    battery: int | None = None
    rssi: int | None = None
    firmware: str = ""
    layout: str = protocol.LAYOUT_KEYPAD
    identify_until: float = 0.0
    keepalive: int = protocol.KEEPALIVE  # s, from its hello: how long it may stay silent (liveness.py)
    # rules.md room-6: the id of the team's own handset when this device plays for that team (its second
    # phone or handset), else None; the team's code lets another device join it (appliance/edge/teams.py)
    team: str | None = None
    results: bool = False  # its hello said it takes result acks (protocol 1.4; appliance/edge/results.py)
    code: str = field(default_factory=lambda: new_team_code())
    # (seq, prompt id) -> the ack payload sent for it, so a re-delivered input is acked again, not re-applied
    acks: OrderedDict[tuple[int, str], bytes] = field(default_factory=OrderedDict)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in SHOWN and self.__dict__.get(name, _UNSET) != value:
            _moved()
        object.__setattr__(self, name, value)

    def remember_ack(self, seq: int, prompt_id: str, payload: bytes) -> None:
        self.acks[(seq, prompt_id)] = payload
        while len(self.acks) > RECENT_ACKS:
            self.acks.popitem(last=False)

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "accepted": self.accepted,
            "online": self.online,
            "battery": self.battery,
            "rssi": self.rssi,
            "firmware": self.firmware,
            "layout": self.layout,
            "team": self.team,
            "code": self.code,  # the admin state only (the quizmaster's): never on the public board
        }


_UNSET = object()

TEAM_CODE_DIGITS = 6
"""A team's code (rules.md room-6): six digits; a phone's tries are rate limited per network address, and a
stranger's guess must not put them on a team."""


def new_team_code() -> str:
    return f"{secrets.randbelow(10 ** TEAM_CODE_DIGITS):0{TEAM_CODE_DIGITS}d}"


class Registry:
    """Handsets by id, in the order they first said hello."""

    def __init__(self, open_join: bool = True) -> None:
        self.open_join = open_join
        self._handsets: dict[str, Handset] = {}
        self._colours: dict[str, int] = {}  # a handset keeps its colour while the box runs

    def __contains__(self, handset_id: object) -> bool:
        return handset_id in self._handsets

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(list(self._handsets.values()))

    def __len__(self) -> int:
        return len(self._handsets)

    def get(self, handset_id: str) -> Handset | None:
        return self._handsets.get(handset_id)

    def hello(self, handset_id: str, name: str | None, now: float) -> tuple[Handset, bool]:
        """Record a hello; returns the handset and whether it is new."""
        handset = self._handsets.get(handset_id)
        if handset is None:
            handset = Handset(id=handset_id, name=self.unique_name(name or handset_id), accepted=self.open_join)
            self._handsets[handset_id] = handset
            self._colours.setdefault(handset_id, len(self._colours))
            new = True
        else:
            new = False
        handset.online = True
        handset.last_seen = now
        return handset, new

    def unique_name(self, wanted: str, exclude: str | None = None) -> str:
        base = wanted.strip()[: protocol.MAX_NAME] or "player"
        taken = {h.name for h in self._handsets.values() if h.id != exclude}
        name, n = base, 2
        while name in taken:
            suffix = f"-{n}"
            name = base[: protocol.MAX_NAME - len(suffix)] + suffix
            n += 1
        return name

    def remove(self, handset_id: str) -> Handset | None:
        _moved()
        return self._handsets.pop(handset_id, None)

    def colour(self, handset_id: str) -> str:
        return PALETTE[self._colours.get(handset_id, 0) % len(PALETTE)]
