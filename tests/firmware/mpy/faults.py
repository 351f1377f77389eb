# Fault injection under real MicroPython (run.mjs --call "faults.main()"): the ESP32 app (firmware.esp32.app,
# its link, Wi-Fi, keypad and SSD1306 driver) on the real umqtt.simple, over a scripted network (World: the
# socket stub tests/firmware/stubs/usocket.py, the network stub's access point) and a scripted display
# (the machine stub's I2C that NACKs on demand). Every fault a pub has: the broker closing before CONNACK,
# a SUBACK refusal, a packet stalled half-way, Wi-Fi lost while connecting, the OLED not answering while
# a message arrives, an exception inside a render, mDNS not answering, an exception in the main loop, and
# acks that are not for the input waiting (an odd prompt id, a seq never sent).
#
# Each test ends with the handset reconnected and showing the current prompt (or the right error screen)
# within a bounded time, every input delivered with one seq, the watchdog fed in time, and no socket call
# left to block forever (the world raises Hang, a BaseException no `except Exception` can swallow).

import os

import framebuf
import machine
import network
import samples
import usocket

from firmware import protocol as P
from firmware.core import handset as core
from firmware.core import ui
from firmware.core.keys import KEYPAD_MAP
from firmware.core.seq import next_seq_block
from firmware.esp32 import app as app_module
from firmware.esp32 import config, keys, wifi
from firmware.esp32.ssd1306 import SSD1306_I2C

BOX = "box1"
HID = "h1"
BOX_IP = "192.0.2.10"
LOOP_MS = 5  # the main loop's sleep
WDT_MS = app_module.WDT_MS
RECOVER_MS = 40000  # a handset is back within this long of a fault clearing
MDNS_MS = 3000  # an unanswered mDNS query blocks getaddrinfo this long on an ESP32
PENDING = "/pending"  # the flash file keeping the unacked input (app.PENDING_FILE on a device)
SEQ = "/seq"
_tests = []


def test(fn):
    _tests.append(fn)
    return fn


def eq(a, b, what=""):
    if a != b:
        raise AssertionError(what + ": " + repr(a) + " != " + repr(b))


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Hang(BaseException):
    """A socket call that would block forever on the device."""


def mdns_response(name, ip):
    """The box's zeroconf answering an A query for ``name``: one answer record, cache-flush set."""
    out = bytearray(b"\x00\x00\x84\x00\x00\x00\x00\x01\x00\x00\x00\x00")
    for label in name.split("."):
        out.append(len(label))
        out += label.encode()
    out += b"\x00\x00\x01\x80\x01\x00\x00\x00\x78\x00\x04"
    out += bytes([int(n) for n in ip.split(".")])
    return bytes(out)


def asked_name(packet):
    """The name a query asks about (the first question)."""
    labels, i = [], 12
    while packet[i]:
        labels.append(packet[i + 1 : i + 1 + packet[i]].decode())
        i += 1 + packet[i]
    return ".".join(labels)


