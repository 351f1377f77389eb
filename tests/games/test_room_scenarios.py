"""The room (rules.md The room): the seat limits at the games' defaults, and a player named by seat number
wherever a handset names another player (a Copy, a Swap, an All In exclusion), through the session as a
handset's input arrives. The room's scenario files are in tests/scenarios/ (``*-room-*.json``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from appliance.edge.handsets import Handset
from appliance.errors import ConfigError, QuizboxError
from appliance.flows import flow_factory
from appliance.games.allin.engine import AllInEngine
from appliance.games.base import UnknownPlayer
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session
from tests.support.prompts import sent_prompts

RULES = ("room-2-seat-number-input",)

TEAMS = [f"Team {i:02d}" for i in range(1, 41)]
ESTIMATION = [DealtCard(f"e/{i}", {"question": f"How many {i}?", "answer": "100"}) for i in range(3)]
ALLIN = [DealtCard(f"a/{i}", {"statements": ["I have been on TV", "I can juggle", "I have met a king"]})
         for i in range(3)]


def _room(tmp_path: Path, game: str, players: list[str], cards: list[DealtCard],
          options: dict[str, object] | None = None) -> tuple[Session, dict[str, Handset]]:
    session = Session(lambda: 0.0, random.Random(3), store=Store(tmp_path / "q.db"), flows=flow_factory)
    handsets = {p: Handset(id=f"h{n}", name=p, accepted=True, online=True) for n, p in enumerate(players, 1)}
    session.start_game(GameSetup(game, players, options or {}, cards), {p: h.id for p, h in handsets.items()})
    return session, handsets


def _send(session: Session, handset: Handset, kind: str, data: dict[str, object]) -> str:
    prompt, _ = session.prompt_for(handset)
    return session.handle_input(handset.id, prompt["id"], kind, data)


@pytest.mark.parametrize("engine", [ConfidentEngine, AllInEngine])
def test_forty_seat_at_the_defaults_and_the_41st_is_refused_naming_the_limit(engine: type) -> None:
    assert engine(TEAMS).players == tuple(TEAMS)  # rules.md The room 1
    with pytest.raises(ConfigError, match="2 to 40 players, got 41"):
        engine([*TEAMS, "Team 41"])


def test_every_view_carries_the_seat_numbers() -> None:
    engine = ConfidentEngine(TEAMS)
    assert engine.public_view()["seat_numbers"]["Team 37"] == 37
    assert engine.private_view("Team 37")["seat"] == 37


def test_a_copy_and_a_swap_by_seat_number_act_as_by_name(tmp_path: Path) -> None:
    session, hs = _room(tmp_path, "confident", TEAMS, ESTIMATION)
    ack = _send(session, hs["Team 01"], "range", {"copy": "37", "swap": ["2", "Team 03"]})
    assert "Team 37" in ack and "Team 02" in ack  # the ack says whom, by name
    board = session.flow.engine.current.boards["Team 01"]  # type: ignore[union-attr]
    assert (board.copy, board.swap) == ("Team 37", ("Team 02", "Team 03"))


def test_a_seat_nobody_has_is_refused_naming_the_seats_and_nothing_changes(tmp_path: Path) -> None:
    session, hs = _room(tmp_path, "confident", TEAMS[:12], ESTIMATION)
    before = session.flow.engine.snapshot()  # type: ignore[union-attr]
    with pytest.raises(UnknownPlayer, match="seat 13 is nobody here: the seats are 1 to 12"):
        _send(session, hs["Team 01"], "range", {"copy": "13"})
    assert session.flow.engine.snapshot() == before  # type: ignore[union-attr]


def test_copying_oneself_by_seat_number_is_refused_naming_seat_and_name(tmp_path: Path) -> None:
    session, hs = _room(tmp_path, "confident", TEAMS[:12], ESTIMATION)
    with pytest.raises(QuizboxError, match=r"copy Team 05 \(seat 5\): a player cannot copy themselves"):
        _send(session, hs["Team 05"], "range", {"copy": "5"})


def test_a_team_whose_name_is_a_number_is_that_team_not_that_seat(tmp_path: Path) -> None:
    players = ["Ann", "7", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    session, hs = _room(tmp_path, "confident", players, ESTIMATION)
    _send(session, hs["Ann"], "range", {"copy": "7"})
    assert session.flow.engine.current.boards["Ann"].copy == "7"  # type: ignore[union-attr]
    _send(session, hs["Cat"], "range", {"copy": "8"})  # seat 8 is Hal
    assert session.flow.engine.current.boards["Cat"].copy == "Hal"  # type: ignore[union-attr]


def test_an_all_in_exclusion_by_seat_number(tmp_path: Path) -> None:
    session, hs = _room(tmp_path, "allin", TEAMS[:16], ALLIN)
    _send(session, hs["Team 01"], "choice", {"choices": {"pick": "0", "answer": "true", "exclude": "16"}})
    assert session.flow.engine.current.excluded == "Team 16"  # type: ignore[union-attr]


LONG = [f"The Quizzy Rascals {i:02d}{'x' * 3}" for i in range(1, 41)]  # 24 characters, protocol.MAX_NAME


def _every_prompt_fits(session: Session, handsets: dict[str, Handset]) -> None:
    """Each seat's prompt as the hub sends it (fitted to a handset's 1 KB by shortening what is for reading)
    keeps everything a handset acts on: its kind and every option id it offers."""
    for prompt, sent in sent_prompts(session, handsets.values()):
        assert sent["kind"] == prompt["kind"]
        ids = [[o["id"] for o in f.get("options", [])] for f in prompt.get("fields", [])]
        assert [[o["id"] for o in f.get("options", [])] for f in sent.get("fields", [])] == ids
        assert sent.get("boosts") == prompt.get("boosts")


def test_a_forty_team_confident_prompt_fits_a_handset_and_offers_seat_numbers(tmp_path: Path) -> None:
    # before: 39 names twice (copy and swap) made 2.2 KB; the hub sent "Too much to show" instead
    session, hs = _room(tmp_path, "confident", LONG, ESTIMATION)
    _every_prompt_fits(session, hs)
    prompt, _ = session.prompt_for(hs[LONG[0]])
    assert prompt["boosts"]["copy"] == [str(n) for n in range(2, 41)]
    _send(session, hs[LONG[0]], "range", {"copy": "37"})
    assert session.flow.engine.current.boards[LONG[0]].copy == LONG[36]  # type: ignore[union-attr]
    _every_prompt_fits(session, hs)


def test_a_forty_team_all_in_reader_excludes_by_the_seats_digits(tmp_path: Path) -> None:
    session, hs = _room(tmp_path, "allin", LONG, ALLIN)
    _every_prompt_fits(session, hs)
    prompt, _ = session.prompt_for(hs[LONG[0]])
    names = [f["name"] for f in prompt["fields"]]
    assert names == ["pick", "answer", "exclude_tens", "exclude_units"]
    with pytest.raises(QuizboxError, match="tens and its units"):
        _send(session, hs[LONG[0]], "choice", {"choices": {"pick": "0", "answer": "true", "exclude_tens": "3"}})
    _send(session, hs[LONG[0]], "choice",
          {"choices": {"pick": "0", "answer": "true", "exclude_tens": "3", "exclude_units": "7"}})
    assert session.flow.engine.current.excluded == LONG[36]  # type: ignore[union-attr]
    _every_prompt_fits(session, hs)


def test_a_forty_team_all_in_reader_may_exclude_nobody(tmp_path: Path) -> None:
    session, hs = _room(tmp_path, "allin", LONG, ALLIN)
    _send(session, hs[LONG[0]], "choice", {"choices": {"pick": "1", "answer": "false", "exclude_tens": "-"}})
    assert session.flow.engine.current.excluded is None  # type: ignore[union-attr]
