# Handset tests that run under real MicroPython (the WebAssembly port, via run.mjs): the core's key
# sequences, delivery and bot on MicroPython's own json/random/ints, firmware.core.fb against the real
# framebuf pixel for pixel, the ESP32 port's parts on stub hardware, and a whole game of prompts for the
# heap figure. MicroPython-only syntax rules: no typing, no f-string tricks, no CPython modules.

import random

import framebuf
import machine
import network
import samples

from firmware import protocol as P
from firmware.core import allowed, bot, fb, numtext
from firmware.core.handset import Handset

BOX = "box1"
HID = "h1"
_tests = []


def test(fn):
    _tests.append(fn)
    return fn


class Transport:
    def __init__(self):
        self.inputs = []
        self.hellos = []
        self.up = True

    def publish(self, topic, payload, retain=False):
        if not self.up:
            raise OSError("down")
        if topic.endswith("/input"):
            self.inputs.append(P.parse_input(HID, P.decode(payload)))
        elif topic.endswith("/hello"):
            self.hellos.append(P.parse_hello(HID, P.decode(payload)))

    def subscribe(self, topic):
        pass


class Clock:
    def __init__(self):
        self.now = 1000

    def __call__(self):
        return self.now


class Screen(framebuf.FrameBuffer):
    """The real framebuf, keeping its buffer in reach."""

    def __init__(self):
        self.buf = bytearray(1024)
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)


def real_screen():
    return Screen()


def handset(layout="keypad", screen=None):
    t = Transport()
    h = Handset(BOX, HID, t, screen=screen, layout=layout, clock_ms=Clock(), name="Ann")
    h.connected()
    return h, t


def show(h, prompt):
    assert h.on_message(P.prompt_topic(BOX, HID), P.encode(prompt))


def ack(h, seq, ok=True, msg=""):
    assert h.on_message(P.ack_topic(BOX, HID), P.encode(P.make_ack(seq, ok, msg)))


def typed(prompt_id, keys, layout="keypad"):
    h, t = handset(layout)
    show(h, samples.by_id(prompt_id))
    for k in keys:
        h.press(k)
    return [i["data"] for i in t.inputs]


def eq(a, b):
    if a != b:
        raise AssertionError(repr(a) + " != " + repr(b))


X10 = ["mag"] * 5


@test
def keypad_numbers():
    eq(typed("r2", ["1", "2", ".", "5", "next", "2", "0", "ok", "ok"]), [{"bottom": "12.5", "top": "20"}])
    eq(typed("r2", ["-", "3", ".", "2", "5", "next", "4", "ok", "ok"]), [{"bottom": "-3.25", "top": "4"}])
    eq(
        typed("r2", ["3", "mag", "mag", "next", "3", ".", "5", "mag", "mag", "ok", "ok"]),
        [{"bottom": "3000000", "top": "3500000"}],
    )
    eq(
        typed("r2", ["1"] + X10 + ["4", "5", "next", "2"] + X10 + ["4", "5", "ok", "ok"]),
        [{"bottom": "1 x 10^45", "top": "2 x 10^45"}],
    )
    eq(typed("r2", ["5"] + X10 + ["-", "3", "next", "5", "ok", "ok"]), [{"bottom": "0.005", "top": "5"}])


@test
def editing_and_cancelling():
    h, t = handset()
    show(h, samples.by_id("r2"))
    for k in ["1", "2", "del", "4", "next", "7", "mag", "del", "5", "ok", "del", "del", "9", "ok", "ok"]:
        h.press(k)
    eq([i["data"] for i in t.inputs], [{"bottom": "14", "top": "79"}])