# -- the box's side of the scripted network --------------------------------------------------------------
class Conn:
    """One TCP connection as the box sees it: parses the handset's MQTT packets, answers as mosquitto."""

    def __init__(self, world):
        self.world = world
        self.inbuf = bytearray()
        self.out = bytearray()  # bytes on their way to the handset
        self.peer_closed = False  # the box closed: reads give what is left, then b""
        self.closed = False  # the handset closed its socket
        self.subs = []
        self.live = False  # CONNACK 0 sent
        self.stalled = False

    def send(self, data):
        if self.stalled or self.peer_closed:
            return  # the box hangs mid-packet: nothing more arrives on this connection
        if self.world.stall:
            self.world.stall = False
            self.stalled = True
            data = data[: len(data) // 2]
        self.out += data

    def feed(self, data):
        self.inbuf += data
        while True:
            if len(self.inbuf) < 2:
                return
            size, shift, i = 0, 0, 1
            while True:
                if i >= len(self.inbuf):
                    return
                b = self.inbuf[i]
                size |= (b & 0x7F) << shift
                shift += 7
                i += 1
                if not b & 0x80:
                    break
            if len(self.inbuf) < i + size:
                return
            kind = self.inbuf[0]
            body = bytes(self.inbuf[i : i + size])
            self.inbuf = self.inbuf[i + size :]
            self.packet(kind, body)

    def packet(self, kind, body):
        w = self.world
        op = kind & 0xF0
        if op == 0x10:  # CONNECT
            w.connect_packets += 1
            if w.close_before_connack:
                w.close_before_connack -= 1
                self.peer_closed = True
                return
            if w.silent_connects:
                w.silent_connects -= 1
                return  # the box took the connection and says nothing
            if w.drop_wifi_on_connect:
                w.drop_wifi_on_connect -= 1
                network.ap_up = False  # the access point goes while the handset waits for CONNACK
                return
            self.live = True
            w.connects += 1
            self.send(b"\x20\x02\x00\x00")
        elif op == 0x80:  # SUBSCRIBE
            pid = body[:2]
            n = (body[2] << 8) | body[3]
            topic = body[4 : 4 + n].decode()
            code = 0
            if w.refuse_suback:
                w.refuse_suback -= 1
                code = 0x80
            self.send(b"\x90\x03" + pid + bytes((code,)))
            if code == 0:
                self.subs.append(topic)
                if topic in w.retained:
                    self.publish(topic, w.retained[topic])
        elif op == 0x30:  # PUBLISH (QoS 0)
            n = (body[0] << 8) | body[1]
            topic = body[2 : 2 + n].decode()
            w.published(self, topic, body[2 + n :])
        elif op == 0xC0:  # PINGREQ
            self.send(b"\xd0\x00")
        elif op == 0xE0:  # DISCONNECT
            self.peer_closed = True

    def publish(self, topic, payload):
        t = topic.encode()
        size = 2 + len(t) + len(payload)
        head = bytearray(b"\x30")
        while True:
            b = size & 0x7F
            size >>= 7
            head.append(b | (0x80 if size else 0))
            if not size:
                break
        self.send(bytes(head) + bytes((len(t) >> 8, len(t) & 0xFF)) + t + payload)


class World:
    """The clock, the access point, the box's broker and its appliance (acks every input)."""

    def __init__(self):
        self.now = 1000
        self.sockets = []
        self.conns = []
        self.mdns = True
        self.stall = False
        self.close_before_connack = 0
        self.refuse_suback = 0
        self.drop_wifi_on_connect = 0
        self.silent_connects = 0  # this many CONNECTs get no answer at all (the connection stays open)
        self.mdns_ip = BOX_IP  # what mDNS answers (another address: a stale one nobody listens at)
        self.connect_packets = 0
        self.connects = 0
        self.retained = {}
        self.inputs = []
        self.hellos = []
        self.ack_msg = "locked in"  # what the box's acks say
        self.acking = True  # False: the box takes inputs and never acks them
        self.current = None
        self.lookups = 0
        self.longest_step = 0
        usocket.world = self
        machine.clock = self.clock
        machine.reset_board()
        for name in (PENDING, SEQ, app_module.SAFE_FILE):
            try:  # noqa: SIM105 - MicroPython has no contextlib
                os.remove(name)
            except OSError:
                pass
        network.ap_up = True
        network.polls_to_connect = 3
        network.join_ms = None
        network.clock = self.clock
        self.ctrl_c = False

    def clock(self):
        return self.now

    def sleep_ms(self, ms):
        self.now += ms

    def wifi_up(self):
        return network.ap_up

    def _wait(self, sock):
        if sock.timeout is None:
            raise Hang("a socket call with no timeout waits for ever")
        self.now += int(sock.timeout * 1000)

    # -- the socket stub's calls --
    def getaddrinfo(self, host, port):
        if host[0] in "0123456789":
            return [(2, 1, 0, "", (host, port))]
        self.lookups += 1
        if not self.wifi_up() or not self.mdns or host != BOX + ".local":
            self.now += MDNS_MS
            raise OSError(-202)  # what an ESP32's getaddrinfo raises for a name it cannot resolve
        return [(2, 1, 0, "", (BOX_IP, port))]

    def opened(self, sock):
        sock.conn = None
        self.sockets.append(sock)

    def sendto(self, sock, data, addr):
        if not self.wifi_up():
            raise OSError(113)
        if addr[0] == "224.0.0.251" and addr[1] == 5353:
            self.lookups += 1  # an mDNS query
            if self.mdns and asked_name(data) == BOX + ".local":
                sock.inbox.append((mdns_response(BOX + ".local", self.mdns_ip), (self.mdns_ip, 5353)))
        return len(data)

    def recvfrom(self, sock, n):
        raise Hang("a UDP read with no timeout waits for ever")

    def connect(self, sock, addr):
        if not self.wifi_up() or addr[0] != BOX_IP:
            self._wait(sock)
            raise OSError(113)  # EHOSTUNREACH
        sock.conn = Conn(self)
        self.conns.append(sock.conn)

    def read(self, sock, n):
        if sock.closed:
            raise OSError(9)
        c = sock.conn
        if c is None:
            raise OSError(128)  # ENOTCONN
        if len(c.out) >= n:
            data = bytes(c.out[:n])
            c.out = c.out[n:]
            return data
        if c.peer_closed:
            data = bytes(c.out)
            c.out = bytearray()
            return data
        if sock.timeout == 0:
            if not c.out:
                return None
            data = bytes(c.out)
            c.out = bytearray()
            return data
        self._wait(sock)  # nothing more comes: the box's side answers at once or never
        if c.out:  # MicroPython's stream read gives what it has when the timeout ends a read
            data = bytes(c.out)
            c.out = bytearray()
            return data
        raise OSError(110)  # ETIMEDOUT

    def write(self, sock, data):
        if sock.closed:
            raise OSError(9)
        c = sock.conn
        if c is None:
            raise OSError(128)
        if c.peer_closed:
            raise OSError(104)  # ECONNRESET
        if self.wifi_up():
            c.feed(data)

    def closed(self, sock):
        if sock.conn is not None:
            sock.conn.closed = True

    # -- the appliance --
    def live(self):
        return [c for c in self.conns if c.live and not c.closed and not c.peer_closed and not c.stalled]

    def prompt(self, prompt):
        topic = P.prompt_topic(BOX, HID)
        payload = P.encode(prompt)
        self.retained[topic] = payload
        self.current = prompt
        for c in self.live():
            if topic in c.subs:
                c.publish(topic, payload)

    def published(self, conn, topic, payload):
        if topic == P.hello_topic(BOX, HID):
            self.hellos.append(P.decode(payload))
        if topic == P.input_topic(BOX, HID):
            msg = P.parse_input(HID, P.decode(payload))
            self.inputs.append(msg)
            if not self.acking:
                return
            if self.current is None or msg["prompt"] != self.current["id"]:  # as the hub refuses it
                self.ack(P.make_ack(msg["seq"], False, "That question is over", msg["prompt"], "stale"))
                return
            ack = P.make_ack(msg["seq"], True, "", msg["prompt"])  # as the hub acks
            ack["msg"] = self.ack_msg  # as is: a test's box may be out of spec
            self.ack(ack)

    def ack(self, ack):
        for c in self.live():
            if P.ack_topic(BOX, HID) in c.subs:
                c.publish(P.ack_topic(BOX, HID), P.encode(ack))

    def reboot(self):
        """The handset resets (machine.reset() or its watchdog): its sockets are gone, its files stay."""
        for s in self.sockets:
            s.closed = True
        machine.reset_board()

    def drop(self):
        """The broker closes every connection (mosquitto restarting)."""
        for c in self.live():
            c.peer_closed = True

    def open_sockets(self):
        return [s for s in self.sockets if not s.closed]


# -- the handset ---------------------------------------------------------------------------------------------
class Bat:
    def percent(self):
        return 80


def handset(world, layout="keypad", files=False):
    """The app as run() builds it; ``files``: with its seq block and pending input in flash files."""
    cfg = config.parse('{"wifi": {"ssid": "Pub"}, "box": "box1", "handset": "h1", "layout": "' + layout + '"}')
    screen = SSD1306_I2C(machine.I2C(0), clock=world.clock)
    world.i2c = screen.i2c
    pins = cfg["pins"]
    pad = keys.Keypad(pins["rows"], pins["cols"], machine.Pin)
    w = wifi.Wifi("Pub", "", network, world.clock)
    world.wdt = machine.WDT(timeout=WDT_MS)
    if files:
        a = app_module.App(cfg, screen, pad, Bat(), w, world.clock, seq=next_seq_block(SEQ), pending_file=PENDING)
    else:
        a = app_module.App(cfg, screen, pad, Bat(), w, world.clock)
    world.pins = pins
    return a


def drive(world, a, ms, until=None):
    """The firmware's main loop for ``ms`` of the world's time, or until ``until()``; True if it came."""
    end = world.now + ms
    state = {"done": False}

    def running():
        if until is not None and until():
            state["done"] = True
            return False
        return world.now < end

    app_module.forever(a, world.wdt, world.sleep_ms, running, world.clock)
    world.longest_step = max(world.longest_step, world.wdt.longest)
    return state["done"] if until is not None else True


def press(world, a, key):
    for r in range(4):
        for c in range(4):
            if KEYPAD_MAP[r][c] == key:
                pair = (world.pins["rows"][r], world.pins["cols"][c])
    machine.pressed.add(pair)
    drive(world, a, 60)
    machine.pressed.discard(pair)
    drive(world, a, 60)


def type_keys(world, a, keys_):
    for k in keys_:
        press(world, a, k)


def on_glass(world):
    return world.i2c.frame


def drawn(a):
    """What the handset's screen should show now, drawn on a fresh framebuf."""
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    ui.draw(fb, a.handset)
    return bytes(buf)


def showing_current_prompt(world, a):
    h = a.handset
    return h.online and h.prompt is not None and h.prompt["id"] == world.current["id"] and on_glass(world) == drawn(a)


def healthy(world, what):
    """The watchdog never starved, no step outlasted it, no socket is left open but the live one."""
    eq(world.wdt.starved, 0, what + ": watchdog starved")
    check(world.wdt.longest < WDT_MS, what + ": a step took " + str(world.wdt.longest) + " ms")
    check(len(world.open_sockets()) <= 1, what + ": sockets left open " + str(len(world.open_sockets())))


def online_with(world, a, prompt_id, ms=RECOVER_MS):
    world.prompt(samples.by_id(prompt_id))
    return drive(world, a, ms, lambda: showing_current_prompt(world, a))


# -- the faults ---------------------------------------------------------------------------------------------
@test
def broker_closes_before_connack():
    world = World()
    world.close_before_connack = 2  # mosquitto restarting: the socket opens, then closes at once
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "not back with the prompt")
    eq(world.connect_packets, 3, "connect attempts")
    eq(world.connects, 1, "connections")
    healthy(world, "connack")


