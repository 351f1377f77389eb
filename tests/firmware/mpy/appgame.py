# The whole ESP32 app through a game, for the heap bench (bench/firmware_heap.py, run.mjs --heap appgame):
# firmware.esp32.app.App with its link on the real umqtt.simple over the scripted network of faults.py,
# the SSD1306 driver on the machine stub's I2C, the keypad scanned through the stub's pins. Every prompt
# kind, several rounds, each question TEXT_LEN characters long; the box's appliance acks every input.
# One step is one action: a prompt arriving (until it is on the screen), or one key press and release.

import faults
import samples

from firmware import protocol as P

SCRIPT = (
    ("i1", ()),
    ("r1", ("1", "2", ".", "5", "mag", "next", "2", "0", "mag", "ok", "ok")),
    ("w1", ()),
    ("r2", ("8", "8", "0", "0", "next", "9", "0", "0", "0", "ok", "ok")),
    ("b1", ("3", "next", "5", "0", "ok", "ok")),
    ("b2", ("3", "next", "1", "2", "0", "ok", "ok")),
    ("c1", ("2", "next", "1", "ok", "ok")),
    ("s1", ("9", "ok", "ok")),
    ("t1", ("2", "next", "4", "ok", "ok")),
    ("n2", ("3", "3", "0", ".", "5", "ok", "ok")),
    ("z1", ("ok",)),
)


def question(n):
    """A question of exactly ``n`` characters, words of plain ASCII as a quiz has them."""
    words = "How many of these very long words does the quizmaster need to fill a whole screen "
    text = ""
    while len(text) < n:
        text += words
    return text[: n - 1] + "?"


class Game:
    def __init__(self, rounds=5, text_len=200):
        self.rounds = rounds
        self.text = question(text_len)
        self.world = faults.World()
        self.app = faults.handset(self.world)
        self.world.prompt(samples.by_id("i1"))
        faults.drive(self.world, self.app, 20000, lambda: self.app.handset.online)
        self.actions = self._actions()
        self.sent = 0
        self.seqs = set()

    def _actions(self):
        world, app = self.world, self.app
        total = self.rounds * len(SCRIPT)
        for index in range(total):
            prompt_id, keys = SCRIPT[index % len(SCRIPT)]
            prompt = samples.by_id(prompt_id)
            prompt["id"] = prompt_id + "-" + str(index)
            if prompt.get("text"):
                prompt["text"] = self.text
            world.prompt(prompt)
            faults.drive(world, app, 2000, lambda p=prompt["id"]: self.showing(p))
            yield True
            for key in keys:
                faults.press(world, app, key)
                self.tidy()
                yield True

    def showing(self, prompt_id):
        prompt = self.app.handset.prompt
        return prompt is not None and prompt["id"] == prompt_id

    def tidy(self):
        """Keep the harness's own heap flat: count the inputs, forget closed sockets."""
        world = self.world
        self.sent += len(world.inputs)
        for i in world.inputs:
            self.seqs.add(i["seq"])
        del world.inputs[:]
        world.sockets = world.open_sockets()
        world.conns = [c for c in world.conns if not c.closed]

    def step(self):
        """One action; False when the game is over."""
        try:
            next(self.actions)
        except StopIteration:
            return False
        return True

    def check(self):
        """The game went as a player's would: every input delivered once and acked."""
        faults.eq(self.sent, self.rounds * 9, "inputs")
        faults.eq(len(self.seqs), self.rounds * 9, "seqs")
        faults.eq(self.world.connects, 1, "connections")
        faults.healthy(self.world, "game")
        return True


def main():
    g = Game(2, P.MAX_TEXT)
    while g.step():
        pass
    g.check()
    print("1 passed, 0 failed")
    return 0
