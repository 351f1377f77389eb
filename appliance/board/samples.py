"""Sample board states, one or more per scene, built by playing the real engines: what the board's snapshot
and layout tests draw, what bench/board.py times, and a quick look at every scene.

Each game is driven through its scenario adapter (appliance.games.<game>.scenario.ADAPTER) and the
engine's ``public_view()`` is wrapped in the envelope Session.board_state() publishes, so the
snapshots follow the real views. Only the buzzer round has no engine yet: its view is written by hand
in the shape documented in appliance/board/scenes/buzzer.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from appliance.games import registry
from appliance.games.base import Engine
from appliance.games.poker.actions import StartBetting
from appliance.games.squizz.actions import StartQuestion
from appliance.games.squizz.card import card_from_scenario
from appliance.palette import PALETTE

JSON = dict[str, Any]

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


def players_json(names: Sequence[str], offline: Sequence[str] = ()) -> list[JSON]:
    """The envelope's handset list: seat colours from the palette, some batteries and signals."""
    out = []
    for index, name in enumerate(names):
        out.append(
            {
                "name": name,
                "handset": f"hs-{index + 1}",
                "colour": PALETTE[index % len(PALETTE)],
                "online": name not in offline,
                "battery": [92, 64, 15, 100, 48, 77, 33, 81][index % 8],
                "rssi": [-48, -62, -71, None, -88, -58, -66, -50][index % 8],
                "seated": True,
            }
        )
    return out


def envelope(
    game: str | None,
    view: Mapping[str, Any] | None,
    names: Sequence[str],
    scene: str = "playing",
    **extra: Any,
) -> JSON:
    state: JSON = {
        "v": 1,
        "box": "The Red Lion",
        "scene": scene,
        "game": game,
        "paused": False,
        "players": players_json(names, extra.pop("offline", ())),
        "seats": list(names) if game else [],
        "view": None if view is None else dict(view),
        "remaining": None,
        "can_advance": False,
        "message": "",
        "version": 1,
    }
    state.update(extra)
    return state


