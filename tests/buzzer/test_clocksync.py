"""Clock offsets (appliance/edge/clocksync.py): the bounds, the estimate, the ping schedule, a press's age."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.edge.clocksync import ClockSync, Sample, estimate
from firmware import protocol

OFFSET = 5_000_000  # the handset's clock runs this far ahead of the appliance's


def sample(t0: int, down: int, up: int, offset: int = OFFSET) -> Sample:
    """An exchange sent at appliance ``t0`` taking ``down`` ms to the handset and ``up`` ms back."""
    return Sample(t0, t0 + down + offset, t0 + down + up)


def test_one_sample_gives_the_ntp_midpoint_and_its_bounds() -> None:
    found = estimate([sample(1000, 30, 10)])
    assert found is not None
    assert (found.low, found.high) == (OFFSET - 10, OFFSET + 30)
    assert found.offset == 1000 + 30 + OFFSET - (1000 + 1040) / 2  # th - (t0 + t3) / 2
    assert found.error == 20


def test_the_fastest_way_down_and_the_fastest_way_up_fix_the_offset() -> None:
    # no single fast round trip: the best down (2 ms) and the best up (3 ms) come from different samples
    samples = [sample(0, 2, 70), sample(500, 60, 3), sample(1000, 40, 40)]
    found = estimate(samples)
    assert found is not None
    assert (found.low, found.high) == (OFFSET - 3, OFFSET + 2)
    assert abs(found.offset - OFFSET) <= 0.5
    assert min(s.rtt for s in samples) == 63  # a plain min-RTT filter would be off by up to 31 ms


def test_the_newest_samples_win_when_the_clock_jumped() -> None:
    old = [sample(t, 5, 5, offset=OFFSET) for t in (0, 200, 400)]
    new = [sample(t, 5, 5, offset=123) for t in (600, 800)]
    found = estimate(old + new)
    assert found is not None and found.samples == 2 and found.offset == 123


def test_no_samples_no_estimate() -> None:
    assert estimate([]) is None


@settings(max_examples=200)
@given(st.integers(-10**9, 10**9), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 200),
                                                       st.integers(0, 200)), min_size=1, max_size=20))
def test_the_true_offset_is_always_inside_the_bounds(offset: int, exchanges: list[tuple[int, int, int]]) -> None:
    found = estimate([sample(t0, down, up, offset) for t0, down, up in exchanges])
    assert found is not None and found.low <= offset <= found.high
    assert abs(found.offset - offset) <= found.error
    best_down, best_up = min(d for _, d, _ in exchanges), min(u for _, _, u in exchanges)
    assert found.error == (best_down + best_up) / 2  # every sample agrees when the clock is steady


# -- the hub's side ------------------------------------------------------------------------------------


def answer(sync: ClockSync, handset: str, ping: dict[str, Any], down: int, up: int,
           offset: int = OFFSET) -> Sample | None:
    """The handset answers ``ping`` after ``down`` ms; the answer arrives ``up`` ms later."""
    obj = protocol.decode(protocol.encode(ping))
    reply = protocol.answer_ping(obj, obj["t0"] + down + offset)
    assert reply is not None
    return sync.on_reply(handset, protocol.parse_clock(handset, reply), obj["t0"] + down + up)


def test_the_defaults_ping_a_pub_table_every_second_and_256_handsets_within_the_rate() -> None:
    sync = ClockSync()
    handsets = [f"h{i}" for i in range(256)]
    sent = {h: 0 for h in handsets}
    for now in range(0, 120_001, 100):  # the hub's tick, for two minutes
        for handset, _ in sync.due(now, handsets):
            sent[handset] += 1
    assert sum(sent.values()) <= 100 * 121  # 100 a second at most
    assert min(sent.values()) >= 120 / 2.6 - 2  # everyone, evenly: every 2.56 s
    small = ClockSync()
    counts = [len(small.due(now, ["a", "b"])) for now in range(0, 60_001, 100)]
    assert sum(counts) == 2 * (6 + 59)  # the burst of 6, then one a second


def test_a_room_is_pinged_a_few_at_a_time_never_all_at_once() -> None:
    """40 handsets in a buzzer round were pinged in one tick every second: their 40 answers came back to the
    hub together, and a buzz arriving with them waited behind all 40 (the slowest acks of a 40-handset run)."""
    sync = ClockSync()
    table = [f"h{i:02d}" for i in range(40)]
    sent = {h: [] for h in table}  # type: dict[str, list[int]]
    per_tick = []
    for now in range(0, 60_001, 100):  # the hub's tick
        pings = sync.due(now, table)
        per_tick.append(len(pings))
        for handset, _ in pings:
            sent[handset].append(now)
    assert max(per_tick) <= 10
    steady = per_tick[100:600]  # 50 s after the bursts at join: 40 a second, spread over the ticks
    assert sum(steady) == 40 * 50
    assert sum(1 for n in steady if n) >= len(steady) * 4 // 10  # on four ticks in ten at least, not one
    for times in sent.values():  # still every second, each handset
        gaps = [b - a for a, b in zip(times[8:], times[9:], strict=False)]
        assert gaps and max(gaps) <= 1100


def test_pings_go_out_in_a_burst_at_join_then_every_period() -> None:
    sync = ClockSync(period_ms=2000, burst=3, burst_gap_ms=100)
    sent: list[int] = []
    for now in range(0, 6001, 50):
        for handset, ping in sync.due(now, ["h1"]):
            assert handset == "h1" and ping["t0"] == now
            sent.append(now)
    assert sent == [0, 100, 200, 2200, 4200]


def test_outside_a_buzzer_round_pings_are_idle_period_apart_and_a_round_pings_everyone_at_once() -> None:
    sync = ClockSync(period_ms=1000, idle_period_ms=10_000, burst=3, burst_gap_ms=100)
    sync.pace(False, 0)  # the lobby, or Confident? or poker: no press is timed
    sent: dict[str, list[int]] = {"old": [], "new": []}

    def run(start: int, stop: int, table: list[str]) -> None:
        for now in range(start, stop, 50):
            for handset, ping in sync.due(now, table):
                sent[handset].append(now)
                answer(sync, handset, ping, 5, 5)

    run(0, 30_001, ["old"])
    assert sent["old"] == [0, 10_000, 20_000, 30_000]  # one at join (no burst), then every idle period
    run(30_050, 30_101, ["old", "new"])  # "new" joins just before the round
    assert sent["new"] == [30_050]
    sync.pace(True, 30_150)  # a buzzer round starts
    run(30_150, 33_001, ["old", "new"])
    assert sent["old"][4:] == [30_150, 31_150, 32_150]  # at once (it has its samples), then every second
    assert sent["new"] == [30_050, 30_150, 30_250, 31_250, 32_250]  # a burst to 3 samples, then every second
    sync.pace(False, 33_000)
    run(33_050, 60_001, ["old"])
    assert sent["old"][7:] == [33_150, 43_150, 53_150]


def test_a_buzzer_round_gives_a_handset_with_few_samples_the_burst_again() -> None:
    sync = ClockSync(period_ms=1000, idle_period_ms=10_000, burst=4, burst_gap_ms=100, window_ms=20_000)
    sync.pace(False, 0)
    pinged = []
    for now in range(0, 100_001, 50):
        if now == 90_000:
            sync.pace(True, now)  # samples from 70 s on are in the window: 70.3, 80.3 (two of four)
        for _, ping in sync.due(now, ["h1"]):
            pinged.append(now)
            answer(sync, "h1", ping, 5, 5)
    assert [t for t in pinged if t >= 90_000][:4] == [90_000, 90_100, 91_100, 92_100]  # two more, then 1 s


def test_a_hello_starts_the_burst_again_and_forgets_the_old_clock() -> None:
    sync = ClockSync(burst=2, burst_gap_ms=100)
    [(_, ping)] = sync.due(0, ["h1"])
    assert answer(sync, "h1", ping, 5, 5) is not None
    assert sync.estimate("h1", 20) is not None
    sync.joined("h1", 5000)  # restarted: its clock starts from zero again
    assert sync.estimate("h1", 5000) is None
    assert [h for h, _ in sync.due(5000, ["h1"])] == ["h1"]


def test_only_online_handsets_are_pinged_and_the_rate_is_bounded_most_overdue_first() -> None:
    sync = ClockSync(burst=1, period_ms=1000, rate=4)  # 4 pings a second in all, up to 4 at once
    table = ["a", "b", "c", "d", "e", "f"]
    assert [h for h, _ in sync.due(0, ["a"])] == ["a"]  # b-f are not online yet
    assert [h for h, _ in sync.due(300, table[1:])] == ["b", "c", "d", "e"]  # 3 left + 1.2 refilled, up to 4
    assert [h for h, _ in sync.due(600, table)] == ["f"]  # 1.2 refilled; f waited, the others are not due
    assert [h for h, _ in sync.due(1300, table)] == ["a", "b", "c"]  # 3.0 refilled: a waited since 1000


def test_answers_that_match_no_pending_ping_are_dropped() -> None:
    sync = ClockSync(timeout_ms=1000)
    [(_, ping)] = sync.due(0, ["h1"])
    forged = {"ping": ping["ping"], "t0": ping["t0"] - 50, "th": 1}  # a t0 we never sent
    assert sync.on_reply("h1", forged, 10) is None
    assert sync.on_reply("h2", {"ping": ping["ping"], "t0": 0, "th": 1}, 10) is None  # not that handset's
    assert sync.on_reply("h1", {"ping": 999, "t0": 0, "th": 1}, 10) is None  # never sent
    assert answer(sync, "h1", ping, 600, 600) is None  # 1200 ms: too late
    [(_, ping)] = sync.due(1300, ["h1"])
    assert answer(sync, "h1", ping, 5, 5) is not None
    assert answer(sync, "h1", ping, 5, 6) is None  # answered already (a duplicate)
    assert sync.dropped == 5


def test_samples_older_than_the_window_are_not_used() -> None:
    sync = ClockSync(burst=1, period_ms=1000, window_ms=10_000)
    [(_, ping)] = sync.due(0, ["h1"])
    answer(sync, "h1", ping, 5, 5)
    assert sync.estimate("h1", 9000) is not None
    assert sync.estimate("h1", 11_000) is None


def synced(down: int = 5, up: int = 5) -> ClockSync:
    sync = ClockSync(burst=1)
    [(_, ping)] = sync.due(0, ["h1"])
    answer(sync, "h1", ping, down, up)
    return sync


def test_a_press_stamp_becomes_its_age_on_the_appliance_clock() -> None:
    sync = synced()
    # pressed at appliance 1000 (handset 1000 + OFFSET), arrived at appliance 1070
    assert sync.press_age("h1", 1000 + OFFSET, 1070) == 70


def test_a_press_age_is_zero_without_a_stamp_or_an_offset_and_is_bounded() -> None:
    sync = synced()
    assert sync.press_age("h1", None, 500) == 0
    assert sync.press_age("h2", 400 + OFFSET, 500) == 0  # never measured: arrival order decides
    assert sync.press_age("h1", 900 + OFFSET, 500) == 0  # "in the future": estimate error, counts as now
    assert sync.press_age("h1", OFFSET - 60_000, 500) == sync.max_age_ms


def test_buzz_data_takes_the_press_stamp_or_else_the_input_clock() -> None:
    sync = synced()
    assert sync.buzz_data("h1", {"pressed": 1000 + OFFSET}, 1050 + OFFSET, 1100) == {
        "pressed": 1000 + OFFSET, "age_ms": 100}
    assert sync.buzz_data("h1", {"pressed": None}, 1050 + OFFSET, 1100) == {"pressed": None, "age_ms": 50}


@pytest.mark.parametrize("bad", [{"period_ms": 0}, {"burst": -1}, {"window_ms": -5}, {"rate": 0}, {"most_at_once": 0}])
def test_bad_settings_are_refused(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="must be positive"):
        ClockSync(**bad)
