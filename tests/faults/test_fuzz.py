"""A share of bench/fuzz_hub.py in every run: hypothesis-made payloads of every handset kind against the hub
on a real mosquitto while the four games are played on. The hub never fails on its own, every input gets
exactly one ack, and the stored logs hold exactly the inputs acked ok. The seed changes from run to run
(set QUIZBOX_FUZZ_SEED to repeat one); a failure names it."""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from appliance.edge.broker import MosquittoBroker

SHARE = 1200


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "fuzz_hub.py"
    spec = importlib.util.spec_from_file_location("quizbox_fuzz_hub", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.mqtt
@pytest.mark.timeout(240)
def test_a_share_of_the_hub_fuzz(broker: MosquittoBroker, tmp_path: Path, figures: dict[str, Any]) -> None:
    bench = _bench()
    seed = int(os.environ.get("QUIZBOX_FUZZ_SEED", random.randrange(10**6)))
    result = bench.run(SHARE, seed, broker, batch=250, folder=tmp_path, baseline=False)
    where = f"(QUIZBOX_FUZZ_SEED={seed})\n{bench.report(result)}"
    assert result.payloads == SHARE, where
    assert result.crashes == [], where
    assert result.lost == 0 and result.acks == result.inputs, where
    assert result.unstored == [] and result.stored_inputs == result.applied == result.accepted, where
    kinds = {kind.split(":")[0] for kind in result.by_kind}
    assert kinds == {"input", "hello", "telemetry", "status", "pairing"}, where
    assert {k for k in result.by_kind if k.startswith("input:")} >= {f"input:{k}" for k in bench.protocol.INPUT_KINDS}
    assert result.numbers["parsed"] > 0 and result.numbers["refused"] > 0, where
    figures["payloads fuzzed against the hub (this run)"] = result.payloads
    figures["fuzz: inputs acked / lost / hub failures"] = f"{result.acks} / {result.lost} / {len(result.crashes)}"
