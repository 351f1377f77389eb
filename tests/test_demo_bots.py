"""The demo as a newcomer sees it (issue 20): bots answer like people, the autopilot drives only the games
it started, ``--bots 0`` means no autopilot, and the printed URL (the QR code's) is one it listens on."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
import urllib.request
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from appliance.box.demo import Autopilot
from appliance.box.demo_bots import Person
from appliance.decks import EstimationCard, shipped_decks
from appliance.games.numbers import parse_number
from firmware import protocol

RANGE_PROMPT = {"v": 1, "id": "p1", "kind": protocol.RANGE, "title": "", "text": "How many?"}


def _answers() -> list[Decimal]:
    return [card.answer for deck in shipped_decks() for card in deck.cards if isinstance(card, EstimationCard)]


def test_people_enter_ranges_around_the_answer_and_some_are_wrong() -> None:
    answers = _answers()
    assert len(answers) > 100
    rng = random.Random(5)
    right = 0
    for answer in answers:
        person = Person(random.Random(rng.random()), lambda a=answer: a, skill=0.6)
        data = person.choose(dict(RANGE_PROMPT), rng)
        assert data is not None
        bottom, top = parse_number(data["bottom"]), parse_number(data["top"])
        scale = max(abs(answer), Decimal(1))
        assert bottom <= top
        assert abs(bottom - answer) <= 3 * scale and abs(top - answer) <= 3 * scale, (answer, data)  # no 5.5e45
        for typed in (bottom, top):  # round numbers, as a person types them (1200, not 1187.3)
            assert typed == 0 or len(typed.normalize().as_tuple().digits) <= 4, (answer, data)
        right += bottom <= answer <= top
    share = right / len(answers)
    assert 0.6 < share < 0.95, share  # mostly right, some wrong


class _Hub:
    def __init__(self) -> None:
        self.session = SimpleNamespace(state="lobby", game_id=None, auto_advance=None, night=None)
        self.registry = [SimpleNamespace(online=True, accepted=True) for _ in range(3)]
        self.commands: list[dict[str, Any]] = []

    def command(self, command: dict[str, Any]) -> dict[str, Any]:
        self.commands.append(command)
        if command["cmd"] == "start":
            self.session.state, self.session.game_id = "playing", (self.session.game_id or 0) + 1
        elif command["cmd"] == "lobby":
            self.session.state = "lobby"
        return {"ok": True}


def test_a_person_does_not_enter_a_poker_range_again_once_it_is_in() -> None:
    """A poker range may be changed until betting starts, so the handset is asked again; a demo person
    answers the first ask only (else every range in would be followed by another)."""
    person = Person(random.Random(3), lambda: Decimal(206))
    assert person.choose(RANGE_PROMPT, random.Random(1)) is not None
    again = {**RANGE_PROMPT, "id": "p2", "title": "Q1: range in, change it?", "private": {"range": ["150", "250"]}}
    assert person.choose(again, random.Random(1)) is None


def test_the_autopilot_drives_only_its_own_games() -> None:
    import threading

    hub = _Hub()
    pilot = Autopilot(SimpleNamespace(hub=hub), 3, "confident", threading.Event())  # type: ignore[arg-type]
    pilot.step()
    assert hub.commands == [{"cmd": "start", "game": "confident"}] and hub.session.game_id in pilot.mine
    pilot.step()
    assert hub.session.auto_advance is not None  # its own game: moved on automatically
    hub.session.state, hub.session.game_id = "playing", 99  # the quizmaster started a game
    pilot.step()
    assert pilot.retired and hub.session.auto_advance is None
    hub.session.state = "results"
    for _ in range(3):
        pilot.step()
    assert hub.commands == [{"cmd": "start", "game": "confident"}]  # never a lobby or a start again


def test_the_demo_with_no_bots_starts_nothing_and_its_url_answers(tmp_path: Path) -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "appliance", "demo", "--bots", "0", "--seconds", "12", "--headless"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin:/usr/sbin", "HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy"},
    )
    assert demo.stdout is not None
    lines: list[str] = []
    url = None
    deadline = time.monotonic() + 60
    while url is None and time.monotonic() < deadline:
        line = demo.stdout.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"on this network: (http://[0-9.]+:\d+);", line)
        url = found.group(1) if found else None
    assert url is not None, "".join(lines)
    with urllib.request.urlopen(url + "/join", timeout=10) as response:  # the QR code's address answers
        assert response.status == 200 and b"Join" in response.read()
    out, err = demo.communicate(timeout=60)
    text = "".join(lines) + out
    assert demo.returncode == 0, err[-2000:]
    assert "no bots, no autopilot" in text and "demo: started a game" not in text
