# One prompt of every kind (several for bet/choice/info), as the appliance sends them. MicroPython-
# compatible: the node runner writes this file into MicroPython's filesystem too.

from firmware import protocol as P

PLAYERS = ["Bob", "Cy", "Dee"]


def prompts():
    return [
        P.make_prompt("i1", P.INFO, "Quizbox", "Look at the TV", lines=["Question 3 of 10"]),
        P.make_prompt("w1", P.INFO, "Confident?", "", wait=True, private={"range": "1.2k-3k", "score": 7}),
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
        P.make_prompt(
            "s1",
            P.SPLIT,
            "All In",
            "Stmt 2 is...",
            total=15,
            sides=[{"id": "true", "label": "True"}, {"id": "false", "label": "False"}],
            private={"chips": 15},
        ),
        P.make_prompt(
            "t1",
            P.TOKEN,
            "sQuizz",
            "Which is the largest?",
            answers=["A", "B", "C"],
            tokens=[1, 2, 4],
            private={"tokens": [1, 2, 4]},
        ),
        P.make_prompt("z1", P.BUZZ, "Buzzer", "", armed=True),
        P.make_prompt("z2", P.BUZZ, "Buzzer", "", armed=False),
    ]


def by_id(prompt_id):
    for prompt in prompts():
        if prompt["id"] == prompt_id:
            return prompt
    raise KeyError(prompt_id)