@test
def five_buttons():
    r = "right"  # digit-wise: a blank digit scrolls _ 1 2 ... 9 0; OK on From goes to To (the round number above)
    eq(typed("r2", ["up", r, "up", "up", "ok", r, "up", "up", "ok", "ok"], "five"), [{"bottom": "12", "top": "21"}])
    keys = ["up"] * 3 + [r, r, "up", "up", r] + ["up"] * 5 + ["ok", "ok", "ok"]  # 3.5M to 4M in 16 presses
    eq(len(keys), 16)
    eq(typed("r2", keys, "five"), [{"bottom": "3500000", "top": "4000000"}])
    keys = ["left", "up", r, "up", "up", "ok", "up"]  # the sign slot: From -2, To 1
    eq(typed("r2", keys + ["ok", "ok"], "five"), [{"bottom": "-2", "top": "1"}])
    eq(typed("t1", ["up", "up", r, "down", "ok", "ok"], "five"), [{"answer": "B", "token": 4}])


@test
def other_kinds():
    eq(typed("b1", ["3", "next", "7", "5", "ok", "ok"]), [{"action": "bet", "to": 75}])  # 3: bet or raise
    eq(typed("b2", ["2", "ok", "ok"]), [{"action": "call"}])
    eq(
        typed("c1", ["3", "next", "2", "next", "2", "ok", "ok"]),
        [{"choices": {"pick": "2", "answer": "false", "exclude": "Cy"}}],
    )
    eq(typed("s1", ["9", "ok", "ok"]), [{"split": {"true": 9, "false": 6}}])
    eq(typed("t1", ["2", "next", "4", "ok", "ok"]), [{"answer": "B", "token": 4}])
    eq(typed("b1", ["3", "next", "2", "mag", "ok", "ok"]), [])  # 2000 is over the maximum


SEATS = [str(n) for n in range(2, 41)]  # a 40-team room's Copy and Swap offer seat numbers (issue 30)


def room_typed(prompt, keys, layout):
    h, t = handset(layout)
    show(h, prompt)
    for k in keys:
        h.press(k)
    return [i["data"] for i in t.inputs]


@test
def room_seats_by_number():
    rng = P.make_prompt("q1", P.RANGE, "Confident?", "How many?", boosts={"copy": SEATS, "swap": SEATS,
                                                                          "double": False})
    eq(room_typed(rng, ["next", "next", "3", "7", "ok", "ok"], "keypad"), [{"copy": "37"}])
    eq(room_typed(rng, ["ok", "ok"] + ["down"] * 4 + ["ok", "ok"], "five"), [{"copy": "37"}])
    swap = ["ok", "next", "3", "7", "next", "1", "2", "next", "5", "next", "9", "ok", "ok"]  # with: next wraps
    eq(room_typed(rng, swap, "keypad"), [{"bottom": "5", "top": "9", "swap": ["37", "12"]}])
    h, _ = handset("five")
    show(h, rng)
    for k in ["right", "right", "down", "down", "down", "down"]:  # a Swap of seat 37 in 6
        h.press(k)
    eq((h.editor.field.label, h.editor.field.chosen()), ("Swap", "37"))
    tens = [{"id": "-", "label": "Nobody"}] + [{"id": str(t), "label": str(t) + "-"} for t in range(5)]
    units = [{"id": str(u), "label": str(u)} for u in range(10)]
    choice = P.make_prompt("q2", P.CHOICE, "You read", "", fields=[
        {"name": "pick", "label": "Read which?", "required": True, "options": [{"id": "0", "label": "TV"}]},
        {"name": "answer", "label": "Answer", "required": True,
         "options": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}]},
        {"name": "exclude_tens", "label": "Exclude seat: tens", "required": False, "options": tens, "last": 40},
        {"name": "exclude_units", "label": "Exclude seat: units", "required": False, "options": units}])
    sent = [{"choices": {"pick": "0", "answer": "true", "exclude_tens": "3", "exclude_units": "7"}}]
    eq(room_typed(choice, ["1", "next", "1", "next", "3", "7", "ok", "ok"], "keypad"), sent)
    eq(room_typed(choice, ["up", "right", "up", "right"] + ["down"] * 4 + ["ok", "ok"], "five"), sent)