@test
def suback_refused():
    world = World()
    world.refuse_suback = 1  # an ACL refusing one topic for a moment (0x80)
    world.prompt(samples.by_id("t1"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "not back with the prompt")
    eq(world.connects, 2, "a refused subscription reconnects")
    healthy(world, "suback")


@test
def stall_mid_packet():
    world = World()
    world.prompt(samples.by_id("i1"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    world.stall = True  # the next prompt stops half-way and the box says nothing more
    world.prompt(samples.by_id("r1"))
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "not back after the stall")
    eq(world.connects, 2, "one reconnect")
    healthy(world, "stall")


@test
def wifi_lost_during_connect():
    world = World()
    world.drop_wifi_on_connect = 1
    world.prompt(samples.by_id("t1"))
    a = handset(world)
    seen = []

    def note():
        if a.handset.status and a.handset.status not in seen:
            seen.append(a.handset.status)
        return False

    drive(world, a, 8000, note)
    check(not network.ap_up and not a.handset.online, "the access point is gone")
    check("Wi-Fi lost" in seen or "joining Wi-Fi" in seen, "no Wi-Fi screen: " + repr(seen))
    network.ap_up = True
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "not back after Wi-Fi")
    type_keys(world, a, ["2", "next", "4", "ok"])
    network.ap_up = False  # gone again just before OK: the input waits
    press(world, a, "ok")
    drive(world, a, 3000)
    eq(world.inputs, [], "nothing can arrive while Wi-Fi is down")
    check(a.handset.status == "joining Wi-Fi", "status while down: " + repr(a.handset.status))
    network.ap_up = True
    check(drive(world, a, RECOVER_MS, lambda: a.handset.view == "locked"), "the input is not delivered")
    eq(len(set(i["seq"] for i in world.inputs)), 1, "one seq")
    eq(world.inputs[-1]["data"], {"answer": "B", "token": 4})
    check(on_glass(world) == drawn(a), "the screen shows locked in")
    healthy(world, "wifi")


@test
def broker_silent_after_connect():
    """The broker takes the TCP connection and the CONNECT and never answers (a box half up). On umqtt
    1.8.0, whose connect() without a timeout removed the socket's, the CONNACK wait blocked until the
    watchdog rebooted the handset. Each attempt gives up after the link's connect timeout and retries;
    the answer sent meanwhile is delivered once when the box answers."""
    world = World()
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    type_keys(world, a, ["1", "2", "next", "2", "0"])
    world.silent_connects = 3
    world.drop()
    type_keys(world, a, ["ok", "ok"])
    eq(a.handset.view, "sent", "OK while the box is away")
    check(drive(world, a, 2 * RECOVER_MS, lambda: a.handset.view == "locked"), "not delivered")
    eq(world.connect_packets, 5, "CONNECTs: the first, three unanswered, the one answered")
    eq([i["data"] for i in world.inputs], [{"bottom": "12", "top": "20"}])
    check(showing_current_prompt(world, a) or on_glass(world) == drawn(a), "the screen shows locked in")
    healthy(world, "silent broker")


@test
def stale_mdns_address():
    """mDNS answers an address nobody listens at any more (the box moved to a new lease and an old
    responder still answers): each TCP connect times out (on umqtt 1.8.0 it blocked for ever) and the
    next cycle asks mDNS again; the handset is back once the answer is right."""
    world = World()
    world.mdns_ip = "192.0.2.99"
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    drive(world, a, 15000)
    check(not a.handset.online, "online at an address nobody listens at")
    check(world.lookups >= 2, "the box is looked up again: " + str(world.lookups))
    world.mdns_ip = BOX_IP
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "not back at the right address")
    healthy(world, "stale mDNS")


