# A whole game of prompts for the heap figure: every prompt kind, several rounds, typed on a keypad
# handset drawing on the real framebuf, each input acked. run.mjs --heap drives it one prompt per step
# (MicroPython's WebAssembly port only collects garbage between its runPython calls).

import framebuf
import samples

from firmware import protocol as P
from firmware.core.handset import Handset

BOX = "box1"
HID = "h1"

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


class Wire:
    """The appliance's side: acks every input except the last buzz of the game."""

    def __init__(self):
        self.handset = None
        self.last = None

    def publish(self, topic, payload, retain=False):
        if topic.endswith("/input"):
            self.last = P.decode(payload)

    def subscribe(self, topic):
        pass


class Game:
    def __init__(self, rounds=5):
        self.rounds = rounds
        self.buf = bytearray(1024)
        screen = framebuf.FrameBuffer(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.wire = Wire()
        self.handset = Handset(BOX, HID, self.wire, screen=screen, name="Ann")
        self.handset.connected()
        self.actions = self._actions()
        self.sent = 0

    def _actions(self):
        """One action at a time: a prompt arrives, a key is pressed, an ack arrives."""
        h = self.handset
        total = self.rounds * len(SCRIPT)
        for index in range(total):
            prompt_id, keys = SCRIPT[index % len(SCRIPT)]
            prompt = samples.by_id(prompt_id)
            prompt["id"] = prompt_id + "-" + str(index)
            yield h.on_message(P.prompt_topic(BOX, HID), P.encode(prompt))
            for key in keys:
                seq = h.press(key)
                yield seq
                if seq is not None:
                    self.sent += 1
                    if index + 1 < total:
                        ack = P.make_ack(seq, True, "locked in")
                        yield h.on_message(P.ack_topic(BOX, HID), P.encode(ack))

    def step(self):
        """One action; False when the game is over."""
        try:
            next(self.actions)
        except StopIteration:
            return False
        return True