@test
def number_prompt():
    # the quiz night's tie-break: one exact number on both layouts, reviewed, sent as the appliance reads it
    eq(typed("n1", ["1", "9", "8", "9", "ok", "ok"]), [{"number": "1989"}])
    eq(typed("n2", ["-", "3", "3", "0", ".", "5", "0", "ok", "ok"]), [{"number": "-330.5"}])
    eq(typed("n1", ["1"] + X10 + ["4", "5", "ok", "ok"]), [{"number": "1 x 10^45"}])
    r = "right"
    keys = ["up", r] + ["up"] * 9 + [r] + ["up"] * 8 + [r] + ["up"] * 9 + ["ok", "ok"]
    eq(typed("n1", keys, "five"), [{"number": "1989"}])
    eq(typed("n1", ["left", "up", r, "up", "up", "ok", "ok"], "five"), [{"number": "-2"}])
    h, t = handset(screen=real_screen())
    show(h, samples.by_id("n2"))
    h.press("ok")  # nothing typed: a notice, nothing sent
    eq(h.editor.notice, "enter Number")
    for k in ["3", "3", "0", "ok"]:
        h.press(k)
    eq(h.editor.summary(h.editor.data), ["330", "metres"])
    h.press("del")  # back from the review page, the number kept
    h.press("ok")
    h.press("ok")
    eq([i["data"] for i in t.inputs], [{"number": "330"}])
    for data, why in (({"number": "1,5"}, "bad number"), ({}, "enter a number"), ({"number": 7}, "number not text")):
        try:
            allowed.check(h.prompt, data)
        except ValueError as err:
            eq(str(err), why)
        else:
            raise AssertionError(repr(data))


@test
def range_unit_shown_never_typed():
    # a range's unit: a line under the question (cut to the screen), on the review page, never sent
    from firmware.core import ui

    for layout in ("keypad", "five"):
        h, _ = handset(layout, real_screen())
        show(h, samples.by_id("r1"))
        eq(ui.context_lines(h.editor, h.prompt, layout), ["in bones"])
    unit = "cubic kilometres of water a year, roughly"
    h, t = handset(screen=real_screen())
    show(h, P.make_prompt("u", P.RANGE, "Confident?", LONG, unit=unit))
    eq(ui.context_lines(h.editor, h.prompt), ["in cubic kilomet"])
    for k in ["1", "next", "1", "0", "ok"]:
        h.press(k)
    eq(h.editor.summary(h.editor.data), ["From 1", "To   10", "in cubic kilomet"])
    h, t = handset(screen=real_screen())
    show(h, P.make_prompt("m", P.RANGE, "Confident?", "How far?", unit="m"))
    for k in ["1", "next", "1", "0", "ok"]:
        h.press(k)
    eq(h.editor.summary(h.editor.data), ["From 1 m", "To   10 m"])
    h.press("ok")
    eq([i["data"] for i in t.inputs], [{"bottom": "1", "top": "10"}])
    show(h, P.make_prompt("e", P.RANGE, "Confident?", "How far?", unit=""))
    eq(ui.context_lines(h.editor, h.prompt), [])


@test
def unknown_kind_shows_as_info():
    h, t = handset(screen=real_screen())
    show(h, samples.by_id("r2"))
    later = {"v": 1, "id": "q9", "kind": "dartboard", "title": "Darts!", "text": "Throw", "wait": True}
    show(h, later)
    eq(h.view, "info")
    eq(h.editor, None)
    eq(h.prompt, {"v": 1, "id": "q9", "kind": "info", "title": "Darts!", "text": "Throw"})
    for k in ["1", "ok", "ok"]:
        h.press(k)
    eq(t.inputs, [])