def locked_in(world):
    """A handset shown the t1 prompt that enters an answer and token and sees it acked: the handset."""
    world.prompt(samples.by_id("t1"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    type_keys(world, a, ["2", "next", "4", "ok"])
    press(world, a, "ok")
    check(drive(world, a, 3000, lambda: a.handset.view == "locked"), "the input is not acked")
    return a


@test
def an_ack_for_another_input_never_reaches_a_hello():
    """An ok ack that is not for the input waiting for it (an audit sent one naming a 970-character
    prompt: every later hello was too big to build and the handset never connected again; one for a seq
    never sent changed what the hello said was acked) leaves the last acked input as it was."""
    world = World()
    a = locked_in(world)
    sent = world.inputs[-1]
    for odd, next_prompt in (({"prompt": "x" * 970}, "r2"), ({"seq": sent["seq"] + 50, "prompt": "p9"}, "i1")):
        ack = {"v": 1, "seq": sent["seq"], "ok": True, "msg": ""}
        ack.update(odd)
        world.ack(ack)  # each a legal payload
        drive(world, a, 500)
        hellos = len(world.hellos)
        world.drop()
        world.prompt(samples.by_id(next_prompt))
        check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "not back after " + repr(odd)[:40])
        check(len(world.hellos) > hellos, "no hello after the reconnect")
        said = world.hellos[-1].get("acked") or {}
        eq({"seq": said.get("seq"), "prompt": said.get("prompt")}, {"seq": sent["seq"], "prompt": sent["prompt"]},
           "the hello's acked")
        if "data" in said:  # revision 1.3: the input itself, until a prompt asks something else
            eq(said["data"], sent["data"], "the hello's acked input")
    healthy(world, "odd acks")


@test
def an_ack_with_a_message_too_long_still_settles_the_input():
    """An ack whose msg is longer than the screen takes (only a box out of spec sends one) was dropped
    whole: the input went again every 3 s, was acked again, dropped again, for ever. It is taken, its
    message cut to fit."""
    world = World()
    world.ack_msg = "locked in: " + "12 to 15 " * 20
    a = locked_in(world)
    drive(world, a, 10000)
    eq(len(world.inputs), 1, "inputs sent")
    check(a.handset.pending is None, "the input is still waiting for its ack")
    eq(a.handset.message, P.screen_message(world.ack_msg), "the message shown")
    healthy(world, "long ack")


@test
def wifi_lost_is_noticed_at_once():
    world = World()
    world.prompt(samples.by_id("i1"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    network.ap_up = False
    start = world.now
    check(drive(world, a, 2000, lambda: not a.handset.online), "the lost Wi-Fi is not noticed")
    check(world.now - start <= 100, "noticed after " + str(world.now - start) + " ms")
    healthy(world, "noticed")


@test
def oled_fails_while_a_message_arrives():
    world = World()
    world.prompt(samples.by_id("i1"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    world.i2c.down = True  # the OLED NACKs (a loose wire) while the next prompt arrives
    world.prompt(samples.by_id("r2"))
    drive(world, a, 5000)
    eq(world.connects, 1, "a display error is not a network loss")
    eq(a.handset.prompt["id"], "r2")
    type_keys(world, a, ["1", "next", "2", "ok"])  # the player types blind: keys still count
    world.i2c.down = False
    check(drive(world, a, 5000, lambda: on_glass(world) == drawn(a)), "the screen does not come back")
    press(world, a, "ok")
    check(drive(world, a, 5000, lambda: a.handset.view == "locked"), "not sent")
    eq([i["data"] for i in world.inputs], [{"bottom": "1", "top": "2"}])
    check(on_glass(world) == drawn(a), "the screen shows locked in")
    healthy(world, "oled")


@test
def exception_inside_a_render():
    world = World()
    world.prompt(samples.by_id("i1"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    real = ui.draw

    def broken(fb, h):
        if h.prompt is not None and h.prompt["id"] == "c1":
            raise KeyError("a bug in a screen")
        real(fb, h)

    ui.draw = broken
    try:
        world.prompt(samples.by_id("c1"))
        drive(world, a, 3000)
        eq(world.connects, 1, "a render bug is not a network loss")
        eq(a.handset.prompt["id"], "c1")
        buf = bytearray(1024)
        fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
        ui.error_screen(fb, a.handset)
        check(on_glass(world) == bytes(buf), "the error screen is not shown")
        check(online_with(world, a, "t1", 5000), "the next prompt is not shown")
    finally:
        ui.draw = real
    healthy(world, "render")


@test
def mdns_not_answering():
    world = World()
    world.mdns = False
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    drive(world, a, 20000)
    check(not a.handset.online, "online without a box")
    eq(a.handset.status, "box not found")
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    ui.draw(fb, a.handset)
    eq(on_glass(world), bytes(buf), "the box-not-found screen")
    tries = world.lookups
    check(3 <= tries <= 15, "lookups back off: " + str(tries))
    world.mdns = True
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "not back when mDNS answers")
    eq(a.handset.status, "")
    healthy(world, "mdns")


@test
def one_lookup_per_connection_cycle():
    world = World()
    world.prompt(samples.by_id("i1"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    eq(world.lookups, 1)
    world.stall = True
    world.prompt(samples.by_id("r2"))
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "back")
    eq(world.lookups, 2, "resolved again for the new connection")


@test
def keys_scanned_while_wifi_rejoins():
    world = World()
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    network.ap_up = False  # the access point reboots while the player types
    start = world.now
    type_keys(world, a, ["1", "2", "next", "2", "0", "ok", "ok"])
    check(world.now - start < 1500, "typing took " + str(world.now - start) + " ms: the loop blocked")
    eq(a.handset.view, "sent", "the keys were scanned")
    check(on_glass(world) == drawn(a), "the screen says it sends when back")
    network.ap_up = True
    check(drive(world, a, RECOVER_MS, lambda: a.handset.view == "locked"), "not delivered")
    eq([i["data"] for i in world.inputs], [{"bottom": "12", "top": "20"}])
    healthy(world, "keys")


@test
def a_box_lookup_never_blocks_the_loop():
    world = World()
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    world.mdns = False  # the box's zeroconf stops answering, then the link drops
    network.ap_up = False
    drive(world, a, 200)
    network.ap_up = True
    world.lookups = 0
    drive(world, a, 30000)
    check(world.wdt.longest <= LOOP_MS + 5, "a step took " + str(world.wdt.longest) + " ms")
    check(world.lookups <= 18, "lookups back off: " + str(world.lookups))
    eq(a.handset.status, "box not found")
    type_keys(world, a, ["1", "2", "next", "2", "0", "ok", "ok"])  # typed while no box answers
    eq(a.handset.view, "sent", "the keys were scanned")
    world.mdns = True
    check(drive(world, a, RECOVER_MS, lambda: a.handset.view == "locked"), "not delivered")
    eq([i["data"] for i in world.inputs], [{"bottom": "12", "top": "20"}])
    eq(len(world.open_sockets()), 1, "the lookups' sockets are closed")


@test
def exception_in_the_main_loop_resets():
    world = World()
    world.prompt(samples.by_id("i1"))
    a = handset(world)
    drive(world, a, 2000)
    feeds = world.wdt.feeds
    check(feeds >= 2000 // (LOOP_MS + 1), "the watchdog is fed every loop: " + str(feeds))

    def broken(now):
        raise ValueError("a bug in the loop")

    a.keys.poll = broken
    before = machine.resets
    try:  # noqa: SIM105 - MicroPython has no contextlib
        app_module.guarded(lambda: drive(world, a, 1000), a.screen, world.sleep_ms)
    except machine.ResetCalled:
        pass
    eq(machine.resets, before + 1, "machine.reset() after a crash")
    check(world.i2c.frame is not None, "no error screen")
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    app_module.message(fb, app_module.crash_lines(ValueError("a bug in the loop")))
    eq(world.i2c.frame, bytes(buf), "the crash screen")


def crash(world, a):
    """An exception escapes the main loop: the crash screen, then machine.reset()."""

    def broken(now):
        raise ValueError("a bug in the loop")

    a.keys.poll = broken
    try:  # noqa: SIM105 - MicroPython has no contextlib
        app_module.guarded(lambda: drive(world, a, 1000), a.screen, world.sleep_ms)
    except machine.ResetCalled:
        pass
    world.reboot()


@test
def an_unacked_answer_outlives_a_crash_and_a_watchdog_reboot():
    """OK pressed while the box does not answer, then the handset resets twice (an exception in the main
    loop, then its watchdog): the answer lived only in RAM and was lost. It is kept in a flash file
    written before it is sent, sent again with its seq after each boot, delivered once, the file gone."""
    world = World()
    world.prompt(samples.by_id("r2"))
    a = handset(world, files=True)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    type_keys(world, a, ["1", "2", "next", "2", "0"])
    world.silent_connects = 1000  # the box takes connections and never answers
    world.drop()
    type_keys(world, a, ["ok", "ok"])
    eq(a.handset.view, "sent", "OK while the box is away")
    sent_seq = a.handset.pending["seq"]
    crash(world, a)
    a = handset(world, files=True)  # boots again on the same flash
    eq(a.handset.view, "sent", "after the reset the answer is on its way")
    check(on_glass(world) == drawn(a), "the screen says it is sending")
    drive(world, a, 10000)
    world.reboot()  # the watchdog: the loop just stops and the board starts again
    a = handset(world, files=True)
    world.silent_connects = 0
    check(drive(world, a, 2 * RECOVER_MS, lambda: a.handset.view == "locked"), "not delivered after the reboots")
    eq([(i["seq"], i["data"]) for i in world.inputs], [(sent_seq, {"bottom": "12", "top": "20"})])
    check(on_glass(world) == drawn(a), "the screen shows locked in")
    kept = a.handset.keep.load()
    check(kept is not None and kept["input"] is None, "the unacked input is cleared from the file once acked")
    eq(kept["acked"]["data"], {"bottom": "12", "top": "20"}, "the acked input kept until the next prompt")
    type_keys(world, a, ["ok"])
    check(a.handset.seq != sent_seq, "a new boot takes a new seq block")
    healthy(world, "reboots")


@test
def box_restart_mid_question_offers_the_answer_again():
    """The box restarts mid-question and the player presses OK while it is down: the question came back
    under a new id and the answer was refused stale with no word and an empty form. Now the same question
    asked again shows the answer's review page ("Not sent: again?"): one OK sends it for the new prompt."""
    world = World()
    first = samples.by_id("r2")
    first["id"] = "b0b0b1-p3"
    world.prompt(first)
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    type_keys(world, a, ["1", "2", "next", "2", "0"])
    world.silent_connects = 1000  # the appliance restarting
    world.drop()
    type_keys(world, a, ["ok", "ok"])
    eq(a.handset.view, "sent", "OK while the box is away")
    drive(world, a, 3000)
    again = dict(first, id="c0c0c2-p1")  # the resumed game: the same question, a new boot tag
    world.prompt(again)
    world.silent_connects = 0
    form = lambda: a.handset.editor  # noqa: E731
    offered = drive(world, a, RECOVER_MS, lambda: a.handset.view == "edit" and form().review)
    check(offered, "the answer is not offered again: view " + a.handset.view)
    eq([i["prompt"] for i in world.inputs], ["b0b0b1-p3"], "the old input went, refused stale")
    eq(form().data, {"bottom": "12", "top": "20"}, "the values offered")
    eq(form().notice, core.SEND_AGAIN)
    check(on_glass(world) == drawn(a), "the review page is on the glass")
    press(world, a, "ok")
    check(drive(world, a, 5000, lambda: a.handset.view == "locked"), "not locked in after OK")
    eq([(i["prompt"], i["data"]) for i in world.inputs][-1], ("c0c0c2-p1", {"bottom": "12", "top": "20"}))
    healthy(world, "box restart")


@test
def a_box_that_never_acks():
    """The box takes the input and never acks it: it went every 3 s for ever and the next question could
    not be answered ("still sending"). A new question's answer goes at once (the old input is moot), and
    an input with no ack after GIVE_UP_SENDS sends is given up: said on the screen, the values kept."""
    world = World()
    world.acking = False
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    type_keys(world, a, ["1", "2", "next", "2", "0", "ok", "ok"])
    drive(world, a, 7000)
    check(len(world.inputs) >= 2, "re-sent while unacked")
    world.acking = True
    check(online_with(world, a, "t1", 5000), "the next question is not shown")
    type_keys(world, a, ["2", "next", "4", "ok", "ok"])
    check(drive(world, a, 3000, lambda: a.handset.view == "locked"), "the next question cannot be answered")
    eq(world.inputs[-1]["prompt"], "t1")
    world.acking = False
    world.inputs = []
    check(online_with(world, a, "r1", 5000), "the third question")
    type_keys(world, a, ["3", "next", "4", "ok", "ok"])
    bound = (core.GIVE_UP_SENDS + 1) * core.RESEND_MS
    check(drive(world, a, bound, lambda: a.handset.view == "refused"), "never given up")
    eq(len(world.inputs), core.GIVE_UP_SENDS, "sends before giving up")
    eq(a.handset.message, core.NO_ACK)
    check(on_glass(world) == drawn(a), "the screen says the box did not answer")
    drive(world, a, 10000)
    eq(len(world.inputs), core.GIVE_UP_SENDS, "nothing sent after giving up")
    world.acking = True
    type_keys(world, a, ["next", "ok", "ok"])  # any key dismisses; the values are still there
    check(drive(world, a, 3000, lambda: a.handset.view == "locked"), "sent again by the player")
    eq(world.inputs[-1]["data"], {"bottom": "3", "top": "4"})
    healthy(world, "never acks")


@test
def an_oled_that_resets_but_keeps_acking_is_lit_again():
    """The OLED's controller resets (a dip on its supply) and goes on ACKing: dark, its RAM lost. The
    driver re-initialised only after an I2C error, so it stayed dark for ever; it is lit again, showing
    the current screen, within 6 s."""
    world = World()
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    check(drive(world, a, RECOVER_MS, lambda: showing_current_prompt(world, a)), "first prompt")
    check(world.i2c.on, "the display is lit")
    world.i2c.controller_reset()
    lit = lambda: world.i2c.on and on_glass(world) == drawn(a)  # noqa: E731
    check(drive(world, a, 6000, lit), "the display stays dark")
    eq(world.connects, 1, "a display reset is not a network loss")
    healthy(world, "oled reset")


@test
def a_slow_wifi_join_succeeds():
    """An access point (or its DHCP server) that takes 20 s to let a station in: the join was restarted
    every 15 s and never finished. A join the driver still reports as joining is left to finish."""
    world = World()
    network.join_ms = 20000
    world.prompt(samples.by_id("r2"))
    a = handset(world)
    check(drive(world, a, 2 * RECOVER_MS, lambda: showing_current_prompt(world, a)), "never joined Wi-Fi")
    eq(a.wifi.wlan.connects, 1, "joins started")
    healthy(world, "slow join")


CONFIG = "/config.json"


def boot(world, held=None):
    """app.run() as main.py calls it, on the stubs, with ``held`` (a key) down at power-on. Its main loop
    is replaced by a note that it started (or by Ctrl-C, world.ctrl_c). Returns whether the app started."""
    with open(CONFIG, "w") as f:
        f.write('{"wifi": {"ssid": "Pub"}, "box": "box1", "handset": "h1"}')
    machine.reset_board()
    machine.WDT.last = None
    if held is not None:
        pins = config.DEFAULTS["pins"]
        for r in range(4):
            for c in range(4):
                if KEYPAD_MAP[r][c] == held:
                    machine.pressed.add((pins["rows"][r], pins["cols"][c]))
    started = []
    real = app_module.forever

    def loop(app, wdt, sleep_ms, running=None, clock=None):
        started.append(wdt)
        if world.ctrl_c:
            raise KeyboardInterrupt

    app_module.forever = loop
    try:
        app_module.run(CONFIG)
    finally:
        app_module.forever = real
    return bool(started)


def screen_of(lines):
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    app_module.message(fb, lines)
    return bytes(buf)


@test
def a_key_held_at_power_on_skips_the_app():
    """A boot escape: OK (D) held at power-on leaves the board at the REPL with no app and no watchdog
    (there was none: a broken app could only be reached by erasing the flash)."""
    world = World()
    world.ctrl_c = False
    check(not boot(world, held="ok"), "the app started with a key held")
    check(machine.WDT.last is None, "a watchdog was started")
    eq(machine.I2C.last.frame, screen_of(app_module.REPL_LINES), "the screen says the app was skipped")
    check(boot(world), "the app does not start without the key")
    check(machine.WDT.last is not None, "the app runs watched")


@test
def ctrl_c_reboots_into_the_repl_without_the_watchdog():
    """Ctrl-C at the REPL stopped the loop, but the watchdog went on and reset the board 20 s later, in
    the middle of an mpremote update. Ctrl-C now resets the board into one boot without app or watchdog;
    the boot after that plays again."""
    world = World()
    world.ctrl_c = True
    before = machine.resets
    try:  # noqa: SIM105 - MicroPython has no contextlib
        boot(world)
    except machine.ResetCalled:
        pass
    eq(machine.resets, before + 1, "reset after Ctrl-C")
    eq(machine.I2C.last.frame, screen_of(app_module.STOPPED_LINES), "the screen says why")
    world.ctrl_c = False
    check(not boot(world), "the app started after Ctrl-C")
    check(machine.WDT.last is None, "a watchdog was started after Ctrl-C")
    eq(machine.I2C.last.frame, screen_of(app_module.REPL_LINES))
    check(boot(world), "the next boot does not play")


def use_umqtt(version):
    """Run the link on umqtt.simple ``version``: "1.3.4" (the vendored PyPI copy) or "1.8.0" (umqtt180.py,
    as the official ESP32 images freeze it)."""
    import sys

    import umqtt
    from umqtt import simple

    client = simple
    if version == "1.8.0":
        import umqtt180

        client = umqtt180
    elif version != "1.3.4":
        raise ValueError("no umqtt.simple " + version)
    umqtt.simple = client
    sys.modules["umqtt.simple"] = client


def main(umqtt="1.3.4"):
    use_umqtt(umqtt)
    print("umqtt.simple " + umqtt)
    failed = 0
    for fn in _tests:
        try:
            fn()
            print("PASS " + fn.__name__)
        except BaseException as err:  # report every failure, Hang included
            failed += 1
            print("FAIL " + fn.__name__ + ": " + type(err).__name__ + " " + str(err))
            import sys

            sys.print_exception(err)
    print(str(len(_tests) - failed) + " passed, " + str(failed) + " failed")
    return failed
