"""The flood guard's budget (appliance/edge/flood.py) and the cut-off it asks for, on a fake clock."""

from __future__ import annotations

import time

from appliance.edge.accounts import MemoryAccounts
from appliance.edge.flood import FloodGuard
from appliance.edge.pairing import Pairing


def test_an_honest_pace_is_never_dropped() -> None:
    guard = FloodGuard(rate=50, burst=500)
    now = 0.0
    for _ in range(10_000):  # 10 messages a second for 1000 s: a buzzer round's clock answers at most
        assert guard.allow("h1", now) is True
        now += 0.1
    assert guard.dropped == 0 and guard.floods == {} and guard.warnings() == []


def test_a_burst_beyond_the_budget_is_dropped_and_reported_once_per_flood() -> None:
    guard = FloodGuard(rate=50, burst=500)
    verdicts = [guard.allow("h1", 10.0) for _ in range(600)]
    assert verdicts[:500] == [True] * 500
    assert verdicts[500] is None  # the first dropped message: cut it off
    assert verdicts[501:] == [False] * 99  # dropped unread, no second cut-off
    assert guard.allow("h2", 10.0) is True  # the others keep their own budget
    assert guard.dropped == 100 and guard.floods == {"h1": 1}
    assert "Handset h1 flooded" in guard.warnings()[0]
    assert guard.allow("h1", 10.1) is True  # the budget refills at its rate: 5 messages in 0.1 s
    assert guard.allow("h1", 20.1) is True  # quiet for 10 s: the flood is over
    for _ in range(600):
        guard.allow("h1", 20.1)
    assert guard.floods == {"h1": 2}  # a new flood is a new cut-off


def test_a_cut_off_disables_the_account_for_a_while_then_lets_it_back() -> None:
    accounts = MemoryAccounts()
    accounts.add_handset("h1", "h1-secret-0123456789")
    pairing = Pairing(accounts)
    pairing.cut_off("h1", 0.2)
    assert accounts.disabled == {"h1"}
    deadline = time.monotonic() + 5
    while accounts.disabled:
        assert time.monotonic() < deadline, "the handset was never let back in"
        time.sleep(0.02)
