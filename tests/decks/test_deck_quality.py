"""The quality gate on the shipped decks (issues 21 and 35): enough cards per game and per topic, variety
inside a topic, cards about the world beyond the UK and US, enough easy cards, few "what year" questions,
no answer most adults know exactly, no near-duplicates, hints that are true and leave room to guess,
sources on every fact card, sQuizz values that are far apart and not the estimation answers again.

The thresholds are the issue's. Each check is its own test so a failure names the rule that broke.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from decimal import Decimal
from pathlib import Path
from typing import TypeVar

import pytest

from appliance.decks import AllInCard, BuzzerCard, Deck, EstimationCard, SquizzCard, shipped_decks
from appliance.decks.hints import Interval, read_hint

C = TypeVar("C", EstimationCard, SquizzCard, AllInCard, BuzzerCard)

ESTIMATION_MIN_CARDS = 650
YEAR_SHARE_MAX = 0.12  # strictly under
ESTIMATION_EASY_SHARE_MIN = 0.2
WORLD_MIN_CARDS = 60  # estimation cards tagged "world": about somewhere beyond the UK and the US
WORLD_TAG = "world"
TOPIC_MIN_CARDS = 30
ONE_UNIT_SHARE_MAX = 1 / 3  # variety: no unit ("episodes", "Oscars") asks more than a third of a topic
FILM_TV_SINCE_2000_SHARE_MIN = 0.5
SQUIZZ_MIN_CARDS = 200
SQUIZZ_EASY_SHARE_MIN = 0.25
SQUIZZ_VALUES_APART = Decimal("0.05")  # two values of a card differ by at least 5% of the larger one
SQUIZZ_OVERLAP_MAX = 0.05  # share of sQuizz values that are also an estimation answer
ALLIN_MIN_CARDS = 260
ALLIN_MIN_STATEMENTS = 780
ALLIN_ADULT_DECK_MIN_CARDS = 60
BUZZER_MIN_CARDS = 300
BUZZER_MIN_TOPICS = 12  # categories with at least BUZZER_TOPIC_MIN_CARDS cards
BUZZER_TOPIC_MIN_CARDS = 10
BUZZER_EASY_SHARE_MIN = 1 / 3
HINTS_LEAVE_AT_LEAST = 4  # whole numbers the two hints together still allow, for a whole-number answer

# The topic of each shipped estimation deck (the deck format has no topic field, so a deck is a topic).
# A new estimation deck must be listed here, so that the counts per topic stay meaningful.
ESTIMATION_TOPICS: dict[str, str] = {
    "estimation-music": "music",
    "estimation-film-tv": "film and TV",
    "estimation-sport": "sport",
    "estimation-food-drink": "food and drink",
    "estimation-nature": "nature and animals",
    "estimation-body": "the human body",
    "estimation-geography": "geography",
    "estimation-world-history": "history",
    "estimation-science-space": "science and space",
    "estimation-games-money": "money and business",
    "estimation-games-words": "games, words and books",
    "estimation-art": "art",
    "estimation-language": "language",
    "estimation-pictures": "pictures",  # made by scripts/make_media_deck.py (issue 34)
    "estimation-sounds": "sounds",  # made by scripts/make_media_deck.py (issue 34)
}
REQUIRED_TOPICS = (
    "music",
    "film and TV",
    "sport",
    "food and drink",
    "nature and animals",
    "the human body",
    "geography",
    "history",
    "science and space",
    "money and business",
    "games, words and books",
    "art",
    "language",
)
VARIED_TOPICS = ("film and TV", "art", "language", "games, words and books")
SINCE_2000_TAG = "since-2000"  # on a film and TV card about something from after 2000

# Answers most adults know exactly make ties, not estimates (issue 21 names the first three).
KNOWN_EXACTLY = (
    "baker's dozen",
    "rings on the olympic flag",
    "wives did king henry viii",
    "squares are on a chessboard",
    "teeth are in a full adult set",
    "bones are there in an adult human skeleton",
    "hearts does an octopus",
    "colours are there in a rainbow",
    "keys are there on a standard piano",
    "strings does a violin have",
    "battle of hastings",
    "players does a rugby union team",
    "holes are on a standard golf course",
    "books are there in the main harry potter",
    "pints are there in an imperial gallon",
    "pounds are there in one stone",
    "opposite faces always add up",
    "how many dalmatians are in the title",
    "events make up a decathlon",
    "maximum break in snooker",
    "highest score possible with three darts",
    "how long is a marathon",
    "celsius and fahrenheit scales show the same number",
)

_STOP_WORDS = frozenset(
    """a an the of in on at to for by and or is are was were be been has have had do does did how many much what
    which who whose when where it its this that with from as than into i my me ever ve d ll m s t""".split()  # noqa: SIM905
)


@pytest.fixture(scope="module")
def decks() -> list[Deck]:
    return shipped_decks()


def cards_of(decks: list[Deck], kind: type[C]) -> list[C]:
    return [card for deck in decks for card in deck.cards if isinstance(card, kind)]


def estimation_by_deck(decks: list[Deck]) -> dict[str, list[EstimationCard]]:
    return {d.id: [c for c in d.cards if isinstance(c, EstimationCard)] for d in decks if d.type == "estimation"}


def asks_for_a_year(card: EstimationCard) -> bool:
    """A "what year" question: it says so, or its answer is a bare whole number that reads as a year."""
    if re.search(r"\b(what|which) year\b", card.question, re.IGNORECASE):
        return True
    whole = card.answer == card.answer.to_integral_value()
    bc_year = card.answer < 0 and "negative" in card.question
    return card.unit == "" and whole and (1000 <= card.answer <= 2100 or bc_year)


def words(text: str) -> frozenset[str]:
    """The content words of ``text``: lower case, contractions and small words dropped, a plural 's' cut."""
    found = re.findall(r"[a-z0-9]+", text.lower().replace("’", "'"))
    return frozenset(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in found if w not in _STOP_WORDS)


def plain(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def similar_pairs(
    texts: list[tuple[str, str]],
    *,
    words_at_least: float,
    ratio_at_least: float | None = None,
    also: Callable[[int, int], bool] = lambda i, j: True,
) -> list[tuple[str, str, str, str]]:
    """Pairs of (key, text) whose content words overlap (Jaccard) or, when ``ratio_at_least`` is given, whose
    letters match (difflib ratio, which catches a changed letter or two) too much.

    The difflib ratio is only computed for pairs whose lengths and letter counts allow it (the bounds
    ``real_quick_ratio`` and ``quick_ratio`` stand for), so 600 texts take well under a few seconds."""
    sets = [words(t) for _, t in texts]
    flat = [plain(t) for _, t in texts]
    letters = [Counter(f) for f in flat]
    found = []
    for i, j in itertools.combinations(range(len(texts)), 2):
        if not also(i, j):
            continue
        close = jaccard(sets[i], sets[j]) >= words_at_least
        if not close and ratio_at_least is not None:
            total = len(flat[i]) + len(flat[j])
            close = (
                total > 0
                and 2 * min(len(flat[i]), len(flat[j])) >= ratio_at_least * total
                and 2 * (letters[i] & letters[j]).total() >= ratio_at_least * total
                and difflib.SequenceMatcher(None, flat[i], flat[j], autojunk=False).ratio() >= ratio_at_least
            )
        if close:
            found.append((texts[i][0], texts[i][1], texts[j][0], texts[j][1]))
    return found


def both_hints(card: EstimationCard) -> tuple[Interval, Interval]:
    first, second = (read_hint(h, card.unit) for h in card.hints)
    assert first is not None and second is not None, (card.id, card.hints, "a hint is not a checked bound")
    return first, second


def whole_numbers_in(interval: Interval, around: Decimal) -> int:
    """How many whole numbers ``interval`` holds (capped: an open end counts as far away)."""
    low = interval.low if interval.low is not None else around - 1000
    high = interval.high if interval.high is not None else around + 1000
    count = math.floor(high) - math.ceil(low) + 1
    count -= interval.low is not None and not interval.low_closed and low == low.to_integral_value()
    count -= interval.high is not None and not interval.high_closed and high == high.to_integral_value()
    return int(count)


def rel_gap(a: Decimal, b: Decimal) -> Decimal:
    return abs(a - b) / max(abs(a), abs(b))


def listing(rows: Iterable[object]) -> str:
    return "\n".join(str(r) for r in rows)


# ---------------------------------------------------------------- estimation


def test_at_least_650_estimation_cards_ship(decks: list[Deck]) -> None:
    count = len(cards_of(decks, EstimationCard))
    assert count >= ESTIMATION_MIN_CARDS, f"{count} estimation cards, at least {ESTIMATION_MIN_CARDS} needed"


def test_every_estimation_deck_has_a_topic(decks: list[Deck]) -> None:
    assert sorted(estimation_by_deck(decks)) == sorted(ESTIMATION_TOPICS)


def test_docs_decks_md_lists_each_estimation_deck_with_its_topic() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "decks.md").read_text("utf-8")
    listed = dict(re.findall(r"^\| `(estimation-[a-z0-9-]+)` +\| ([^|]+?) +\|$", doc, flags=re.MULTILINE))
    assert listed == ESTIMATION_TOPICS


def test_each_topic_has_at_least_30_estimation_cards(decks: list[Deck]) -> None:
    per_topic = Counter[str]()
    for deck_id, cards in estimation_by_deck(decks).items():
        per_topic[ESTIMATION_TOPICS.get(deck_id, deck_id)] += len(cards)
    short = {t: per_topic[t] for t in REQUIRED_TOPICS if per_topic[t] < TOPIC_MIN_CARDS}
    assert short == {}, f"topics with fewer than {TOPIC_MIN_CARDS} cards: {short}"


def test_half_the_film_and_tv_cards_are_about_after_2000(decks: list[Deck]) -> None:
    film = estimation_by_deck(decks).get("estimation-film-tv", [])
    assert film != [], "no film and TV deck ships"
    recent = [c for c in film if SINCE_2000_TAG in c.tags]
    assert len(recent) >= FILM_TV_SINCE_2000_SHARE_MIN * len(film), f"{len(recent)} of {len(film)} after 2000"


def test_under_12_percent_of_estimation_questions_ask_for_a_year(decks: list[Deck]) -> None:
    cards = cards_of(decks, EstimationCard)
    years = [c for c in cards if asks_for_a_year(c)]
    assert len(years) < YEAR_SHARE_MAX * len(cards), f"{len(years)} of {len(cards)} cards ask for a year"


def test_at_least_a_fifth_of_the_estimation_cards_are_easy(decks: list[Deck]) -> None:
    cards = cards_of(decks, EstimationCard)
    easy = sum(c.difficulty == "easy" for c in cards)
    assert easy >= ESTIMATION_EASY_SHARE_MIN * len(cards), f"{easy} of {len(cards)} estimation cards are easy"


def test_at_least_60_estimation_cards_are_about_the_world_beyond_the_uk_and_us(decks: list[Deck]) -> None:
    world = [c.id for c in cards_of(decks, EstimationCard) if WORLD_TAG in c.tags]
    assert len(world) >= WORLD_MIN_CARDS, f"{len(world)} estimation cards tagged {WORLD_TAG!r}"


def test_no_one_unit_asks_more_than_a_third_of_a_varied_topic(decks: list[Deck]) -> None:
    lopsided = {}
    for deck_id, cards in estimation_by_deck(decks).items():
        topic = ESTIMATION_TOPICS.get(deck_id)
        if topic in VARIED_TOPICS and cards:
            unit, count = Counter(c.unit for c in cards).most_common(1)[0]
            if count > ONE_UNIT_SHARE_MAX * len(cards):
                lopsided[topic] = (unit, count, len(cards))
    assert lopsided == {}, lopsided


def test_the_year_detector_counts_the_ways_a_year_question_is_written() -> None:
    def card(question: str, answer: str, unit: str = "") -> EstimationCard:
        return EstimationCard("e", "history", "easy", True, (), question, Decimal(answer), unit, "f", ("a", "b"), "s")

    assert asks_for_a_year(card("In what year did the Titanic sink?", "1912"))
    assert asks_for_a_year(card("Albert Einstein won the Nobel Prize for which year?", "1921"))
    assert asks_for_a_year(card("When did Rome fall? Give years BC as negative numbers.", "-753"))
    assert asks_for_a_year(card("Magna Carta was sealed when?", "1215"))
    assert not asks_for_a_year(card("How long is the Nile?", "6650", "km"))
    assert not asks_for_a_year(card("How many days does a red blood cell live?", "120", "days"))


def test_no_estimation_answer_is_one_most_adults_know_exactly(decks: list[Deck]) -> None:
    known = [
        (c.id, c.question)
        for c in cards_of(decks, EstimationCard)
        if any(phrase in c.question.lower() for phrase in KNOWN_EXACTLY)
    ]
    assert known == []


def test_no_two_estimation_questions_are_near_duplicates(decks: list[Deck]) -> None:
    cards = cards_of(decks, EstimationCard)
    texts = [(c.id, c.question) for c in cards]
    # Two questions on one template (Mercury's year, Venus's year: 0.78 alike) are different questions
    # when their answers differ; with the same answer, less likeness is enough to be one question twice.
    same_wording = similar_pairs(texts, words_at_least=0.9)
    same_answer = similar_pairs(texts, words_at_least=0.6, also=lambda i, j: cards[i].answer == cards[j].answer)
    assert same_wording + same_answer == [], listing(same_wording + same_answer)


def test_every_estimation_card_names_a_source(decks: list[Deck]) -> None:
    missing = [c.id for c in cards_of(decks, EstimationCard) if not re.search(r"[A-Za-z]{3}", c.source)]
    assert missing == []


def test_every_estimation_hint_is_true_and_the_second_narrows_the_first(decks: list[Deck]) -> None:
    for card in cards_of(decks, EstimationCard):
        first, second = both_hints(card)
        assert first.holds(card.answer) and second.holds(card.answer), (card.id, card.hints, card.answer)
        assert first.meet(second) != first, (card.id, card.hints)


def test_the_hints_of_a_whole_number_answer_leave_at_least_four_values(decks: list[Deck]) -> None:
    narrow = []
    for card in cards_of(decks, EstimationCard):
        if card.answer != card.answer.to_integral_value():
            continue
        first, second = both_hints(card)
        left = whole_numbers_in(first.meet(second), card.answer)
        if left < HINTS_LEAVE_AT_LEAST:
            narrow.append((card.id, card.hints, left))
    assert narrow == [], listing(narrow)


def test_the_doubtful_cards_issue_21_lists_are_fixed(decks: list[Deck]) -> None:
    by_id = {c.id: c for c in cards_of(decks, EstimationCard)}
    sonnets, brazil, euro, mcdonald = by_id["est-0155"], by_id["est-0088"], by_id["est-0220"], by_id["est-0192"]
    dalmatians, russia, moon = by_id["est-0261"], by_id["est-0104"], by_id["est-0001"]
    assert "all but two" in sonnets.fact.lower()  # Sonnet 99 has 15 lines, Sonnet 126 has 12
    assert "France" in brazil.question and brazil.answer == 10  # French Guiana counted, and said so
    assert euro.answer == 21 and "2026" in euro.question  # Bulgaria joined on 1 January 2026
    assert mcdonald.answer == 1937 and "stand" in mcdonald.question
    assert "101" not in dalmatians.question and "One Hundred and One" in dalmatians.question
    assert dalmatians.answer not in {Decimal(101), Decimal(99)}
    first, second = both_hints(russia)
    assert whole_numbers_in(first.meet(second), russia.answer) >= HINTS_LEAVE_AT_LEAST  # not just 10, 11, 12
    assert "as of" in moon.question


# ---------------------------------------------------------------- sQuizz (the other decks' helper)


def test_at_least_200_squizz_cards_ship(decks: list[Deck]) -> None:
    count = len(cards_of(decks, SquizzCard))
    assert count >= SQUIZZ_MIN_CARDS, f"{count} sQuizz cards, at least {SQUIZZ_MIN_CARDS} needed"


def test_at_least_a_quarter_of_the_squizz_cards_are_easy(decks: list[Deck]) -> None:
    cards = cards_of(decks, SquizzCard)
    easy = sum(c.difficulty == "easy" for c in cards)
    assert easy >= SQUIZZ_EASY_SHARE_MIN * len(cards), f"{easy} of {len(cards)} sQuizz cards are easy"


def test_the_values_of_a_squizz_card_are_distinct_and_at_least_5_percent_apart(decks: list[Deck]) -> None:
    close = []
    for card in cards_of(decks, SquizzCard):
        values = [p.value for p in card.propositions]
        assert len(set(values)) == 3, (card.id, values)
        for a, b in itertools.combinations(values, 2):
            if rel_gap(a, b) < SQUIZZ_VALUES_APART:
                close.append((card.id, str(a), str(b)))
    assert close == [], listing(close)


def test_at_most_5_percent_of_squizz_values_are_estimation_answers(decks: list[Deck]) -> None:
    # Decimal: 1000 and 1E+3 are equal. A picture or sound card's answer counts the generator's own dots or
    # beeps (scripts/make_media_deck.py): no fact a sQuizz card could share
    answers = {c.answer for c in cards_of(decks, EstimationCard) if c.image is None and c.audio is None}
    values = [(c.id, p.value) for c in cards_of(decks, SquizzCard) for p in c.propositions]
    shared = [(card_id, str(v)) for card_id, v in values if v in answers]
    assert len(shared) <= SQUIZZ_OVERLAP_MAX * len(values), f"{len(shared)} of {len(values)}: {shared}"


def test_no_two_squizz_cards_are_near_duplicates(decks: list[Deck]) -> None:
    cards = cards_of(decks, SquizzCard)
    texts = [(c.id, c.prompt) for c in cards]
    names = [{plain(p.text) for p in c.propositions} for c in cards]
    # The same prompt may come back with other propositions (docs/decks.md), not with two of the same.
    repeats = similar_pairs(
        texts, words_at_least=0.8, ratio_at_least=0.9, also=lambda i, j: len(names[i] & names[j]) >= 2
    )
    assert repeats == [], listing(repeats)


def test_every_squizz_card_names_a_source(decks: list[Deck]) -> None:
    missing = [c.id for c in cards_of(decks, SquizzCard) if not re.search(r"[A-Za-z]{3}", c.source)]
    assert missing == []


# ---------------------------------------------------------------- All In (the other decks' helper)


def test_at_least_260_all_in_cards_and_780_statements_ship(decks: list[Deck]) -> None:
    cards = cards_of(decks, AllInCard)
    statements = sum(len(c.statements) for c in cards)
    assert len(cards) >= ALLIN_MIN_CARDS and statements >= ALLIN_MIN_STATEMENTS, (len(cards), statements)


def test_an_adults_all_in_deck_of_at_least_60_cards_ships(decks: list[Deck]) -> None:
    adult = [
        d.id
        for d in decks
        if d.type == "allin"
        and len(d.cards) >= ALLIN_ADULT_DECK_MIN_CARDS
        and all(isinstance(c, AllInCard) and not c.family for c in d.cards)
    ]
    assert adult != [], f"no All In deck of {ALLIN_ADULT_DECK_MIN_CARDS}+ cards with every card not family"


def test_no_two_all_in_statements_are_near_duplicates(decks: list[Deck]) -> None:
    texts = [(c.id, s) for c in cards_of(decks, AllInCard) for s in c.statements]
    repeats = similar_pairs(texts, words_at_least=0.6, ratio_at_least=0.9)
    assert repeats == [], listing(repeats)


def test_the_contested_cards_issue_35_names_say_so_and_its_errors_are_fixed(decks: list[Deck]) -> None:
    by_id = {c.id: c for c in cards_of(decks, EstimationCard)}
    contested = [by_id[i] for i in ("est-0082", "est-0101", "est-0295", "est-0103")]
    assert [c.id for c in contested if not re.search(r"contested|sources differ", c.fact, re.IGNORECASE)] == []
    assert by_id["est-0441"].answer == Decimal(7688287)
    assert "1999" in by_id["est-0475"].question and by_id["est-0475"].answer == Decimal("3.60")
    assert "equalled in 2024" in by_id["est-0272"].question
    assert "Whitechapel" in by_id["est-0491"].question
    squizz = {c.id: c for c in cards_of(decks, SquizzCard)}
    rubio = next(p for p in squizz["squizz-0168"].propositions if "Rubio" in p.text)
    assert rubio.value == 370  # 370 days and 21 hours
    jumps = squizz["squizz-0220"]
    assert "high jump" not in " ".join(p.text for p in jumps.propositions) and "Length" not in jumps.prompt


# ---------------------------------------------------------------- buzzer


def test_at_least_300_buzzer_cards_ship_over_12_topics_a_third_easy(decks: list[Deck]) -> None:
    cards = cards_of(decks, BuzzerCard)
    topics = Counter(c.category for c in cards)
    full = sorted(t for t, n in topics.items() if n >= BUZZER_TOPIC_MIN_CARDS)
    easy = sum(c.difficulty == "easy" for c in cards)
    assert len(cards) >= BUZZER_MIN_CARDS, f"{len(cards)} buzzer cards"
    assert len(full) >= BUZZER_MIN_TOPICS, f"topics with {BUZZER_TOPIC_MIN_CARDS}+ cards: {full}"
    assert easy >= BUZZER_EASY_SHARE_MIN * len(cards), f"{easy} of {len(cards)} buzzer cards are easy"


def test_every_buzzer_card_names_a_source_and_no_two_are_near_duplicates(decks: list[Deck]) -> None:
    cards = cards_of(decks, BuzzerCard)
    assert [c.id for c in cards if not re.search(r"[A-Za-z]{3}", c.source)] == []
    texts = [(c.id, c.question) for c in cards]
    same_answer = similar_pairs(
        texts, words_at_least=0.6, also=lambda i, j: cards[i].answer.casefold() == cards[j].answer.casefold()
    )
    assert same_answer == [], listing(same_answer)


# ---------------------------------------------------------------- the checks themselves


def test_the_near_duplicate_check_finds_rewordings_and_spares_different_questions() -> None:
    texts = [
        ("a", "I have lost a board game to a child."),
        ("b", "I've lost to a child at a board game!"),
        ("c", "How many Earth days does Mercury take to go once round the Sun?"),
        ("d", "How many Earth days does Venus take to go once round the Sun?"),
        ("e", "I have swum in the sea at night."),
        ("f", "I have swam in the sea at night."),
        ("g", "I have slept in an airport."),
    ]

    def pairs(found: list[tuple[str, str, str, str]]) -> list[tuple[str, str]]:
        return [(a, b) for a, _, b, _ in found]

    assert pairs(similar_pairs(texts, words_at_least=0.6)) == [("a", "b"), ("c", "d")]
    assert pairs(similar_pairs(texts, words_at_least=0.9)) == [("a", "b")]
    assert pairs(similar_pairs(texts, words_at_least=0.6, ratio_at_least=0.9)) == [("a", "b"), ("c", "d"), ("e", "f")]
    assert pairs(similar_pairs(texts, words_at_least=0.6, also=lambda i, j: "d" in (texts[i][0], texts[j][0]))) == [
        ("c", "d")
    ]


def test_whole_numbers_in_counts_open_and_closed_ends() -> None:
    between_10_and_12 = Interval(Decimal(10), True, Decimal(12), True)
    assert whole_numbers_in(between_10_and_12, Decimal(11)) == 3
    assert whole_numbers_in(Interval(Decimal(1), False, Decimal(5), False), Decimal(2)) == 3
    assert whole_numbers_in(Interval(Decimal("0.5"), False, Decimal("4.5"), True), Decimal(2)) == 4