@test
def exactly_once_after_reconnect():
    h, t = handset()
    show(h, samples.by_id("r2"))
    for k in ["1", "0", "next"]:
        h.press(k)
    t.up = False
    h.disconnected()
    for k in ["2", "0", "ok", "ok"]:
        h.press(k)
    eq(t.inputs, [])
    t.up = True
    h.connected()
    eq(len(t.inputs), 1)
    ack(h, t.inputs[0]["seq"])
    h.connected()
    eq(len(t.inputs), 1)
    eq(h.view, "locked")


@test
def bot_is_legal_with_micropython_random():
    random.seed(7)
    for _ in range(40):
        for prompt in samples.prompts():
            data = bot.choose(prompt, random)
            if prompt["kind"] == P.INFO or (prompt["kind"] == P.BUZZ and not prompt.get("armed")):
                eq(data, None)  # nothing to send: a bot never buzzes before arming
                continue
            h, t = handset()
            show(h, prompt)
            h.submit(data)
            eq(t.inputs[-1]["data"], data if data else {"pressed": None})


@test
def big_numbers():
    eq(numtext.wire(*numtext.parse("6.02 x 10^23")), "602000000000000000000000")
    eq(numtext.compare(numtext.parse("1 x 10^60"), numtext.parse("999999999999999 x 10^45")), 1)
    eq(numtext.short(1234567891, 0, 8), "~1.2346B")


@test
def fb_matches_real_framebuf():
    # every prompt, both layouts, a few keys in: the CPython framebuffer draws the same pixels
    for layout in ("keypad", "five"):
        keys = ["1", "next", "2"] if layout == "keypad" else ["up", "right", "up"]
        for prompt in samples.prompts():
            for presses in (0, 3):
                real, mine = real_screen(), fb.FrameBuffer()
                for screen in (real, mine):
                    h, _ = handset(layout, screen)
                    h.battery = 64
                    show(h, prompt)
                    for k in keys[:presses]:
                        h.press(k)
                eq(bytes(mine.buffer), bytes(real.buf))


@test
def whole_game():
    import game

    g = game.Game()
    while g.step():
        pass
    eq(g.sent, g.rounds * 9)
    eq(g.handset.view, "sent")  # the last buzz waits for its ack


@test
def esp32_keypad_debounce():
    from firmware.esp32 import keys

    machine.reset_board()
    pad = keys.Keypad([13, 14, 27, 26], [25, 33, 32, 4], machine.Pin)
    events = []
    now = 0
    # press "6" (row 1, col 2) with contact bounce, hold, release
    for closed in (1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0):
        if closed:
            machine.pressed.add((14, 32))
        else:
            machine.pressed.discard((14, 32))
        key = pad.poll(now)
        if key:
            events.append(key)
        now += 5
    eq(events, ["6"])
    machine.pressed.add((26, 4))  # D = ok
    out = [pad.poll(t) for t in range(200, 300, 5)]
    eq([k for k in out if k], ["ok"])


@test
def esp32_buttons_repeat():
    from firmware.esp32 import keys

    machine.reset_board()
    pins = {"up": 13, "down": 14, "left": 27, "right": 26, "ok": 25}
    b = keys.Buttons(pins, machine.Pin)
    machine.grounded.add(13)
    got = [b.poll(t) for t in range(0, 1000, 5)]
    # pressed at 25 ms (debounced), repeats from 525 ms every 120 ms: 525, 645, 765, 885
    eq(len([k for k in got if k == "up"]), 5)


@test
def esp32_battery():
    from firmware.esp32 import battery

    machine.reset_board()
    machine.microvolts[34] = 1900000  # 3.8 V through the 2:1 divider
    b = battery.Battery(34, 2.0, machine.ADC, machine.Pin)
    eq(b.millivolts(), 3800)
    eq(b.percent(), 60)
    eq(battery.percent(3000), 0)
    eq(battery.percent(4300), 100)


