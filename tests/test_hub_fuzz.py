"""Hypothesis over handset payloads against the running hub (real mosquitto): it never crashes, every input
gets exactly one ack, a refusal changes nothing, and the table still plays afterwards."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.flows import flow_factory
from appliance.session.session import Session
from firmware import protocol
from tests.conftest import connection_of
from tests.support import guess  # noqa: F401
from tests.test_hub import CARDS, Raw

json_scalars = (
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | st.text(max_size=40)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
kinds = st.sampled_from([*protocol.INPUT_KINDS, "dance", ""])
datas = st.one_of(
    st.fixed_dictionaries({"bottom": json_values, "top": json_values}),
    st.fixed_dictionaries({"bottom": st.text(max_size=50), "top": st.text(max_size=50)}),
    st.fixed_dictionaries({"copy": json_values}, optional={"swap": json_values, "double": json_values}),
    st.fixed_dictionaries({"action": st.sampled_from(protocol.BET_ACTIONS)}, optional={"to": json_values}),
    st.fixed_dictionaries({"choices": json_values}),
    st.fixed_dictionaries({"split": st.dictionaries(st.text(max_size=6), json_values, max_size=5)}),
    st.fixed_dictionaries({"answer": json_values, "token": json_values}),
    json_values,
)
envelopes = st.fixed_dictionaries(
    {"seq": st.integers(-5, 2**32) | json_values, "prompt": st.text(max_size=40) | json_values,
     "kind": kinds, "data": datas},
    optional={"v": st.sampled_from([1, 2, "1"]), "id": st.sampled_from(["h1", "h2", ""]), "clock": json_values},
)
payloads = st.one_of(
    envelopes.map(lambda e: json.dumps(e).encode()),
    st.binary(max_size=1500),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.text(max_size=1200).map(str.encode),
)


@pytest.fixture(scope="module")
def table(mosquitto: MosquittoBroker) -> Iterator[tuple[Hub, Raw]]:
    box = f"fuzz{int(time.time() * 1000) % 100000}"
    conn = connection_of(mosquitto)
    with Hub(box, Session(time.monotonic, flows=flow_factory), conn) as hub:
        ann = Raw(box, "h1", conn)
        ann.hello()
        hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                     "seats": [{"player": "Ann", "handset": "h1"}]})
        ann.wait("prompt", 2)
        try:
            yield hub, ann
        finally:
            ann.stop()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=payloads)
def test_fuzzed_inputs_never_crash_and_change_nothing_unless_accepted(table: tuple[Hub, Raw], payload: bytes) -> None:
    hub, ann = table
    flow = hub.session.flow
    assert flow is not None
    before_log, before_acks = len(flow.log()), ann.count("ack")
    ann.send("input", payload)
    ack = ann.wait("ack", before_acks + 1)
    grew = len(flow.log()) - before_log
    assert grew == (1 if ack["ok"] else 0)
    assert len(ack["msg"]) <= protocol.MAX_MESSAGE


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(leaf=st.sampled_from(["hello", "status", "telemetry", "prompt", "ack", "nonsense"]), payload=payloads)
def test_fuzzed_side_topics_never_crash(table: tuple[Hub, Raw], leaf: str, payload: bytes) -> None:
    hub, ann = table
    ann.send(leaf, payload, handset="h7")
    # the hub still answers: a valid but stale input from Ann gets its refusal ack
    before = ann.count("ack")
    ann.send("input", protocol.make_input(10**6 + before, "p-none", "range", {"bottom": "1", "top": "2"}))
    assert ann.wait("ack", before + 1)["ok"] is False


def test_after_the_fuzz_the_table_still_plays(table: tuple[Hub, Raw]) -> None:
    hub, ann = table
    prompt: dict[str, Any] = hub.session.prompt_for(hub.registry.get("h1"))[0]  # type: ignore[arg-type]
    if prompt["kind"] == "range":
        before = ann.count("ack")
        ann.send("input", protocol.make_input(2**31 - 1, prompt["id"], "range", {"bottom": "1", "top": "9"}))
        assert ann.wait("ack", before + 1)["ok"] is True
    assert hub.client.connected.is_set()
