"""Prompts always fit an ESP32's 1 KB: readable parts shrink, what the handset must send back stays whole."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from appliance.edge.prompts import fit
from firmware import protocol


def test_a_prompt_that_fits_is_sent_as_it_is() -> None:
    prompt = protocol.make_prompt("p1", protocol.RANGE, "Q1", "How many?", unit="m")
    assert fit(prompt) == protocol.encode(prompt)


def test_non_ascii_text_is_cut_by_bytes_not_characters() -> None:
    question = "Πόσα κόκαλα έχει ο ενήλικας άνθρωπος; " * 8  # 300 characters, six bytes each in JSON
    prompt = protocol.make_prompt("p1", protocol.RANGE, "Q1", question[:300], unit="κόκαλα")
    wire = fit(prompt)
    assert len(wire) <= protocol.MAX_PAYLOAD
    sent = json.loads(wire)
    assert sent["id"] == "p1" and sent["kind"] == "range" and question.startswith(sent["text"].rstrip("~"))


def test_a_reader_prompt_for_twelve_players_keeps_every_option_id() -> None:
    names = [f"Player-with-a-long-name{i:02d}"[:24] for i in range(11)]
    fields = [
        {"name": "pick", "label": "Read which?", "required": True,
         "options": [{"id": str(i), "label": "I have been to a very long-named place " * 2} for i in range(3)]},
        {"name": "answer", "label": "Your true answer", "required": True,
         "options": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}]},
        {"name": "exclude", "label": "Exclude (once a game)", "required": False,
         "options": [{"id": n, "label": n} for n in names]},
    ]
    prompt = protocol.make_prompt("p9", protocol.CHOICE, "You read", "x" * 200, fields=fields)
    assert len(json.dumps(prompt)) > protocol.MAX_PAYLOAD
    sent = json.loads(fit(prompt))
    assert [o["id"] for o in sent["fields"][2]["options"]] == names  # the ids the handset sends back


@given(st.text(max_size=300), st.lists(st.text(max_size=24), max_size=12))
def test_fit_always_fits_or_refuses(text: str, labels: list[str]) -> None:
    options = [{"id": str(i), "label": label} for i, label in enumerate(labels)]
    prompt = protocol.make_prompt("p1", protocol.CHOICE, "T", text,
                                  fields=[{"name": "f", "label": "L", "options": options, "required": True}])
    try:
        wire = fit(prompt)
    except protocol.ProtocolError:
        pytest.fail("a prompt of this size must fit after shortening")
    assert len(wire) <= protocol.MAX_PAYLOAD
