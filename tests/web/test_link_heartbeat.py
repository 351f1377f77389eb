"""The admin page judges the box by its heartbeat's own time, not by when this page heard it: a retained
heartbeat a restarted broker hands over on reconnect is as old as the beat, however late the page
reconnected (two pages of one box, reconnected a second apart, say "not answering" at the same moment)."""

from __future__ import annotations

from appliance.edge.mqtt import Connection
from firmware import protocol
from web.link import MqttLink

BOX = "stale1"
LAST_BEAT_WALL = 1_764_000_000.0  # the dead box's last heartbeat (wall clock, s)


class Clocks:
    """One machine's two clocks, moved together."""

    def __init__(self) -> None:
        self.mono = 500.0
        self.wall_now = LAST_BEAT_WALL

    def clock(self) -> float:
        return self.mono

    def wall(self) -> float:
        return self.wall_now

    def advance(self, seconds: float) -> None:
        self.mono += seconds
        self.wall_now += seconds


def _link(clocks: Clocks) -> MqttLink:
    link = MqttLink(BOX, Connection("127.0.0.1", 1), clock=clocks.clock, wall=clocks.wall)
    link.client.connected.set()  # the link is up (no broker here: the messages are handed in below)
    link._on_message(protocol.appliance_status_topic(BOX), protocol.ONLINE.encode())
    return link


def _beat(link: MqttLink, at_wall: float) -> None:
    payload = protocol.encode(protocol.make_heartbeat(round(at_wall * 1000), "boot1"))
    link._on_message(protocol.appliance_heartbeat_topic(BOX), payload)


def test_a_retained_heartbeat_counts_from_its_own_time_not_from_the_reconnect() -> None:
    clocks = Clocks()
    early, late = _link(clocks), _link(clocks)
    clocks.advance(1.0)
    _beat(early, LAST_BEAT_WALL)  # one page reconnects 1 s after the last beat and gets it retained
    clocks.advance(2.0)
    _beat(late, LAST_BEAT_WALL)  # the other 3 s after it: the same beat
    assert early.appliance_online() and late.appliance_online()
    clocks.advance(protocol.STALE_MS / 1000 - 3.0 - 0.1)  # just before the beat is STALE_MS old
    assert early.appliance_online() and late.appliance_online()
    clocks.advance(0.2)  # just after: both pages say it at once
    assert not early.appliance_online() and not late.appliance_online()


def test_a_live_heartbeat_keeps_the_box_answering_and_an_old_one_is_no_sign_of_life() -> None:
    clocks = Clocks()
    link = _link(clocks)
    for _ in range(10):
        _beat(link, clocks.wall_now)
        clocks.advance(protocol.HEARTBEAT_MS / 1000)
        assert link.appliance_online()
    clocks.advance(protocol.STALE_MS / 1000)
    assert not link.appliance_online()
    _beat(link, clocks.wall_now - protocol.STALE_MS / 1000 - 1)  # a beat older than STALE_MS: not alive
    assert not link.appliance_online()
    _beat(link, clocks.wall_now + 0.5)  # a box whose clock is half a second ahead: heard now
    assert link.appliance_online()
    clocks.advance(protocol.STALE_MS / 1000 - 0.1)
    assert link.appliance_online()
