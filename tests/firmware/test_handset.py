"""The handset's connection life: hello, prompts, acks, refusals, and exactly-once delivery."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware import protocol as P
from firmware.core import handset as core
from firmware.core import ui
from firmware.core.handset import FIRMWARE, RESEND_MS, Handset
from tests.firmware import samples
from tests.firmware.support import (
    BOX,
    HID,
    Clock,
    Transport,
    ack,
    link_icon,
    make,
    press,
    show,
    shows,
    status_bar_outside_the_icon,
)


class Appliance:
    """The appliance's side as far as a handset sees it: accepts each (seq, prompt) once, acks every copy
    (hub.py dedups the same way: a duplicate is acked again, never applied twice)."""

    def __init__(self, handset: Handset, transport: Transport) -> None:
        self.handset = handset
        self.transport = transport
        self.applied: list[dict[str, Any]] = []
        self.seen: set[tuple[int, str]] = set()
        self.read = 0

    def deliver(self, lose_acks: bool = False) -> None:
        inputs = self.transport.inputs()
        for msg in inputs[self.read :]:
            key = (msg["seq"], msg["prompt"])
            if key not in self.seen:
                self.seen.add(key)
                self.applied.append(msg["data"])
            if not lose_acks:
                ack(self.handset, msg["seq"], True, "locked in")
        self.read = len(inputs)


def test_connected_subscribes_and_says_hello() -> None:
    handset, transport, _ = make("five")
    handset.connected()
    assert sorted(transport.subscribed) == sorted(
        [P.prompt_topic(BOX, HID), P.ack_topic(BOX, HID), P.time_topic(BOX, HID), P.appliance_heartbeat_topic(BOX)]
    )
    [hello] = transport.on("hello")
    assert P.parse_hello(HID, hello) == {"id": HID, "name": "Ann", "layout": "five", "fw": FIRMWARE, "clock": 1000,
                                         "results": True}  # protocol 1.4: it takes result acks
    assert handset.online


def test_unknown_layout_refused() -> None:
    with pytest.raises(ValueError, match="unknown layout"):
        Handset(BOX, HID, Transport(), layout="dance")


def test_touch_handset_submits_but_has_no_keys() -> None:
    transport = Transport()
    phone = Handset(BOX, HID, transport, layout="touch")
    phone.connected()
    assert transport.on("hello")[0]["layout"] == "touch"
    show(phone, samples.by_id("s1"))
    with pytest.raises(ValueError, match="no key ok on a touch handset"):
        phone.press("ok")
    phone.submit({"split": {"true": 5, "false": 10}})
    assert [i["data"] for i in transport.inputs()] == [{"split": {"true": 5, "false": 10}}]


def test_foreign_and_malformed_messages_change_nothing() -> None:
    handset, transport, _ = make()
    show(handset, samples.by_id("r2"))
    before = (handset.prompt, handset.view)
    assert not handset.on_message(P.prompt_topic(BOX, "other"), P.encode(samples.by_id("b1")))
    assert not handset.on_message(P.prompt_topic(BOX, HID), b"{not json")
    # a kind that is no text (an unknown kind's text now shows as info: test_number.py)
    assert not handset.on_message(P.prompt_topic(BOX, HID), P.encode({"v": 1, "id": "x", "kind": 7}))
    assert not handset.on_message(P.ack_topic(BOX, HID), P.encode({"v": 1, "seq": "1", "ok": True}))
    assert (handset.prompt, handset.view) == before


def test_ack_ok_locks_in_and_refusal_keeps_the_values() -> None:
    handset, transport, _ = make()
    handset.connected()
    show(handset, samples.by_id("b1"))
    [seq] = press(handset, ["3", "next", "5", "0", "ok", "ok"])
    assert handset.view == "sent" and handset.pending["seq"] == seq
    ack(handset, seq, False, "bet at least 60 now")
    assert handset.view == "refused" and handset.message == "bet at least 60 now"
    assert handset.pending is None and handset.last_ack["ok"] is False
    press(handset, ["1"])  # any key dismisses the refusal; the typed values are still there
    assert handset.view == "edit" and handset.editor.fields()[1].int_value() == 50
    [seq2] = press(handset, ["del", "del", "6", "0", "ok", "ok"])
    assert seq2 == seq + 1
    ack(handset, seq2, True, "bet 60")
    assert handset.view == "locked" and handset.message == "bet 60"
    assert [i["data"] for i in transport.inputs()] == [{"action": "bet", "to": 50}, {"action": "bet", "to": 60}]


def test_late_ack_of_another_seq_is_ignored() -> None:
    handset, _, _ = make()
    handset.connected()
    show(handset, samples.by_id("t1"))
    [seq] = press(handset, ["1", "next", "1", "ok", "ok"])
    ack(handset, seq - 1, False, "old news")
    assert handset.pending is not None and handset.view == "sent"


def test_submit_refuses_what_the_prompt_does_not_allow() -> None:
    handset, transport, _ = make()
    handset.connected()
    with pytest.raises(ValueError, match="no question yet"):
        handset.submit({"bottom": "1", "top": "2"})
    show(handset, samples.by_id("i1"))
    with pytest.raises(ValueError, match="nothing to enter"):
        handset.submit({})
    show(handset, samples.by_id("t1"))
    for bad in (
        {"answer": "D", "token": 1},
        {"answer": "A", "token": 3},
        {"answer": "A"},
        {"answer": "A", "token": True},
    ):
        with pytest.raises(ValueError):
            handset.submit(bad)
    assert transport.inputs() == [] and handset.pending is None and handset.seq == 0


def test_only_one_input_in_flight() -> None:
    handset, transport, _ = make()
    handset.connected()
    show(handset, samples.by_id("t1"))
    handset.submit({"answer": "A", "token": 1})
    with pytest.raises(ValueError, match="still sending"):
        handset.submit({"answer": "B", "token": 2})
    assert len(transport.inputs()) == 1


def test_same_prompt_again_keeps_the_entry() -> None:
    handset, _, _ = make()
    show(handset, samples.by_id("r2"))
    press(handset, ["4", "2"])
    show(handset, samples.by_id("r2"))  # re-sent after a reconnect
    assert handset.editor.fields()[0].value() == (42, 0)
    show(handset, samples.by_id("r1"))  # a new question starts afresh
    assert handset.editor.fields()[0].empty()


def test_lost_connection_mid_entry_delivers_exactly_once() -> None:
    handset, transport, _ = make()
    appliance = Appliance(handset, transport)
    handset.connected()
    show(handset, samples.by_id("r2"))
    press(handset, ["1", "0", "next"])
    transport.up = False
    handset.disconnected()  # the port saw the socket die, mid-entry
    press(handset, ["2", "0", "ok", "ok"])
    assert handset.view == "sent" and handset.pending is not None and transport.inputs() == []
    transport.up = True
    handset.connected()  # reconnect: the unacked input goes out, same seq
    appliance.deliver()
    handset.connected()  # another reconnect later: nothing pending, nothing re-sent
    appliance.deliver()
    assert appliance.applied == [{"bottom": "10", "top": "20"}]
    assert len(transport.inputs()) == 1 and handset.view == "locked"


def test_ack_lost_then_reconnect_resends_same_seq_applied_once() -> None:
    handset, transport, _ = make()
    appliance = Appliance(handset, transport)
    handset.connected()
    show(handset, samples.by_id("s1"))
    [seq] = press(handset, ["9", "ok", "ok"])
    appliance.deliver(lose_acks=True)  # delivered, but the ack died with the connection
    handset.disconnected()
    handset.connected()
    appliance.deliver()
    inputs = transport.inputs()
    assert [i["seq"] for i in inputs] == [seq, seq]  # the same input twice on the wire...
    assert appliance.applied == [{"split": {"true": 9, "false": 6}}]  # ...applied once
    assert handset.pending is None and handset.view == "locked"


def test_publish_failure_keeps_input_pending() -> None:
    handset, transport, _ = make()
    handset.connected()
    show(handset, samples.by_id("z1"))
    transport.up = False  # the socket died but nobody noticed yet
    press(handset, ["ok"])
    assert handset.pending is not None and not handset.online
    transport.up = True
    handset.connected()
    assert len(transport.inputs()) == 1


def test_tick_resends_an_unacked_input_after_a_while() -> None:
    handset, transport, _ = make()
    handset.connected()
    show(handset, samples.by_id("z1"))
    press(handset, ["ok"])
    handset.tick()
    assert len(transport.inputs()) == 1
    handset.clock_ms.now += RESEND_MS
    handset.tick()
    assert [i["seq"] for i in transport.inputs()] == [1, 1]
    ack(handset, 1)
    handset.clock_ms.now += RESEND_MS
    handset.tick()
    assert len(transport.inputs()) == 2


def test_refusal_after_the_screen_moved_on_does_not_disturb_it() -> None:
    handset, _, _ = make()
    handset.connected()
    show(handset, samples.by_id("z1"))
    [seq] = press(handset, ["ok"])
    show(handset, samples.by_id("w1"))
    ack(handset, seq, False, "too late")
    assert handset.view == "info" and handset.pending is None


def test_prompt_update_after_answer_stays_locked() -> None:
    handset, _, _ = make()
    handset.connected()
    prompt = samples.by_id("s1")
    show(handset, prompt)
    [seq] = press(handset, ["7", "ok", "ok"])
    ack(handset, seq)
    show(handset, dict(prompt, private={"chips": 15, "on true": 7}))
    assert handset.view == "locked"


def test_telemetry() -> None:
    handset, transport, _ = make()
    handset.battery, handset.rssi = 81, -60
    handset.telemetry()
    [msg] = transport.on("telemetry")
    assert P.parse_telemetry(msg) == {"battery": 81, "rssi": -60, "fw": FIRMWARE, "layout": "keypad"}


def test_seq_wraps_at_the_protocol_limit() -> None:
    transport = Transport()
    handset = Handset(BOX, HID, transport, seq=P.MAX_SEQ)
    handset.connected()
    show(handset, samples.by_id("z1"))
    assert handset.submit({}) == 1


# -- the box's heartbeat (docs/protocol.md, "The box's heartbeat") -------------------------------------------


def beat(handset: Handset, boot: str, every: int = P.HEARTBEAT_MS) -> bool:
    return handset.on_message(
        P.appliance_heartbeat_topic(BOX), P.encode(P.make_heartbeat(1_764_583_200_000, boot, every))
    )


def counting_renders(handset: Handset) -> list[int]:
    drawn: list[int] = []
    real = handset.render
    handset.render = lambda: (drawn.append(1), real())[1]  # type: ignore[method-assign]
    return drawn


def test_a_new_boot_says_hello_again_with_acked_and_resends_the_pending_input() -> None:
    """The appliance restarted while the broker stayed up: no reconnect, so only its heartbeat tells."""
    handset, transport, _ = make()
    handset.connected()
    assert beat(handset, "boot-1")
    show(handset, samples.by_id("t1"))
    [first] = press(handset, ["1", "next", "1", "ok", "ok"])
    handset.on_message(P.ack_topic(BOX, HID), P.encode(P.make_ack(first, True, "locked in", "t1")))
    show(handset, samples.by_id("z1"))
    [second] = press(handset, ["ok"])  # sent; the box dies before acking it
    assert beat(handset, "boot-1")  # the same boot again: nothing said
    assert len(transport.on("hello")) == 1 and [i["seq"] for i in transport.inputs()] == [first, second]
    assert beat(handset, "boot-2")
    hellos = transport.on("hello")
    assert len(hellos) == 2 and P.parse_hello(HID, hellos[1])["acked"] == {"seq": first, "prompt": "t1"}
    assert [i["seq"] for i in transport.inputs()] == [first, second, second]  # the same seq: applied once
    assert handset.box_boot == "boot-2" and handset.online
    assert beat(handset, "boot-2")
    assert len(transport.on("hello")) == 2 and len(transport.inputs()) == 3


def test_the_first_heartbeat_and_the_same_boot_are_quiet() -> None:
    handset, transport, _ = make()
    handset.connected()
    drawn = counting_renders(handset)
    for _ in range(3):
        assert beat(handset, "boot-1")
        handset.clock_ms.now += P.HEARTBEAT_MS
        handset.tick()
    assert drawn == [] and len(transport.on("hello")) == 1 and handset.box_answering()


def test_a_malformed_heartbeat_is_dropped() -> None:
    handset, transport, _ = make()
    handset.connected()
    assert beat(handset, "boot-1")
    heard = handset.box_heard
    handset.clock_ms.now += 1000
    topic = P.appliance_heartbeat_topic(BOX)
    for bad in (
        b"{nope",
        P.encode({"v": 1, "at": 1, "every": 0, "boot": "boot-2"}),
        P.encode({"v": 1, "at": 1, "every": 2000, "boot": ""}),
        P.encode({"v": 1, "at": 1, "every": 2000}),
    ):
        assert not handset.on_message(topic, bad)
    assert (handset.box_heard, handset.box_boot) == (heard, "boot-1") and len(transport.on("hello")) == 1


def test_box_answering_is_false_before_any_heartbeat() -> None:
    handset, _, fb = make()
    handset.connected()
    assert not handset.box_answering()
    handset.tick()
    assert not handset.box_silent and not shows(fb, ui.BOX_SILENT)  # no flash before the retained one arrives
    assert beat(handset, "boot-1") and handset.box_answering()


def test_the_box_going_quiet_is_shown_on_the_footer_once() -> None:
    handset, _, fb = make()
    handset.connected()
    show(handset, samples.by_id("r1"))
    assert beat(handset, "boot-1") and shows(fb, "score: 7")
    drawn = counting_renders(handset)
    handset.clock_ms.now += P.STALE_MS - 1
    handset.tick()
    assert handset.box_answering() and drawn == []
    handset.clock_ms.now += 1
    handset.tick()
    assert not handset.box_answering() and handset.box_silent and drawn == [1]
    assert shows(fb, ui.BOX_SILENT) and not shows(fb, "score: 7")  # row 7, instead of the private line
    assert shows(fb, "Bones in an")  # the question stays
    handset.clock_ms.now += 10_000
    handset.tick()
    assert drawn == [1]  # once, not on every tick
    assert beat(handset, "boot-1")  # back: redrawn once, the footer is the player's again
    assert drawn == [1, 1] and handset.box_answering() and not shows(fb, ui.BOX_SILENT) and shows(fb, "score: 7")
    assert beat(handset, "boot-1") and drawn == [1, 1]


# the status bar's link icon, "#" dark on the lit bar: three rising bars, the tallest broken into a "!" while
# the box is silent (connected to the broker, no heartbeat: as a phone shows "connected, no internet"), a cross
LINK_ANSWERING = [
    "........",
    "......##",
    "......##",
    "...##.##",
    "...##.##",
    "##.##.##",
    "##.##.##",
    "........",
]
LINK_SILENT = [
    "........",
    "......##",
    "......##",
    "...##.##",
    "...##.##",
    "##.##...",
    "##.##.##",
    "........",
]
LINK_OFFLINE = [
    "........",
    ".#....#.",
    "..#..#..",
    "...##...",
    "...##...",
    "..#..#..",
    ".#....#.",
    "........",
]


def test_the_link_icon_says_offline_answering_and_box_silent() -> None:
    handset, _, fb = make()
    handset.battery = 82
    assert link_icon(fb) == LINK_OFFLINE
    handset.connected()
    show(handset, samples.by_id("r1"))
    assert beat(handset, "boot-1")
    assert link_icon(fb) == LINK_ANSWERING
    bar = status_bar_outside_the_icon(fb)
    drawn = counting_renders(handset)
    handset.clock_ms.now += P.STALE_MS
    handset.tick()
    assert drawn == [1] and shows(fb, ui.BOX_SILENT)
    assert link_icon(fb) == LINK_SILENT  # with the footer, at the top too
    assert status_bar_outside_the_icon(fb) == bar  # the title and the battery stay where they were
    ui.error_screen(fb, handset)
    assert link_icon(fb) == LINK_SILENT  # a screen that failed to draw keeps the status bar right
    handset.disconnected()
    assert link_icon(fb) == LINK_OFFLINE  # offline wins: the box cannot be heard without the broker


def test_the_link_icon_is_back_on_the_next_heartbeat_and_beats_redraw_nothing() -> None:
    handset, _, fb = make()
    handset.connected()
    show(handset, samples.by_id("i1"))
    handset.clock_ms.now += P.STALE_MS - 1
    handset.tick()
    assert link_icon(fb) == LINK_ANSWERING  # no warning before the retained heartbeat had its time
    drawn = counting_renders(handset)
    handset.clock_ms.now += 1
    handset.tick()  # never heard since the connect, for the stale time
    assert drawn == [1] and link_icon(fb) == LINK_SILENT
    handset.clock_ms.now += 60_000
    handset.tick()
    assert drawn == [1] and link_icon(fb) == LINK_SILENT
    assert beat(handset, "boot-1")
    assert drawn == [1, 1] and link_icon(fb) == LINK_ANSWERING and not shows(fb, ui.BOX_SILENT)
    for _ in range(3):
        handset.clock_ms.now += P.HEARTBEAT_MS
        assert beat(handset, "boot-1")
        handset.tick()
    assert drawn == [1, 1] and link_icon(fb) == LINK_ANSWERING


def test_box_silence_on_the_idle_screen_and_a_notice_goes_first() -> None:
    handset, _, fb = make()
    handset.connected()
    handset.clock_ms.now += P.STALE_MS
    handset.tick()  # never heard since the connect, for the stale time
    assert handset.box_silent and shows(fb, ui.BOX_SILENT) and shows(fb, "waiting for game")
    show(handset, samples.by_id("r2"))
    assert shows(fb, ui.BOX_SILENT)
    press(handset, ["5", "ok"])  # no top yet: the entry's notice takes the footer
    assert handset.editor.notice == "enter To" and shows(fb, "enter To") and not shows(fb, ui.BOX_SILENT)
    assert link_icon(fb) == LINK_SILENT  # the notice has the footer; the status bar still tells


def test_offline_shows_the_link_not_the_box() -> None:
    handset, _, fb = make()
    handset.connected()
    show(handset, samples.by_id("i1"))
    handset.clock_ms.now += P.STALE_MS
    handset.tick()
    assert shows(fb, ui.BOX_SILENT)
    handset.disconnected()
    assert not handset.box_silent and shows(fb, "no connection") and not shows(fb, ui.BOX_SILENT)
    handset.clock_ms.now += P.STALE_MS
    handset.connected()  # a reconnect gives the box the stale time again to be heard from
    assert not handset.box_silent and not shows(fb, ui.BOX_SILENT)


def test_a_slow_heartbeat_counts_three_of_its_periods() -> None:
    handset, _, _ = make()
    handset.connected()
    assert beat(handset, "boot-1", every=5000)
    handset.clock_ms.now += 3 * 5000 - 1
    handset.tick()
    assert handset.box_answering() and not handset.box_silent
    handset.clock_ms.now += 1
    handset.tick()
    assert not handset.box_answering() and handset.box_silent


PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here (time.ticks_diff)


def ticks_diff(now: int, then: int) -> int:
    return ((now - then + PERIOD // 2) & (PERIOD - 1)) - PERIOD // 2


def test_box_silence_across_a_ticks_wrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "_elapsed", ticks_diff)
    handset, _, _ = make()
    handset.clock_ms.now = PERIOD - 1000
    handset.connected()
    assert beat(handset, "boot-1")
    handset.clock_ms.now = (PERIOD - 1000 + P.STALE_MS - 1) % PERIOD  # wrapped past zero
    handset.tick()
    assert handset.box_answering() and not handset.box_silent
    handset.clock_ms.now += 1
    handset.tick()
    assert not handset.box_answering() and handset.box_silent


# -- the unacked input across a reboot, a box that never acks (issue 33) ------------------------------------


def _booted(path: Path, seq: int = 0) -> tuple[Handset, Transport]:
    transport = Transport()
    handset = Handset(BOX, HID, transport, clock_ms=Clock(), seq=seq, keep=core.PendingFile(str(path)))
    return handset, transport


def test_an_unacked_input_outlives_a_restart_and_its_file_goes_with_the_ack(tmp_path: Path) -> None:
    kept = tmp_path / "pending"
    handset, transport = _booted(kept)
    show(handset, samples.by_id("r2"))
    transport.up = False  # sent into a dead link: pending
    [seq] = press(handset, ["1", "2", "next", "2", "0", "ok", "ok"])
    assert kept.exists() and transport.inputs() == []
    again, transport = _booted(kept, seq=1000)  # the next boot, a new seq block
    assert again.pending is not None and again.view == "sent"
    again.connected()
    show(again, samples.by_id("r2"))  # the prompt it answers: still on its way, not an empty form
    assert again.view == "sent"
    assert [(i["seq"], i["data"]) for i in transport.inputs()] == [(seq, {"bottom": "12", "top": "20"})]
    ack(again, seq, True, "locked in")
    assert again.view == "locked" and not kept.exists() and again.pending is None


@pytest.mark.parametrize("text", ["{not json", '{"input": "x"}', '{"input": {"v": 1, "seq": -4}}'])
def test_an_unreadable_pending_file_is_dropped_with_a_word(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "pending"
    kept.write_text(text)
    handset, transport = _booted(kept)
    assert handset.pending is None and not kept.exists()
    assert "pending" in capsys.readouterr().out
    handset.connected()
    show(handset, samples.by_id("z1"))
    assert press(handset, ["ok"]) == [1]


def test_a_full_flash_still_sends_the_input(tmp_path: Path) -> None:
    handset, transport = _booted(tmp_path / "no-such-folder" / "pending")
    handset.connected()
    show(handset, samples.by_id("z1"))
    assert press(handset, ["ok"]) == [1] and len(transport.inputs()) == 1


def test_an_input_with_no_ack_is_given_up_and_the_next_question_answered() -> None:
    handset, transport, _ = make()
    handset.connected()
    show(handset, samples.by_id("r2"))
    [seq] = press(handset, ["1", "next", "2", "ok", "ok"])
    for _ in range(core.GIVE_UP_SENDS + 2):
        handset.clock_ms.now += RESEND_MS
        handset.tick()
    assert len(transport.inputs()) == core.GIVE_UP_SENDS
    assert handset.view == "refused" and handset.message == core.NO_ACK and handset.pending is None
    press(handset, ["next"])  # dismissed: the values are kept
    assert press(handset, ["ok", "ok"]) == [seq + 1]
    show(handset, samples.by_id("z1"))  # a new question while that one is unacked: it is moot
    assert press(handset, ["ok"]) == [seq + 2]
    assert transport.inputs()[-1]["prompt"] == samples.by_id("z1")["id"]


def test_a_stale_refusal_after_the_box_restarted_offers_the_answer_again() -> None:
    handset, transport, _ = make()
    handset.connected()
    first = dict(samples.by_id("r2"), id="aaaaaa-p3")
    show(handset, first)
    [seq] = press(handset, ["1", "next", "2", "ok", "ok"])
    show(handset, dict(first, id="bbbbbb-p1"))  # the same question under the box's new boot
    stale = P.make_ack(seq, False, "That question is over", "aaaaaa-p3", "stale")
    assert handset.on_message(P.ack_topic(BOX, HID), P.encode(stale))
    assert handset.view == "edit" and handset.editor.review and handset.editor.notice == core.SEND_AGAIN
    assert press(handset, ["ok"]) == [seq + 1]
    assert transport.inputs()[-1]["prompt"] == "bbbbbb-p1"
    # another question (not the same asked again): said in words, any key goes on to it
    show(handset, samples.by_id("w1"))
    stale = P.make_ack(seq + 1, False, "That question is over", "bbbbbb-p1", "stale")
    assert handset.on_message(P.ack_topic(BOX, HID), P.encode(stale))
    assert handset.view == "refused" and handset.message == core.NOT_TAKEN
    press(handset, ["1"])
    assert handset.view == "info"


# -- protocol 1.4 (issue 30): a team on several devices, and the seat's result and place ---------------------


def _deliver_ack(handset: Handset, payload: dict[str, Any]) -> bool:
    return handset.on_message(P.ack_topic(BOX, HID), P.encode(payload))


def test_a_team_ack_locks_in_the_screen_it_names_and_nothing_else() -> None:
    handset, transport, _ = make()
    handset.connected()
    prompt = samples.by_id("r1")
    show(handset, prompt)
    other = P.make_ack(-1, True, "8 to 9.5", "some-other-prompt", about=P.TEAM_ACK)
    assert _deliver_ack(handset, other) and handset.view == "edit"  # not the screen on show: nothing changes
    assert _deliver_ack(handset, P.make_ack(-1, True, "8 to 9.5", prompt["id"], about=P.TEAM_ACK))
    assert handset.view == "locked" and handset.message == "8 to 9.5"  # the team's answer is in
    assert transport.inputs() == [] and handset.acked is None  # nothing of its own was sent or acked


def test_a_team_ack_does_not_settle_an_input_in_flight_and_already_in_shows_locked() -> None:
    handset, _, _ = make()
    handset.connected()
    show(handset, samples.by_id("r1"))
    [seq] = press(handset, ["1", "next", "9", "ok", "ok"])
    assert _deliver_ack(handset, P.make_ack(-1, True, "2 to 3", samples.by_id("r1")["id"], about=P.TEAM_ACK))
    assert handset.view == "sent" and handset.pending is not None  # its own input still waits for its ack
    assert _deliver_ack(handset, P.make_ack(seq, False, "your team is in already", samples.by_id("r1")["id"],
                                            code="already_in"))
    assert handset.view == "locked" and handset.pending is None


def test_a_team_ack_before_the_prompt_it_names_locks_that_prompt_in() -> None:
    # a merged-tree browser run: both phones of a team pressed at once; the box took Ann's input, sent the
    # team's updated prompt (a new id) and the team ack for it while this device's own input was on its way,
    # then refused that input already_in for the older screen: the device stayed on the new form
    handset, _, _ = make()
    handset.connected()
    old = samples.by_id("r1")
    show(handset, old)
    [seq] = press(handset, ["1", "next", "9", "ok", "ok"])
    new = {**old, "id": old["id"] + "-2"}
    assert _deliver_ack(handset, P.make_ack(-1, True, "2 to 3", new["id"], about=P.TEAM_ACK))
    show(handset, new)
    assert handset.view == "locked" and handset.message == "2 to 3"
    assert _deliver_ack(handset, P.make_ack(seq, False, "your team is in already", old["id"], code="already_in"))
    assert handset.view == "locked" and handset.pending is None


def test_the_seat_number_and_a_result_line_are_shown() -> None:
    handset, transport, fb = make()
    handset.connected()
    show(handset, samples.by_id("i1"))
    assert _deliver_ack(handset, P.make_result(37, 0, 1, 40, "points"))  # a game's start: the seat alone
    assert handset.seat == 37 and handset.result is None
    assert shows(fb, "#37")
    assert _deliver_ack(handset, P.make_result(37, 7, 2, 40, "points", result=3))
    assert handset.result is not None and handset.result["place"] == 2
    assert shows(fb, "+3 pts 2nd/40")
    assert len(P.encode(P.make_result(40, -123456, 40, 40, "chips", result=-99999))) < 200  # well within limits
    with pytest.raises(P.ProtocolError):
        P.parse_result({**P.make_result(3, 0, 1, 40), "place": 41})
    assert _deliver_ack(handset, {"v": 1, "seq": -1, "ok": True, "re": "result", "seat": "x"}) is False
    assert handset.seat == 37 and transport.inputs() == []
