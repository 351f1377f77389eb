"""Every seat's prompt as the hub would send it: the prompt the session makes and the payload fitted to a
handset's 1 KB (:func:`appliance.edge.prompts.fit`), which must never have to give up on it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from appliance.edge.prompts import fit
from appliance.session.session import Session
from firmware import protocol


def sent_prompts(session: Session, handsets: Iterable[Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(prompt, sent) for each handset, asserting the fitted prompt is not the "Too much to show" notice."""
    found = []
    for handset in handsets:
        prompt, _ = session.prompt_for(handset)
        sent = json.loads(fit(protocol.wire_prompt("boot", prompt)))
        assert sent["title"] != "Too much to show", (handset.name, prompt)
        found.append((prompt, sent))
    return found