@test
def esp32_config():
    from firmware.esp32 import config

    cfg = config.parse('{"wifi": {"ssid": "Pub"}, "box": "pub_one"}', machine.unique_id())
    eq(cfg["handset"], "esp32-123456")
    eq(config.broker_host(cfg), "pub-one.local")
    for text, why in (
        ('{"wifi": {}}', "wifi ssid missing"),
        ("[1", "config.json is not JSON"),
        ('{"wifi": {"ssid": "x"}, "layout": "touch"}', "layout: keypad or five"),
        ('{"wifi": {"ssid": "x"}, "colour": 1}', "unknown key colour"),
    ):
        try:
            config.parse(text)
        except config.ConfigError as err:
            eq(str(err), why)
        else:
            raise AssertionError(text)


@test
def esp32_ssd1306_on_real_framebuf():
    from firmware.esp32.ssd1306 import SSD1306_I2C

    i2c = machine.I2C(0)
    oled = SSD1306_I2C(i2c)
    oled.fill(0)
    oled.text("Hi", 0, 0, 1)
    oled.show()
    data = i2c.writes[-1][1]
    eq(data[0], 0x40)
    eq(len(data), 1025)
    mine = fb.FrameBuffer()
    mine.text("Hi", 0, 0, 1)
    eq(bytes(data[1:]), bytes(mine.buffer))


class FakeClient:
    """umqtt.simple's MQTTClient as far as Link uses it."""

    log = []
    fail_connects = 0

    def __init__(self, client_id, host, port, keepalive):
        self.cb = None
        self.sock = FakeSock()
        FakeClient.last = self

    def set_callback(self, cb):
        self.cb = cb

    def set_last_will(self, topic, msg, retain=False, qos=0):
        FakeClient.log.append(("will", topic, msg, retain))

    def connect(self, clean_session=True):
        if FakeClient.fail_connects:
            FakeClient.fail_connects -= 1
            raise OSError("refused")
        FakeClient.log.append(("connect",))

    def publish(self, topic, msg, retain=False, qos=0):
        if self.sock.dead:
            raise OSError("dead")
        FakeClient.log.append(("pub", topic, msg, retain))

    def subscribe(self, topic, qos=0):
        FakeClient.log.append(("sub", topic))

    def check_msg(self):
        if self.sock.dead:
            raise OSError("dead")
        self.sock.read(1)

    def ping(self):
        FakeClient.log.append(("ping",))


class FakeSock:
    def __init__(self):
        self.dead = False
        self.incoming = b""

    def read(self, n):
        data, self.incoming = self.incoming[:n], self.incoming[n:]
        return data or None

    def close(self):
        self.dead = True

    def settimeout(self, value):
        pass


@test
def esp32_link_reconnects_and_resends_once():
    from firmware.esp32.link import Link

    FakeClient.log = []
    clock = Clock()
    link = Link(BOX, HID, "quizbox.local", make_client=FakeClient, clock=clock, keepalive=10)
    h = Handset(BOX, HID, link, clock_ms=clock)
    link.handset = h
    FakeClient.fail_connects = 2
    link.poll()
    link.poll()  # backoff: no retry yet
    eq([e for e in FakeClient.log if e[0] == "connect"], [])
    clock.now += 1000
    link.poll()  # second failure, now 2 s
    clock.now += 2000
    link.poll()
    eq(h.online, True)
    eq(FakeClient.log[0], ("will", b"quizbox/box1/handset/h1/status", b"offline", True))
    show(h, samples.by_id("t1"))
    FakeClient.last.sock.dead = True  # dies mid-entry
    for k in ["1", "next", "1", "ok", "ok"]:
        h.press(k)
    link.poll()
    eq(h.online, False)
    clock.now += 1000
    link.poll()
    inputs = [e for e in FakeClient.log if e[0] == "pub" and e[1].endswith(b"/input")]
    eq(len(inputs), 1)
    eq(P.decode(inputs[0][2])["data"], {"answer": "A", "token": 1})
    # keepalive: a ping every 5 s, and silence for 15 s means a dead link
    clock.now += 5000
    link.poll()
    eq(FakeClient.log[-1], ("ping",))
    clock.now += 11000
    link.poll()
    eq(h.online, False)