class Play:
    """Drives one engine through its scenario adapter and records public views by name."""

    def __init__(self, game: str, names: Sequence[str], options: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.names = list(names)
        adapter = registry.spec(game).adapter
        assert adapter is not None, f"{game} has no scenario adapter"
        self.adapter = adapter
        self.engine: Engine = self.adapter.new_engine(self.names, dict(options or {}))
        self.views: dict[str, JSON] = {}

    def view(self) -> JSON:
        return self.engine.public_view()

    def keep(self, name: str) -> None:
        self.views[name] = self.view()

    def start(self, question: Mapping[str, Any]) -> None:
        self.adapter.start_question(self.engine, question)

    def step(self, step: Mapping[str, Any]) -> None:
        self.adapter.step(self.engine, step)

    def finish(self, question: Mapping[str, Any]) -> None:
        self.adapter.finish_question(self.engine, question)


def confident_views() -> dict[str, JSON]:
    play = Play("confident", PLAYERS, {"target": 15, "variants": ["fast_play", "nail_it"]})
    play.keep("intro")
    card = {"question": "The moon. How many people have walked on its surface?", "answer": "12", "unit": "people"}
    q1 = {"card": card}
    play.start(q1)
    play.step({"player": "Ann", "range": ["8", "15"]})
    play.step({"player": "Cat", "copy": "Ann", "double": True})
    play.keep("question")
    play.step({"player": "Bob", "range": ["5", "30"], "swap": ["Cat", "Dan"]})
    play.step({"player": "Dan", "range": ["20", "100"]})
    play.finish(q1)
    play.keep("reveal")
    q2 = {"card": {"question": "How many people lived in Tokyo's metropolitan area in 2020?",
                   "answer": "37400000", "unit": "people"}}
    play.start(q2)
    play.step({"player": "Ann", "range": ["10M", "40M"]})
    play.step({"player": "Bob", "range": ["1000", "5000"]})
    play.step({"player": "Cat", "range": ["30000000", "38000000"]})
    play.step({"player": "Dan", "range": ["2M", "3M"]})
    play.finish(q2)
    play.keep("reveal_log")
    q3 = {"card": {"question": "Lowest air temperature ever measured on Earth, in degrees Celsius?",
                   "answer": "-89.2", "unit": "°C"}}
    play.start(q3)
    play.step({"player": "Ann", "range": ["-95", "-80"]})
    play.step({"player": "Bob", "range": ["-60", "-40"]})
    play.step({"player": "Cat", "range": ["-0.5", "0.5"]})
    play.step({"player": "Dan", "range": ["-100", "10"]})
    play.finish(q3)
    play.keep("reveal_negative")
    play.step({"player": "", "action": "end"})
    play.keep("over")
    return play.views


def poker_views() -> dict[str, JSON]:
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    play = Play("poker", names, {"stack": 500, "ante": 10})
    play.keep("intro")
    q1 = {"card": {"question": "How many bones are in the adult human body?", "answer": "206",
                   "hints": ["More than 150.", "Fewer than 250."]}}
    play.start(q1)
    play.step({"player": "Ann", "range": ["200", "215"]})
    play.step({"player": "Bob", "range": ["150", "300"]})
    play.keep("ranges")
    play.step({"player": "Cat", "range": ["180", "206"]})
    play.step({"player": "Dan", "range": ["100", "120"]})
    play.step({"player": "Eve", "range": ["205", "207"]})
    play.step({"player": "Ann", "action": "bet", "to": 40})
    play.step({"player": "Bob", "action": "call"})
    play.keep("betting")
    play.step({"player": "Cat", "action": "call"})
    play.step({"player": "Dan", "action": "fold"})
    play.step({"player": "Eve", "action": "fold"})
    for _ in range(3):  # rounds 2-4: hints, then the answer
        for name in ("Ann", "Bob", "Cat"):
            play.step({"player": name, "action": "check"})
    play.finish(q1)
    q2 = {"card": {"question": "How high is Mount Everest, in metres (the 2020 survey)?", "answer": "8848.86",
                   "hints": ["Higher than 8,000 m.", "Between 8,800 and 8,900 m."]}}
    play.start(q2)
    for name, low, high in (("Ann", "8000", "9000"), ("Bob", "8800", "8900"), ("Cat", "8840", "8850"),
                            ("Dan", "5000", "6000"), ("Eve", "1", "100000")):
        play.step({"player": name, "range": [low, high]})
    play.step({"player": "Bob", "action": "bet", "to": 100})
    play.step({"player": "Cat", "action": "allin"})
    play.step({"player": "Dan", "action": "allin"})
    play.step({"player": "Eve", "action": "fold"})
    play.step({"player": "Ann", "action": "call"})
    play.keep("betting_allin")
    play.step({"player": "Bob", "action": "fold"})
    play.finish(q2)
    play.keep("showdown")
    play.step({"player": "", "action": "end"})
    play.keep("over")
    return play.views


def allin_views() -> dict[str, JSON]:
    play = Play("allin", ["Ann", "Bob", "Cat", "Dan"], {"chips": 15})
    play.keep("intro")
    q1 = {"card": {"statements": ["I have been to Australia.", "I can juggle with three balls.",
                                  "I once sang karaoke in front of more than a hundred people."]}}
    play.start(q1)
    play.keep("reading")
    play.step({"player": "Ann", "pick": 2, "answer": True, "exclude": "Dan"})
    play.step({"player": "Bob", "split": {"true": 15, "false": 0}})
    play.keep("betting")
    play.step({"player": "Cat", "split": {"true": 0, "false": 15}})
    play.finish(q1)
    play.keep("reveal")
    q2 = {"card": {"statements": ["I have never broken a bone.", "I speak three languages.",
                                  "I have met a famous footballer."]}}
    play.start(q2)
    play.step({"player": "Bob", "pick": 0, "answer": False})
    play.step({"player": "Dan", "split": {"true": 5, "false": 10}})
    play.step({"player": "Ann", "split": {"true": 3, "false": 12}})
    play.finish(q2)
    play.keep("reveal_two")
    play.step({"player": "", "action": "end"})
    play.keep("over")
    return play.views


def squizz_views() -> dict[str, JSON]:
    play = Play("squizz", PLAYERS)
    play.keep("intro")
    card = {"prompt": "Which of these animals lives longest?",
            "propositions": [{"label": "Greenland shark", "value": "400"},
                             {"label": "Domestic cat", "value": "15"},
                             {"label": "Galápagos giant tortoise", "value": "177"}]}
    q1 = {"card": card, "die": 3}
    # The adapter rolls and deals in one go; the roll screen needs the state between the two.
    play.engine.apply(StartQuestion.host(3))
    play.keep("roll")
    play.engine.apply(card_from_scenario(card))
    play.step({"player": "Bob", "answer": "A", "token": 1})
    play.keep("question")
    play.step({"player": "Cat", "answer": "C", "token": 2})
    play.step({"player": "Dan", "answer": "A", "token": 3})
    play.finish(q1)
    play.keep("reveal")
    order = ["Ann", "Bob", "Cat", "Dan"]
    answers = ["A", "B", "C"]
    number = 1
    while not play.engine.finished:
        reader = order[number % 4]
        q = {"card": {"prompt": f"Question {number + 1}: which is the middle one?",
                      "propositions": [{"label": "One", "value": str(10 + number)},
                                       {"label": "Two", "value": str(20 + number)},
                                       {"label": "Three", "value": str(30 + number)}]}, "die": 2}
        play.start(q)
        for offset, name in enumerate(n for n in order if n != reader):
            tokens = play.engine.private_view(name)["tokens"]
            play.step({"player": name, "answer": answers[(number + offset) % 3], "token": tokens[0]})
        play.finish(q)
        number += 1
    play.keep("over")
    return play.views


def buzzer_views() -> dict[str, JSON]:
    base = {"game": "buzzer", "number": 4, "question": "Which planet has the most moons?",
            "scores": {"Ann": 3, "Bob": 1, "Cat": 4, "Dan": 0}, "players": PLAYERS}
    return {
        "waiting": {**base, "phase": "waiting", "buzzes": [], "answering": None, "wrong": [], "locked_out": []},
        "armed": {**base, "phase": "armed", "buzzes": [], "answering": None, "wrong": [], "locked_out": ["Bob"]},
        "answering": {**base, "phase": "answering", "buzzes": ["Cat", "Ann", "Dan"], "answering": "Ann",
                      "wrong": ["Cat"], "locked_out": ["Bob"]},
    }


def board_states() -> dict[str, JSON]:
    """Every scene the snapshot tests cover, by name."""
    lobby_names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    states: dict[str, JSON] = {
        "lobby-empty": envelope(None, None, [], scene="lobby"),
        "lobby": envelope(None, None, lobby_names, scene="lobby", offline=["Eve"],
                          join={"url": "http://quizbox.local:8080/join", "address": "quizbox.local:8080"}),
    }
    c = confident_views()
    states["confident-intro"] = envelope("confident", c["intro"], PLAYERS)
    states["confident-question"] = envelope("confident", c["question"], PLAYERS, remaining=7.4)
    states["confident-reveal"] = envelope("confident", c["reveal"], PLAYERS, can_advance=True)
    states["confident-reveal-log"] = envelope("confident", c["reveal_log"], PLAYERS)
    states["confident-reveal-negative"] = envelope("confident", c["reveal_negative"], PLAYERS)
    states["confident-winners"] = envelope("confident", c["over"], PLAYERS, scene="results")
    states["pause"] = envelope("confident", c["question"], PLAYERS, paused=True)
    p = poker_views()
    five = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    states["poker-intro"] = envelope("poker", p["intro"], five)
    states["poker-ranges"] = envelope("poker", p["ranges"], five, remaining=42.0)
    states["poker-betting"] = envelope("poker", {**p["betting"], "ante_next": {"ante": 20, "seconds": 754}}, five)
    states["poker-betting-allin"] = envelope("poker", p["betting_allin"], five)
    states["poker-showdown"] = envelope("poker", p["showdown"], five, can_advance=True)
    states["poker-winners"] = envelope("poker", p["over"], five, scene="results")
    a = allin_views()
    states["allin-intro"] = envelope("allin", a["intro"], PLAYERS)
    states["allin-reading"] = envelope("allin", a["reading"], PLAYERS)
    states["allin-betting"] = envelope("allin", a["betting"], PLAYERS)
    states["allin-reveal"] = envelope("allin", a["reveal"], PLAYERS)
    states["allin-reveal-two"] = envelope("allin", a["reveal_two"], PLAYERS)
    states["allin-winners"] = envelope("allin", a["over"], PLAYERS, scene="results")
    s = squizz_views()
    states["squizz-intro"] = envelope("squizz", s["intro"], PLAYERS)
    states["squizz-roll"] = envelope("squizz", s["roll"], PLAYERS)
    states["squizz-question"] = envelope("squizz", s["question"], PLAYERS)
    states["squizz-reveal"] = envelope("squizz", s["reveal"], PLAYERS)
    states["squizz-final"] = envelope("squizz", s["over"], PLAYERS, scene="results")
    b = buzzer_views()
    for phase, view in b.items():
        states[f"buzzer-{phase}"] = envelope("buzzer", view, PLAYERS)
    return states


SNAPSHOT_TIME = 30.0
"""The animation clock for snapshots: every animation has settled by then."""

def snapshot_cases() -> list[tuple[str, JSON, float]]:
    states = board_states()
    cases = [(name, state, SNAPSHOT_TIME) for name, state in states.items()]
    cases.append(("squizz-roll-rolling", states["squizz-roll"], 0.5))
    cases.append(("squizz-final-halfway", states["squizz-final"], 2.0))
    return cases



# -- the room (rules.md The room): the same scenes at 2 to 40 seats --------------------------------------

ROOM_TEAMS = [
    "Quiz Akabusi", "Les Quizerables", "The Quizzly Bears", "Agatha Quiztie", "Universally Challenged",
    "Trivia Newton-John", "Quizteama Aguilera", "The Know-It-Ales", "Tequila Mockingbird", "Pun Intended",
    "Dumbledore's Army", "Sherlock Homies", "The Brainy Bunch", "Norfolk Enchants", "Smarty Pints",
    "Quiztopher Columbus", "E=MC Hammer", "The Usual Suspects", "Spicy Meatballs", "Multiple Scoregasm",
    "Hakuna Moscato", "Let's Get Quizzical", "Risky Quizness", "The Mighty Quizzers", "Cheeky Nando's",
    "Beer Necessities", "Lord of the Pints", "The Wise Quackers", "Nerd Herd", "Ctrl Alt Defeat",
    "Victorious Secret", "The Fact Hunters", "Quizlamic Rage", "No Idea", "Bad Decisions",
    "Hungry Hippos", "The Back Row", "Red Herrings", "Table Nine", "Last Orders",
]
"""Forty pub-quiz team names (each within the protocol's 24 characters)."""

ROOM_SIZES = (2, 8, 12, 24, 40)
"""The room sizes the snapshots cover: a pair, the boxed games' table, the issue's 12, 24 and the 40 of
rules.md room-1."""


def room_views(count: int) -> dict[str, JSON]:
    """Board states of the scenes a room changes, with ``count`` teams, from the real engines."""
    teams = ROOM_TEAMS[:count]
    join = {"url": "http://quizbox.local:8080/join", "address": "quizbox.local:8080"}
    states: dict[str, JSON] = {
        "lobby": envelope(None, None, teams, scene="lobby", join=join, offline=teams[2:count:9]),
    }
    confident = Play("confident", teams, {"variants": ["two_players"]} if count == 2 else None)
    card = {"question": "How many steps lead to the top of the Eiffel Tower?", "answer": "1665", "unit": "steps"}
    confident.start({"card": card})
    for index, team in enumerate(teams[: (count + 1) // 2]):
        confident.step({"player": team, "range": [str(1000 + 37 * index), str(1500 + 61 * index)]})
    states["confident-question"] = envelope("confident", confident.view(), teams, remaining=24.0)
    for index, team in enumerate(teams[(count + 1) // 2:], (count + 1) // 2):
        if index == count - 1 and count > 2:
            confident.step({"player": team, "copy": teams[0], "double": True})
        else:
            low = 600 + 45 * (index % 25)
            confident.step({"player": team, "range": [str(low), str(low + 150 + 97 * (index % 7))]})
    confident.finish({"card": card})
    states["confident-reveal"] = envelope("confident", confident.view(), teams, can_advance=True)
    confident.step({"player": "", "action": "end"})
    states["confident-winners"] = envelope("confident", confident.view(), teams, scene="results")
    allin = Play("allin", teams, {"chips": 15})
    allin.start({"card": {"statements": ["I have been to Australia.", "I can juggle with three balls.",
                                         "I once sang karaoke in front of more than a hundred people."]}})
    allin.step({"player": teams[0], "pick": 2, "answer": True, **({"exclude": teams[-1]} if count > 2 else {})})
    bettors = teams[1:-1] if count > 2 else teams[1:]
    for index, team in enumerate(bettors[: len(bettors) // 2]):
        allin.step({"player": team, "split": {"true": 15 - index % 16, "false": index % 16}})
    states["allin-betting"] = envelope("allin", allin.view(), teams)
    for index, team in enumerate(bettors[len(bettors) // 2:]):
        on_true = [0, 15, 8, 3, 12][index % 5]
        allin.step({"player": team, "split": {"true": on_true, "false": 15 - on_true}})
    allin.finish({})
    states["allin-reveal"] = envelope("allin", allin.view(), teams)
    squizz = Play("squizz", teams, {"readers": False, "tokens": 2})
    squizz_card = {"prompt": "Height in metres", "propositions": [{"label": "Big Ben", "value": "96"},
                                                                 {"label": "Eiffel Tower", "value": "330"},
                                                                 {"label": "Leaning Tower of Pisa", "value": "57"}]}
    squizz.start({"card": squizz_card, "die": 3})
    for index, team in enumerate(teams[: count * 2 // 3]):
        squizz.step({"player": team, "answer": "ABC"[index % 3] if index % 4 else "B", "token": 1})
    states["squizz-question"] = envelope("squizz", squizz.view(), teams)
    for team in teams[count * 2 // 3:]:
        squizz.step({"player": team, "answer": "B", "token": 1})
    squizz.finish({})
    states["squizz-reveal"] = envelope("squizz", squizz.view(), teams)
    squizz.start({"card": squizz_card, "die": 1})
    for index, team in enumerate(teams):
        squizz.step({"player": team, "answer": "ABC"[index % 3], "token": 2})
    squizz.finish({})
    states["squizz-final"] = envelope("squizz", squizz.view(), teams, scene="results")
    states.update(poker_room_views(teams))
    buzzer = Play("buzzer", teams)
    buzzer.start({"card": {"question": "Which planet has the most moons?", "answer": "Saturn"}})
    for index, team in enumerate(reversed(teams)):
        buzzer.step({"player": team, "press": 180 + 23 * index})
    buzzer.step({"player": "", "action": "wrong"})
    states["buzzer-answering"] = envelope("buzzer", buzzer.view(), teams)
    states.update(night_views(teams))
    return states


def poker_room_views(teams: Sequence[str]) -> dict[str, JSON]:
    """Estimation poker for ``teams`` (rules.md room-5): question 1's first betting round at every table
    (each table's first seat has bet 40, its second called), then question 2 at the final table, formed
    when question 1's all-ins left at most 8 with chips (each table's first seat, with the right range,
    wins its table; the second seat folds at tables 1 to 3 and keeps its chips)."""
    play = Play("poker", teams, {"stack": 200, "ante": 10})
    engine = play.engine
    first = {"card": {"question": "How many steps lead to the top of the Eiffel Tower?", "answer": "1665",
                      "hints": ["More than 1,000.", "Fewer than 2,000."]}}
    play.start(first)
    seated = [list(table["players"]) for table in play.view().get("tables", [{"players": teams}])]
    for table in seated:
        for index, team in enumerate(table):
            play.step({"player": team, "range": ["1600", "1700"] if index == 0 else ["10", "20"]})
    for table in seated:
        play.step({"player": table[0], "action": "bet", "to": 40})
        if len(table) > 2:
            play.step({"player": table[1], "action": "call"})
    states = {"poker-tables": envelope("poker", play.view(), teams, remaining=38.0)}
    survivors = {table[1] for number, table in enumerate(seated, 1) if number <= 3 and len(table) > 1}
    while True:
        actors: dict[int, str] = engine.actors()  # type: ignore[attr-defined]
        if not actors:
            break
        for actor in actors.values():
            play.step({"player": actor, "action": "fold" if actor in survivors else "allin"})
    play.finish(first)
    second = {"card": {"question": "In what year did the first Glastonbury Festival take place?", "answer": "1970",
                       "hints": ["After 1960.", "Before 1980."]}}
    play.start(second)
    holders = [team for team in teams if engine.public_view()["stacks"].get(team, 0) > 0]
    for index, team in enumerate(holders):
        play.step({"player": team, "range": ["1965", "1975"] if index % 2 else ["1950", "1990"]})
    engine.apply(StartBetting.now())
    play.step({"player": engine.public_view()["to_act"], "action": "bet", "to": 30})
    states["poker-final"] = envelope("poker", play.view(), teams)
    return states


def night_views(teams: Sequence[str]) -> dict[str, JSON]:
    """A night of buzzer rounds for ``teams``: the standing after round 2 (round 3 next, a few sitting
    out), then the podium."""
    from appliance.games.night.actions import FinishRound, StartRound
    from appliance.games.night.engine import NightEngine

    count = len(teams)
    seated = list(teams[: max(2, count - max(1, count // 8))]) if count > 2 else list(teams)
    night = NightEngine(teams, {"title": "Red Lion quiz night", "rounds": [
        {"game": "buzzer", "title": "Warm-up"}, {"game": "buzzer", "title": "Music"},
        {"game": "buzzer", "title": "The final", "multiplier": 2, "seats": seated}]})

    def play_round(order: Sequence[str]) -> None:
        round_ = night.next_round
        assert round_ is not None
        night.apply(StartRound.now())
        game = Play("buzzer", round_.seats)
        for right in order:
            game.start({"card": {"question": "?", "answer": "!"}})
            game.step({"player": right, "press": 100})
            game.step({"player": "", "action": "right"})
            game.finish({})
        game.step({"player": "", "action": "end"})
        night.apply(FinishRound.of(game.engine.log))

    play_round([teams[(7 * i) % count] for i in range(count)])
    play_round([teams[(5 * i + 3) % count] for i in range(count // 2 + 1)])
    states = {"night-standing": envelope(None, None, teams, scene="night-standing", night=night.public_view())}
    play_round([seated[0]] * 10 + [seated[(3 * i + 1) % len(seated)] for i in range(len(seated))])
    podium = night.public_view()
    if night.phase != "finished":
        return states
    states["night-podium"] = envelope(None, None, teams, scene="night-podium", night=podium)
    return states


def room_states() -> dict[str, JSON]:
    """Every room scene at every size of :data:`ROOM_SIZES`, named ``<scene>-<count>``."""
    return {f"{name}-{count}": state for count in ROOM_SIZES for name, state in room_views(count).items()}
