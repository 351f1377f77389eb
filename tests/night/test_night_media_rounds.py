"""A picture round and a sound round in a quiz night, dealt from the shipped decks (issue 34): the night's
run-sheet plans a Confident? round from ``estimation-pictures`` and one from ``estimation-sounds`` (a round
deals by deck), the session deals them from a real SQLite store seeded with the shipped decks, and the
board's ``media`` carries each card's picture or sound reference as it is dealt (the TV draws and plays it
from there: appliance/board/pictures.py, appliance/hardware/clips.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from appliance.decks import shipped_decks
from appliance.decks.deal import cards_for_game, seed_shipped
from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.infra.media import MediaStore
from appliance.infra.store import Store
from appliance.session.night import NightRunner
from appliance.session.session import Session
from tests.night.test_night_session import Clock, confident_answer

PLAYERS = ("Ann", "Bob", "Cat")
SEATS = {p: p.lower() for p in PLAYERS}
QUESTIONS = 3
RUNSHEET = [
    {"game": "confident", "title": "Picture round", "deck": "estimation-pictures", "cards": QUESTIONS},
    {"game": "confident", "title": "Sound round", "deck": "estimation-sounds", "cards": QUESTIONS},
]


def handsets() -> dict[str, Handset]:
    return {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS}


def test_a_picture_round_and_a_sound_round_deal_from_the_shipped_decks_with_their_media(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    assert seed_shipped(store) > 0  # the box's first start
    rng = random.Random(34)
    asked: list[tuple[str, dict[str, Any]]] = []

    def cards(game: str, command: Any) -> list[DealtCard]:  # the box's own dealing (appliance/box/app.py)
        asked.append((game, dict(command)))
        deck = command.get("deck")
        return list(cards_for_game(store, game, rng, deck if isinstance(deck, str) else None,
                                   command.get("filters"), unseen_only=command.get("unseen") is True))

    session = Session(Clock(), store=store, flows=flow_factory)
    runner = NightRunner(session, store, cards)
    hs = handsets()
    decks = {d.id: d for d in shipped_decks()}
    shipped = {kind: {c.image if kind == "image" else c.audio for c in decks[deck_id].cards}
               for kind, deck_id in (("image", "estimation-pictures"), ("audio", "estimation-sounds"))}
    box_media = MediaStore(tmp_path / "media")  # the shipped files are found beside a box's own folder
    runner.start(SEATS, RUNSHEET, "Pictures and sounds night")
    for number, (kind, other) in enumerate((("image", "audio"), ("audio", "image")), 1):
        session.clock.now += 10  # type: ignore[attr-defined]
        runner.start_round()
        assert session.setup is not None and session.setup.game == "confident"
        assert asked[-1] == ("confident", {"deck": RUNSHEET[number - 1]["deck"]})
        seen: list[str] = []
        for question in range(QUESTIONS):
            index = session.current_card()
            assert index == question
            card = session.setup.cards[index]
            board = session.board_state(hs.values(), lambda _: "#ffffff")
            media = board["media"]
            assert media[kind] == card.fields[kind] and other not in media, (number, question, media)
            assert media[kind] in shipped[kind] and box_media.path(media[kind]) is not None
            assert media["card"] == index and media["plays"] == 0
            seen.append(media[kind])
            answer = card.fields["answer"]
            # every answer is taken (before the fix each was refused as "that screen is old": the phone's
            # "Look at the TV." line made the prompt sent differ from the flow's)
            confident_answer(session, hs, "Ann", answer, answer)
            confident_answer(session, hs, "Bob", "0", answer)
            confident_answer(session, hs, "Cat", "0", "100000")
            session.advance()  # settle the question: the reveal
            session.clock.now += 10  # type: ignore[attr-defined]
            if question < QUESTIONS - 1:
                assert not runner.due()
                session.advance()  # the next card
        assert len(set(seen)) == QUESTIONS  # a new picture (or sound) with each card
        assert runner.due() and runner.next() == "round finished: its card count or time box is up"
        assert runner.engine is not None
        points = runner.engine.rounds[number - 1].points  # placed and scored: Ann's exact ranges win
        assert max(points, key=lambda p: points[p]) == "Ann" and points["Ann"] > points["Cat"], points
        board = session.board_state(hs.values(), lambda _: "#ffffff")
        assert board["scene"] == "results" and board["media"] == {}  # the round is over: no card on the table
        session.clock.now += 10  # type: ignore[attr-defined]
        runner.next()  # the round's final screen makes way
    assert runner.engine is not None and runner.engine.finished
    assert store.nights()[0].status == "finished"
