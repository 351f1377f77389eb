"""What a poker team that is not playing the hand reads on its handset or phone (issue 31, cosmetic: "teams
out of poker read 'Waiting for the others' ranges'"). A team with no chips is out of the game; a team alone
at its room table keeps its chips and waits for the final table (rules.md Estimation poker 13); neither is
told it waits for ranges, while the other tables enter theirs or bet."""

from __future__ import annotations

import random
from pathlib import Path

from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.flows.poker import PokerFlow
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session

CARDS = [DealtCard(f"e/{i}", {"question": f"Bones in a human body? ({i})", "answer": "206",
                              "hints": ["More than 150.", "Fewer than 250."]}) for i in range(6)]
WAITING_FOR_RANGES = "Waiting for the others' ranges."


def _game(tmp_path: Path, players: list[str]) -> tuple[Session, dict[str, Handset]]:
    seats = {p: f"h{n}" for n, p in enumerate(players, 1)}
    session = Session(lambda: 100.0, random.Random(1), store=Store(tmp_path / "q.db"), flows=flow_factory)
    session.start_game(GameSetup("poker", players, {"stack": 20, "ante": 10}, CARDS), seats)
    return session, {p: Handset(id=seats[p], name=p, accepted=True, online=True) for p in players}


def _engine(session: Session) -> PokerFlow:
    assert isinstance(session.flow, PokerFlow)
    return session.flow


def _send(session: Session, handset: Handset, kind: str, data: dict[str, object]) -> None:
    prompt, _ = session.prompt_for(handset)
    session.handle_input(handset.id, prompt["id"], kind, data)


def _question(session: Session, hs: dict[str, Handset], winners: set[str], all_in: set[str]) -> None:
    """One question: ``winners`` enter the right range, the others a wrong one; at betting, the players in
    ``all_in`` push all their chips in, the others check or fold, to the showdown."""
    engine = _engine(session).engine
    for player in engine.holders():
        prompt = session.prompt_for(hs[player])[0]
        if prompt["kind"] == "range":
            low, high = ("200", "210") if player in winners else ("0", "1")
            _send(session, hs[player], "range", {"bottom": low, "top": high})
    if engine.phase == "ranges":
        session.advance()  # the host locks the ranges (else every range in did): betting at every table together
    assert engine.phase == "betting"
    while engine.actors():
        for player in list(engine.actors().values()):
            kinds = [o.kind for o in engine.offered_inputs(player)]
            wanted = ("allin", "call") if player in all_in else ("check", "fold")
            _send(session, hs[player], "bet", {"action": next(k for k in wanted if k in kinds)})
    assert engine.phase == "showdown"


def _texts(session: Session, handset: Handset) -> str:
    prompt = session.prompt_for(handset)[0]
    return f"{prompt['title']}: {prompt.get('text', '')}"


def test_a_team_with_no_chips_reads_that_it_is_out_not_that_it_waits_for_ranges(tmp_path: Path) -> None:
    session, hs = _game(tmp_path, ["Ann", "Bob", "Cat"])
    engine = _engine(session).engine
    _question(session, hs, winners={"Ann"}, all_in={"Ann", "Cat"})
    assert engine.stacks["Cat"] == 0 and engine.stacks["Ann"] > 0
    session.advance()  # the next question: Ann and Bob enter their ranges, Cat has no chips
    assert engine.phase == "ranges"
    assert _texts(session, hs["Cat"]) == "Out: No chips left: watch the TV."
    _send(session, hs["Ann"], "range", {"bottom": "1", "top": "500"})
    assert engine.phase == "ranges" and _texts(session, hs["Cat"]) == "Out: No chips left: watch the TV."


def test_a_busted_team_and_a_team_alone_at_its_table_while_the_other_tables_enter_ranges(tmp_path: Path) -> None:
    players = [f"Team {n:02d}" for n in range(1, 18)]  # 17: three room tables of 6, 6 and 5
    session, hs = _game(tmp_path, players)
    engine = _engine(session).engine
    table3 = [p for p in players if engine.table_number(p) == 3]
    assert len(table3) == 5 and table3[0] == "Team 03"
    _question(session, hs, winners={"Team 03"}, all_in=set(table3))  # table 3: Team 03 takes every chip
    assert [p for p in table3 if engine.stacks[p] > 0] == ["Team 03"]
    session.advance()  # question 2: tables 1 and 2 play on; Team 03 is alone at table 3, four teams are out
    assert engine.phase == "ranges" and engine.room and not engine.final
    alone, out = _texts(session, hs["Team 03"]), _texts(session, hs["Team 06"])
    assert alone.startswith("Table 3: waiting: Alone at your table") and "final table" in alone
    assert out == "Out: No chips left: watch the TV."
    _send(session, hs["Team 01"], "range", {"bottom": "1", "top": "500"})  # the other tables enter ranges
    for handset in (hs["Team 03"], hs["Team 06"]):
        assert WAITING_FOR_RANGES not in _texts(session, handset)