@test
def esp32_app_step():
    from firmware.esp32 import app, config, keys, wifi

    machine.reset_board()
    network.polls_to_connect = 0
    network.ap_up = True
    cfg = config.parse('{"wifi": {"ssid": "Pub"}}', machine.unique_id())
    clock = Clock()
    FakeClient.log = []
    FakeClient.fail_connects = 0

    class Bat:
        def percent(self):
            return 55

    w = wifi.Wifi("Pub", "", network, clock)
    pad = keys.Keypad(cfg["pins"]["rows"], cfg["pins"]["cols"], machine.Pin)
    a = app.App(cfg, real_screen(), pad, Bat(), w, clock)
    a.link.make_client, a.link.resolve = FakeClient, None
    a.step()  # starts joining Wi-Fi without waiting
    eq(a.handset.online, False)
    a.step()
    eq(a.handset.online, True)
    eq(a.handset.battery, 55)
    tele = [e for e in FakeClient.log if e[0] == "pub" and e[1].endswith(b"/telemetry")]
    eq(P.parse_telemetry(P.decode(tele[0][2]))["rssi"], -58)


class QuietPin:
    """A pin that allocates nothing, to measure what the scan itself allocates."""

    IN = 1
    OUT = 2
    OPEN_DRAIN = 3
    PULL_UP = 1

    def __init__(self, number, mode=1, pull=None, value=None):
        self.level = 1

    def value(self, v=None):
        if v is None:
            return 1
        self.level = v


def allocated(fn, times):
    import gc

    gc.collect()
    before = gc.mem_alloc()
    for _ in range(times):
        fn()
    return gc.mem_alloc() - before


LONG = "How many " + "very " * 36 + "long words?"  # 200 characters


@test
def hot_paths_allocate_nothing():
    from firmware.core import ui
    from firmware.esp32 import keys

    pad = keys.Keypad([13, 14, 27, 26], [25, 33, 32, 4], QuietPin)
    five = keys.Buttons({"up": 13, "down": 14, "left": 27, "right": 26, "ok": 25}, QuietPin)
    eq(allocated(pad.scan, 100), 0)
    eq(allocated(five.scan, 100), 0)
    eq(allocated(lambda: pad.poll(1000), 100), 0)
    eq(len(LONG), 200)
    # plain ASCII comes back uncopied; MicroPython's str iteration itself makes a few small objects
    # (224 B for 200 characters, where building the copy a character at a time made 20 KB)
    cleaning = allocated(lambda: ui.clean(LONG), 10) // 10
    if cleaning > 2 * len(LONG):
        raise AssertionError("ui.clean allocates " + str(cleaning) + " bytes")


@test
def a_keypress_on_a_long_question_allocates_little():
    prompt = P.make_prompt("long", P.RANGE, "Confident?", LONG, unit="m")
    h, _ = handset(screen=real_screen())
    show(h, prompt)
    h.press("1")
    garbage = allocated(lambda: h.press("2"), 1)
    print("keypress garbage " + str(garbage))
    if garbage > 8192:  # 25 KB before: ui.clean built its copy a character at a time
        raise AssertionError("a keypress allocates " + str(garbage) + " bytes")


@test
def a_clock_ping_does_not_redraw():
    h, t = handset(screen=real_screen())
    show(h, samples.by_id("r2"))
    drawn = []
    h.render = lambda: drawn.append(1)
    ping = P.encode(P.make_ping(7, 1000))
    h.on_message(P.time_topic(BOX, HID), ping)
    eq(drawn, [])


def beat(h, boot):
    return h.on_message(P.appliance_heartbeat_topic(BOX), P.encode(P.make_heartbeat(1764583200000, boot)))


