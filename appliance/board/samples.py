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

