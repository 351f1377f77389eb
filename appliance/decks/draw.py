"""Choosing cards: filter a game's decks, then a draw order that avoids cards this box already played.

Pure: the caller passes the ids of the cards already used on this box (:attr:`DeckCard.key`, which
names the deck too, since two decks may both have a card ``est-0001``) and an injected
:class:`random.Random`; it gets back the order to deal in and stores the keys it actually deals.
The order puts every card not used yet first, shuffled, then the used ones: the one dealt longest ago
first when the caller says when each was last dealt (the box does: its store keeps the time of each card's
last deal), shuffled otherwise. No card repeats until the filtered cards are used up, a long game never
runs dry because of past games, and a repeat is the card the pub has had longest to forget. Once
:func:`used_up` is true the caller may forget those keys and start a new round of the deck.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field

from appliance.decks.model import CATEGORIES, DIFFICULTIES, Card, Deck, DeckType
from appliance.decks.validate import TAG_PATTERN
from appliance.errors import DeckError, MalformedInput


@dataclass(frozen=True)
class CardFilter:
    """Which cards a game may use; an empty set means "any". A card must match every part.

    ``categories``/``difficulties``: the card's is one of them; ``family_only``: only cards suitable
    for all ages; ``tags``: the card has at least one of them; ``without_tags``: it has none of them.
    """

    categories: frozenset[str] = field(default_factory=frozenset)
    difficulties: frozenset[str] = field(default_factory=frozenset)
    family_only: bool = False
    tags: frozenset[str] = field(default_factory=frozenset)
    without_tags: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        unknown = sorted(self.categories - set(CATEGORIES))
        if unknown:
            raise MalformedInput(f"unknown categories {unknown} in the card filter; known: {', '.join(CATEGORIES)}")
        unknown = sorted(self.difficulties - set(DIFFICULTIES))
        if unknown:
            raise MalformedInput(f"unknown difficulties {unknown} in the card filter; known: easy, medium, hard")
        bad = sorted(t for t in self.tags | self.without_tags if not TAG_PATTERN.fullmatch(t))
        if bad:
            raise MalformedInput(f"{bad} are not tags (lowercase letters, digits and '-')")

    def matches(self, card: Card) -> bool:
        """True when the card may be dealt under this filter."""
        return (
            (not self.categories or card.category in self.categories)
            and (not self.difficulties or card.difficulty in self.difficulties)
            and (card.family or not self.family_only)
            and (not self.tags or not self.tags.isdisjoint(card.tags))
            and self.without_tags.isdisjoint(card.tags)
        )


@dataclass(frozen=True)
class DeckCard:
    """A card with the deck it comes from."""

    deck_id: str
    card: Card

    @property
    def key(self) -> str:
        """The card's id on this box: ``<deck id>/<card id>`` (ids never hold ``/``)."""
        return f"{self.deck_id}/{self.card.id}"


def pool(decks: Iterable[Deck], card_filter: CardFilter | None = None) -> tuple[DeckCard, ...]:
    """Every card of ``decks`` the filter allows; the decks must all be of one type, with distinct ids."""
    chosen = list(decks)
    types: set[DeckType] = {deck.type for deck in chosen}
    if len(types) > 1:
        raise DeckError(f"a game deals from decks of one type, got {', '.join(sorted(types))}")
    ids = [deck.id for deck in chosen]
    repeated = sorted({deck_id for deck_id in ids if ids.count(deck_id) > 1})
    if repeated:
        raise DeckError(f"deck ids {repeated} are given more than once")
    flt = card_filter or CardFilter()
    return tuple(DeckCard(deck.id, card) for deck in chosen for card in deck.cards if flt.matches(card))


def draw_order(
    cards: Sequence[DeckCard], used: Set[str], rng: random.Random, last_dealt: Mapping[str, float] | None = None
) -> list[DeckCard]:
    """The order to deal ``cards`` in: unused cards first, shuffled by ``rng``, then used ones, shuffled, and
    then, when ``last_dealt`` gives a used card's last deal time, put in order of it, the oldest first.

    The result depends only on the cards (not their order), ``used``, ``last_dealt`` and the state of ``rng``.
    """
    ordered = sorted(cards, key=lambda c: c.key)
    fresh = [c for c in ordered if c.key not in used]
    again = [c for c in ordered if c.key in used]
    rng.shuffle(fresh)
    rng.shuffle(again)
    if last_dealt is not None:
        again.sort(key=lambda c: last_dealt.get(c.key, float("-inf")))  # stable: equal times stay shuffled
    return fresh + again


def used_up(cards: Sequence[DeckCard], used: Set[str]) -> bool:
    """True when every one of ``cards`` has been used (the next draw order repeats cards)."""
    return all(c.key in used for c in cards)