@test
def box_restart_says_hello_again():
    # the appliance restarts, the broker stays up: only the heartbeat's new boot tells the handset
    h, t = handset(screen=real_screen())
    eq(beat(h, "boot-1"), True)
    show(h, samples.by_id("t1"))
    for k in ["1", "next", "1", "ok", "ok"]:
        h.press(k)
    seq = t.inputs[0]["seq"]
    h.on_message(P.ack_topic(BOX, HID), P.encode(P.make_ack(seq, True, "locked in", "t1")))
    show(h, samples.by_id("z1"))
    h.press("ok")
    drawn = []
    h.render = lambda: drawn.append(1)
    beat(h, "boot-1")
    eq(len(t.hellos), 1)
    beat(h, "boot-2")
    eq(len(t.hellos), 2)
    eq(t.hellos[1]["acked"], {"seq": seq, "prompt": "t1"})
    eq([i["seq"] for i in t.inputs], [seq, seq + 1, seq + 1])
    eq(drawn, [])  # heartbeats never redraw while the box answers
    eq(h.on_message(P.appliance_heartbeat_topic(BOX), b"{bad"), False)
    eq(h.box_boot, "boot-2")


@test
def box_silence_across_a_ticks_wrap():
    import time

    h, t = handset(screen=real_screen())
    start = time.ticks_add(0, -1000)  # a second before MicroPython's ticks wrap to 0
    h.clock_ms.now = start
    beat(h, "boot-1")
    show(h, samples.by_id("r1"))
    drawn = []
    h.render = lambda: drawn.append(1)
    h.clock_ms.now = time.ticks_add(start, P.STALE_MS - 1)
    h.tick()
    eq((h.box_answering(), h.box_silent, drawn), (True, False, []))
    h.clock_ms.now = time.ticks_add(start, P.STALE_MS)
    h.tick()
    h.tick()
    eq((h.box_answering(), h.box_silent, drawn), (False, True, [1]))
    Handset.render(h)
    eq(footer_lit(h.screen) > 128 * 8 // 2, True)  # the footer inverted: "box: no answer" on lit pixels
    eq(link_icon(h.screen), LINK_SILENT)  # and the status bar's link icon says it too
    beat(h, "boot-1")
    eq((h.box_answering(), h.box_silent), (True, False))
    Handset.render(h)
    eq(footer_lit(h.screen) < 128 * 8 // 4, True)  # the player's own line again ("score: 7")
    eq(link_icon(h.screen), LINK_ANSWERING)
    h.disconnected()
    Handset.render(h)
    eq(link_icon(h.screen), LINK_OFFLINE)


# the status bar's link icon on the real framebuf ("#" dark on the lit bar; test_handset.py has the same)
LINK_ANSWERING = ["........", "......##", "......##", "...##.##", "...##.##", "##.##.##", "##.##.##", "........"]
LINK_SILENT = ["........", "......##", "......##", "...##.##", "...##.##", "##.##...", "##.##.##", "........"]
LINK_OFFLINE = ["........", ".#....#.", "..#..#..", "...##...", "...##...", "..#..#..", ".#....#.", "........"]


def link_icon(screen):
    return ["".join("." if screen.pixel(x, y) else "#" for x in range(104, 112)) for y in range(8)]


def footer_lit(screen):
    """The lit pixels of row 7 (the last page of MONO_VLSB)."""
    n = 0
    for b in screen.buf[7 * 128 :]:
        while b:
            n += b & 1
            b >>= 1
    return n


def main():
    failed = 0
    for fn in _tests:
        try:
            fn()
            print("PASS " + fn.__name__)
        except Exception as err:  # report every failure, not just the first
            failed += 1
            print("FAIL " + fn.__name__ + ": " + type(err).__name__ + " " + str(err))
            import sys

            sys.print_exception(err)
    print(str(len(_tests) - failed) + " passed, " + str(failed) + " failed")
    return failed
