"""Fault-test fixtures: a private mosquitto per module (restarting it must not disturb other tests) and
the run's figures, printed at the end of the run (and written as JSON to $QUIZBOX_FAULT_FIGURES when set:
the README's reliability section quotes them)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from appliance.edge.broker import MosquittoBroker
from tests.conftest import _need_mosquitto

FIGURES: dict[str, Any] = {}


@pytest.fixture(scope="module")
def broker() -> Iterator[MosquittoBroker]:
    _need_mosquitto()
    with MosquittoBroker() as running:
        yield running


@pytest.fixture(scope="session")
def figures() -> dict[str, Any]:
    return FIGURES


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FIGURES:
        return
    terminalreporter.write_sep("-", "fault and fuzz figures")
    for key, value in sorted(FIGURES.items()):
        terminalreporter.write_line(f"{key}: {value}")
    target = os.environ.get("QUIZBOX_FAULT_FIGURES")
    if target:
        with open(target, "w", encoding="utf-8") as out:
            json.dump(FIGURES, out, indent=2, sort_keys=True)
