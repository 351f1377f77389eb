"""A team on several devices (rules.md room-6): which device plays on which team's seat.

A team is its own handset (the one the quizmaster seats); a second phone or handset joins it, by the
quizmaster's word on the admin page or with the team's code (six digits, on the admin page's Handsets
list: the quizmaster reads it out, or a team's player does from their first phone). The hub keeps the
link "device -> team handset" on the device's :class:`Handset` (``team``) and in the store with it, so a
restart keeps every device on its team; the session reads it as :attr:`Session.devices` and plays such a
device as its team's handset: the team's prompt, its input as the team's, the team listed once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from appliance.edge.handsets import Handset, Registry
from appliance.errors import IllegalAction, MalformedInput
from firmware import protocol

if TYPE_CHECKING:
    from appliance.edge.hub import Hub
    from appliance.session.session import Session


class TeamHost(Protocol):
    """What joining a team needs of the hub."""

    session: Session
    registry: Registry

    def save_handset(self, handset: Handset) -> None: ...



def restore(hub: TeamHost, handset: Handset, saved: dict[str, object]) -> None:
    """A handset read back from the store: its team (if it plays for one) and its code."""
    team, code = saved.get("team"), saved.get("code")
    handset.team = team if isinstance(team, str) and team else None
    handset.code = code if isinstance(code, str) and code.isdigit() else handset.code
    sync(hub)


def sync(hub: TeamHost) -> None:
    """The session's view of the links (device -> team handset), from the registry."""
    hub.session.set_devices({h.id: h.team for h in hub.registry if h.team is not None})


def devices_of(hub: TeamHost, team_id: str) -> list[Handset]:
    """Every device playing on ``team_id``'s seat: its own handset first, then the others it joined."""
    own = hub.registry.get(team_id)
    others = [h for h in hub.registry if h.team == team_id]
    return ([own] if own is not None else []) + others


def find_team(hub: TeamHost, team: str | None, code: str | None) -> Handset:
    """The team a device asks to join: by the team handset's id (the quizmaster), or by its code."""
    if code is not None:
        typed = "".join(code.split())
        found: Handset | None = next(
            (h for h in hub.registry if h.team is None and h.accepted and h.code and h.code == typed), None)
        if found is None:
            raise IllegalAction("wrong team code")
        return found
    found = hub.registry.get(team or "")
    if found is None:
        raise protocol.ProtocolError(f"no handset {team!r}", "unknown_handset")
    return found


def join(hub: TeamHost, device_id: str, team: str | None, code: str | None) -> str:
    """``device_id`` plays on a team's seat from now on (``team`` and ``code`` None or empty: it plays on
    its own again). Refused, changing nothing, when the device holds a seat of its own in the running game
    or is a team other devices play for, or the team is itself another team's device."""
    device = hub.registry.get(device_id)
    if device is None:
        raise protocol.ProtocolError(f"no handset {device_id!r}", "unknown_handset")
    if not team and not code:
        if device.team is None:
            return f"{device.name} plays on its own"
        old = hub.registry.get(device.team)
        _link(hub, device, None)
        return f"{device.name} no longer plays for {old.name if old else 'its team'}"
    target = find_team(hub, team, code)
    if not device.accepted:
        raise IllegalAction(f"{device.name} is not at the table yet")
    if target.id == device.id:
        raise MalformedInput(f"{device.name} cannot join itself")
    if not target.accepted:
        raise IllegalAction(f"{target.name} is not at the table yet")
    if target.team is not None:
        raise IllegalAction(f"{target.name} plays for another team: join that team")
    if device.team == target.id:
        return f"{device.name} already plays for {target.name}"
    if any(h.team == device.id for h in hub.registry):
        raise IllegalAction(f"other devices play for {device.name}: it keeps its own seat")
    seated = hub.session.seats
    if device.id in seated.values() and hub.session.state == "playing":
        raise IllegalAction(f"{device.name} holds a seat in this game: move that seat first")
    _link(hub, device, target.id)
    return f"{device.name} now plays for {target.name}"


def unlink_all(hub: TeamHost, team_id: str) -> None:
    """``team_id``'s handset was removed: the devices that played for it play on their own again."""
    for device in [h for h in hub.registry if h.team == team_id]:
        device.team = None
        hub.save_handset(device)
    sync(hub)


def follow_seat(hub: TeamHost, old_id: str, new_id: str) -> int:
    """A team's seat moved from handset ``old_id`` to ``new_id`` (the quizmaster's seat change, or the
    team's own retake with its seat code): the team's other devices play for it on its new handset, so
    they follow the seat (rules.md room-6); ``new_id`` holds a seat of its own now, so a link it had to
    another team is dropped. Returns how many devices followed."""
    new = hub.registry.get(new_id)
    followers = [h for h in hub.registry if h.team == old_id and h.id != new_id]
    if new is not None and new.team is not None:
        new.team = None
        hub.save_handset(new)
        hub.session.forget(new.id)
    for device in followers:
        device.team = new_id
        hub.save_handset(device)
        hub.session.forget(device.id)  # its next prompt is its team's, sent as new
    sync(hub)
    return len(followers)


def _link(hub: TeamHost, device: Handset, team: str | None) -> None:
    device.team = team
    sync(hub)
    hub.session.forget(device.id)  # its next prompt is its team's (or its own), sent as new
    hub.save_handset(device)


def team_acks(hub: Hub, sender: Handset, message: str) -> None:
    """After ``sender``'s input was accepted: every other device of its team gets an ack too (protocol
    1.4: seq -1, ``re`` "team", its own current prompt id), so each shows the team's answer is in. A
    handset built before it finds no input of its own with seq -1 and ignores it."""
    team_id = hub.session.team_of(sender.id)
    if team_id == sender.id and team_id not in hub.session.devices.values():
        return  # a team on one device: nothing more to say (the cheap path of every input)
    for device in devices_of(hub, team_id):
        if device.id == sender.id or not device.online:
            continue
        local = hub.session.sent_id(device.id)
        wire = f"{hub.boot}-{local}" if local is not None else None
        ack = protocol.make_ack(-1, True, message, wire, about=protocol.TEAM_ACK)
        hub.outbox.post(protocol.ack_topic(hub.box, device.id), protocol.encode(ack))
