"""bench/sizes.py (issue 30, item 6) at a few seats: the figures it prints are the largest prompt and the
largest retained board the hub really handed to MQTT (checked against a recording of our own of every
publish), the bytes are protocol v1's encoding on the protocol's topics, and a prompt over the limit makes
it exit 1. The 40-seat figures are the bench's (``python bench/sizes.py``)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from appliance.edge.broker import MESSAGE_SIZE_LIMIT
from firmware import protocol


def _bench(name: str = "sizes") -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"quizbox_bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


sizes = _bench()
BOX = sizes.BOX


def _game(label: str) -> Any:
    return next(g for g in sizes.games() if g.label == label)


def _played(monkeypatch: pytest.MonkeyPatch, label: str, seats: int) -> tuple[Any, Any, list[tuple[str, bytes]]]:
    """The bench's figures for one game, and every publish of the hub as we recorded it ourselves."""
    ours: list[tuple[str, bytes]] = []
    publish = sizes.Recorder.publish

    def tapped(self: Any, topic: str, payload: bytes | str, retain: bool = False, qos: int | None = None) -> None:
        ours.append((topic, payload.encode() if isinstance(payload, str) else bytes(payload)))
        if topic == protocol.board_topic(BOX) or topic == protocol.admin_state_topic(BOX):
            assert retain, topic  # the TV's and the admin page's states are retained
        publish(self, topic, payload, retain, qos)

    monkeypatch.setattr(sizes.Recorder, "publish", tapped)
    figures, _recorder, hub = sizes.play(_game(label), seats)
    return figures, hub, ours


@pytest.mark.parametrize(("label", "seats", "kinds"), [
    ("confident", 4, {"range", "info"}),
    ("poker", 10, {"range", "bet", "choice", "info"}),  # two room tables, then the final table
    ("allin", 4, {"choice", "split", "info"}),
    ("buzzer", 3, {"buzz", "info"}),
])
def test_the_figures_are_the_largest_messages_the_hub_sent(monkeypatch: pytest.MonkeyPatch, label: str,
                                                          seats: int, kinds: set[str]) -> None:
    figures, hub, ours = _played(monkeypatch, label, seats)
    assert figures.finished and figures.inputs > 0
    prompts = [(t, p) for t, p in ours if t.startswith(protocol.box_topic(BOX, "handset")) and t.endswith("/prompt")]
    boards = [p for t, p in ours if t == protocol.board_topic(BOX)]
    assert len(prompts) == figures.prompts and len(boards) == figures.boards
    biggest = max(prompts, key=lambda m: len(m[1]))
    assert figures.prompt_bytes == len(biggest[1])
    assert figures.prompt_kind == json.loads(biggest[1])["kind"]
    assert figures.board_bytes == max(map(len, boards))
    assert figures.admin_bytes == max(len(p) for t, p in ours if t == protocol.admin_state_topic(BOX))
    assert set(figures.kinds) == kinds
    for topic, payload in prompts:  # the bytes on the wire are protocol v1's encoding of the prompt
        prompt = protocol.decode(payload)
        assert len(protocol.encode(prompt)) == len(payload), topic
        assert protocol.parse_handset_topic(BOX, topic)[1] == "prompt"
    assert json.loads(boards[-1])["scene"] == "results"  # the game's end is measured too
    assert figures.built_bytes >= figures.prompt_bytes  # as built: never smaller than as sent


def test_poker_reaches_its_final_table_and_every_scene(monkeypatch: pytest.MonkeyPatch) -> None:
    figures, _hub, _ours = _played(monkeypatch, "poker", 10)
    scenes = set(figures.scenes)
    assert {"playing/ranges", "playing/betting", "playing/showdown"} <= scenes
    assert any(s.endswith("(final table)") for s in scenes) and "lobby" in scenes


def test_a_prompt_over_the_limit_makes_the_bench_exit_1(tmp_path: Path) -> None:
    out = tmp_path / "sizes.json"
    assert sizes.main(["--seats", "3", "--games", "squizz", "--json", str(out)]) == 0
    fine = json.loads(out.read_text())
    assert fine["wrong"] == [] and fine["limit"] == protocol.MAX_PAYLOAD and fine["board_limit"] == MESSAGE_SIZE_LIMIT
    ascii_row, accented = fine["rows"]  # the same game with each style of names: accented letters weigh more
    assert (ascii_row["names"], accented["names"]) == ("ascii", "accented")
    assert accented["board_bytes"] > ascii_row["board_bytes"]
    assert sizes.main(["--seats", "3", "--games", "squizz", "--names", "ascii", "--limit", "1",
                       "--json", str(out)]) == 1
    over = json.loads(out.read_text())
    [row] = over["rows"]
    assert row["over"] == row["prompts"] > 0  # every prompt is over a 1-byte limit
    assert over["wrong"] and f"{row['prompt_bytes']} bytes" in over["wrong"][0]
    lines = _bench("report").sizes_section(over)  # make bench's README table: the limit missed is said
    assert "| squizz | 3 |" in "\n".join(lines) and "**missed**" in lines[-1]


def test_a_prompt_the_hub_could_not_fit_or_a_board_over_the_broker_limit_fails() -> None:
    row = sizes.Sizes("confident", 40, finished=True, prompts=1, prompt_bytes=200, too_much=1)
    assert sizes.check([row], protocol.MAX_PAYLOAD, MESSAGE_SIZE_LIMIT)
    row = sizes.Sizes("confident", 40, finished=True, prompts=1, prompt_bytes=200, board_bytes=MESSAGE_SIZE_LIMIT + 1)
    assert sizes.check([row], protocol.MAX_PAYLOAD, MESSAGE_SIZE_LIMIT)
    row = sizes.Sizes("confident", 40, finished=True, prompts=1, prompt_bytes=200, board_bytes=100)
    assert sizes.check([row], protocol.MAX_PAYLOAD, MESSAGE_SIZE_LIMIT) == []
