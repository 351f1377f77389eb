"""The card on the table's picture and sound reach the board as media references (issue 34), from the
deck card through the deal: the board's state carries the reference of the card being played, never the
bytes, and nothing once the game is over; a handset's question prompt then starts "Look at the TV." (its
OLED cannot show the picture)."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

from appliance.decks import EstimationCard
from appliance.decks.deal import card_fields
from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session

PLAYERS = ["Ann", "Bob", "Cat"]
IMAGE, AUDIO = "a" * 64 + ".png", "b" * 64 + ".wav"


def _card(i: int, **media: str) -> DealtCard:
    deck_card = EstimationCard(id=f"p-{i}", category="science", difficulty="easy", family=True, tags=(),
                               question=f"How many dots? ({i})", answer=Decimal(10 + i),
                               unit="dots", fact="Counted.", hints=("More than 1.", "Fewer than 100."),
                               source="Quizbox", **media)
    return DealtCard(f"pics/p-{i}", card_fields(deck_card))


def test_the_board_carries_the_dealt_cards_media_references(tmp_path: Path) -> None:
    store = Store(tmp_path / "q.db")
    session = Session(lambda: 50.0, random.Random(1), store=store, flows=flow_factory)
    cards = [_card(1, image=IMAGE, audio=AUDIO), _card(2)]
    session.start_game(GameSetup("confident", PLAYERS, {}, cards), {p: p.lower() for p in PLAYERS})
    handsets = [Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS]
    shown = session.board_state(handsets, lambda _: "#ffffff")  # the first card is dealt at the start
    assert session.current_card() == 0
    assert shown["media"] == {"image": IMAGE, "audio": AUDIO, "card": 0, "plays": 0}
    assert len(json.dumps(shown["media"])) < 200  # references, not bytes: the retained board stays small
    prompt, _ = session.prompt_for(handsets[0])
    assert prompt["kind"] == "range" and prompt["text"].startswith("Look at the TV. How many dots? (1)")
    while session.current_card() == 0:
        session.advance()  # the quizmaster's next: close, settle, then the next card
    assert session.current_card() == 1
    assert session.board_state(handsets, lambda _: "#ffffff")["media"] == {}  # a card without media
    assert not session.prompt_for(handsets[0])[0]["text"].startswith("Look at the TV")
    session.end_game()
    assert session.board_state(handsets, lambda _: "#ffffff")["media"] == {}
