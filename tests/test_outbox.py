"""The hub's lock and outbox (appliance/edge/outbox.py): what is published under the lock goes out once the
outermost holder lets go, in the order queued, also when threads race; a failing publish loses no other."""

from __future__ import annotations

import threading
import time

from appliance.edge.outbox import Outbox


class Wire:
    def __init__(self, fail_on: str | None = None) -> None:
        self.sent: list[str] = []
        self.fail_on = fail_on
        self.lock = threading.Lock()

    def deliver(self, topic: str, payload: bytes | str, retain: bool, qos: int | None) -> None:
        if topic == self.fail_on:
            raise OSError("the client is gone")
        with self.lock:
            self.sent.append(topic)


def test_messages_wait_for_the_outermost_release() -> None:
    wire = Wire()
    box = Outbox(wire.deliver)
    with box:
        box.post("a", b"1")
        with box:  # re-entrant, as the hub's command() inside on_message
            box.post("b", b"2")
        assert wire.sent == [] and box.pending() == 2, "nothing goes out while the lock is held"
    assert wire.sent == ["a", "b"] and box.pending() == 0


def test_a_post_without_the_lock_goes_at_once() -> None:
    wire = Wire()
    box = Outbox(wire.deliver)
    box.post("now", b"")
    assert wire.sent == ["now"]


def test_acquire_release_as_the_watchdog_uses_them() -> None:
    wire = Wire()
    box = Outbox(wire.deliver)
    assert box.acquire(timeout=1)
    box.post("x", b"")
    assert wire.sent == []
    box.release()
    assert wire.sent == ["x"]
    holder = threading.Thread(target=lambda: (box.acquire(), time.sleep(0.3), box.release()))
    holder.start()
    time.sleep(0.05)
    assert not box.acquire(timeout=0.05), "held by another thread: the timeout applies"
    holder.join()


def test_a_failing_publish_loses_no_other() -> None:
    wire = Wire(fail_on="bad")
    box = Outbox(wire.deliver)
    with box:
        for topic in ("one", "bad", "two"):
            box.post(topic, b"")
    assert wire.sent == ["one", "two"]


def test_racing_threads_deliver_in_the_order_the_states_were_reached() -> None:
    """Each thread takes the lock, moves a counter on and queues its value: the wire sees the values in
    counter order, whichever thread delivers them."""
    wire = Wire()
    box = Outbox(wire.deliver)
    state = {"n": 0}

    def work() -> None:
        for _ in range(500):
            with box:
                state["n"] += 1
                box.post(str(state["n"]), b"")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wire.sent == [str(n) for n in range(1, 2001)]
