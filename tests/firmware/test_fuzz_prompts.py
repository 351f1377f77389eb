"""Whatever a prompt holds, the handset neither crashes nor sends what the prompt does not allow."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import protocol as P
from firmware.core import allowed, editor
from tests.firmware.support import BOX, HID, make

junk = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
option = st.fixed_dictionaries({"id": junk, "label": junk})
field = st.fixed_dictionaries(
    {"name": junk, "label": junk, "options": st.lists(option, max_size=4) | junk, "required": junk}
)
action = st.fixed_dictionaries({"action": st.sampled_from(P.BET_ACTIONS) | junk, "min": junk, "max": junk})
prompt_fields = st.fixed_dictionaries(
    {},
    optional={
        "text": junk,
        "title": junk,
        "lines": st.lists(junk, max_size=3) | junk,
        "wait": junk,
        "private": junk,
        "boosts": st.fixed_dictionaries({}, optional={"copy": junk, "swap": junk, "double": junk}) | junk,
        "actions": st.lists(action, max_size=4) | junk,
        "stack": junk,
        "to_call": junk,
        "pot": junk,
        "fields": st.lists(field, max_size=3) | junk,
        "total": junk,
        "sides": st.lists(option, max_size=3) | junk,
        "answers": junk,
        "tokens": st.lists(junk, max_size=4) | junk,
        "armed": junk,
        "unit": junk,
    },
)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(P.PROMPT_KINDS) | st.text(max_size=8),  # a later revision's kind shows as info
    fields=prompt_fields,
    layout=st.sampled_from(["keypad", "five"]),
    presses=st.lists(st.integers(0, 15), max_size=30),
)
def test_odd_prompts_never_crash_and_never_send_illegal(
    kind: str, fields: dict[str, Any], layout: str, presses: list[int]
) -> None:
    handset, transport, _ = make(layout)
    handset.connected()
    prompt = dict(fields, v=1, id="p1", kind=kind)
    try:
        payload = P.encode(prompt)
    except (P.ProtocolError, TypeError, ValueError):
        return  # too big or not JSON: never reaches a handset
    handset.on_message(P.prompt_topic(BOX, HID), payload)
    keys = editor.LAYOUT_KEYS[layout]
    for n in presses:
        handset.press(keys[n % len(keys)])
    if kind not in P.PROMPT_KINDS:
        assert transport.on("input") == [] and handset.editor is None
    for msg in transport.on("input"):
        P.parse_input(HID, msg)
        allowed.check(handset.prompt, msg["data"])
