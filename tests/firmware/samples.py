# One prompt of every kind (several for bet/choice/info), as the appliance sends them. MicroPython-
# compatible: the node runner writes this file into MicroPython's filesystem too. Built per kind, so
# by_id (what the heap games call for every prompt) builds its own kind's prompts only, and the heap
# figures do not grow with the number of samples.

from firmware import protocol as P

PLAYERS = ["Bob", "Cy", "Dee"]


def _info():
    return [
        P.make_prompt("i1", P.INFO, "Quizbox", "Look at the TV", lines=["Question 3 of 10"]),
        P.make_prompt("w1", P.INFO, "Confident?", "", wait=True, private={"range": "1.2k-3k", "score": 7}),
    ]


def _range():
    return [
        P.make_prompt(
            "r1",
            P.RANGE,
            "Confident?",
            "Bones in an adult human body?",
            unit="bones",
            boosts={"copy": PLAYERS, "swap": PLAYERS, "double": True},
            private={"score": 7},
        ),
        P.make_prompt("r2", P.RANGE, "Poker Q2", "Height of Everest in metres?"),
    ]


def _bet():
    return [
        P.make_prompt(
            "b1",
            P.BET,
            "Poker Q2",
            "",
            stack=1000,
            to_call=0,
            pot=60,
            actions=[
                {"action": "check"},
                {"action": "bet", "min": 20, "max": 1000},
                {"action": "fold"},
                {"action": "allin"},
            ],
            private={"range": "8000-9000"},
        ),
        P.make_prompt(
            "b2",
            P.BET,
            "Poker Q2",
            "",
            stack=950,
            to_call=40,
            pot=140,
            actions=[
                {"action": "fold"},
                {"action": "call"},
                {"action": "raise", "min": 80, "max": 990},
                {"action": "allin"},
            ],
        ),
    ]


def _choice():
    return [
        P.make_prompt(
            "c1",
            P.CHOICE,
            "All In",
            "You read: pick and answer",
            fields=[
                {
                    "name": "pick",
                    "label": "Pick",
                    "required": True,
                    "options": [
                        {"id": "0", "label": "Stmt 1"},
                        {"id": "1", "label": "Stmt 2"},
                        {"id": "2", "label": "Stmt 3"},
                    ],
                },
                {
                    "name": "answer",
                    "label": "Answer",
                    "required": True,
                    "options": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}],
                },
                {
                    "name": "exclude",
                    "label": "Exclude",
                    "required": False,
                    "options": [{"id": n, "label": n} for n in PLAYERS],
                },
            ],
        ),
    ]


def _split():
    return [
        P.make_prompt(
            "s1",
            P.SPLIT,
            "All In",
            "Stmt 2 is...",
            total=15,
            sides=[{"id": "true", "label": "True"}, {"id": "false", "label": "False"}],
            private={"chips": 15},
        ),
    ]


def _token():
    return [
        P.make_prompt(
            "t1",
            P.TOKEN,
            "sQuizz",
            "Which is the largest?",
            answers=["A", "B", "C"],
            tokens=[1, 2, 4],
            private={"tokens": [1, 2, 4]},
        ),
    ]


def _buzz():
    return [
        P.make_prompt("z1", P.BUZZ, "Buzzer", "", armed=True),
        P.make_prompt("z2", P.BUZZ, "Buzzer", "", armed=False),
    ]


def _number():
    # protocol 1.2: a quiz night's tie-break (docs/protocol.md section 6)
    return [
        P.make_prompt("n1", P.NUMBER, "Tie-break!", "In which year did the Berlin Wall fall?", unit=""),
        P.make_prompt("n2", P.NUMBER, "Tie-break!", "How tall is the Eiffel Tower?", unit="metres"),
    ]


KINDS = (_info, _range, _bet, _choice, _split, _token, _buzz, _number)
# a sample's id starts with its kind's letter
BY_LETTER = {
    "i": _info,
    "w": _info,
    "r": _range,
    "b": _bet,
    "c": _choice,
    "s": _split,
    "t": _token,
    "z": _buzz,
    "n": _number,
}


def prompts():
    out = []
    for kind in KINDS:
        out += kind()
    return out


def by_id(prompt_id):
    for prompt in BY_LETTER[prompt_id[:1]]():
        if prompt["id"] == prompt_id:
            return prompt
    raise KeyError(prompt_id)
