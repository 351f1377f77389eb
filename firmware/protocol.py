# Quizbox handset protocol v1: every topic, payload name and limit, defined once.
#
# MicroPython-compatible on purpose (no typing, dataclasses or f-string tricks): an ESP32 handset carries
# this file, and the appliance and the web import it from here. docs/protocol.md describes it with an
# example of every message.

import json

VERSION = 1
ROOT = "quizbox"

# -- limits ----------------------------------------------------------------------------------------
MAX_PAYLOAD = 1024  # bytes of any handset-facing JSON payload (ESP32 RAM)
MAX_ID = 32  # handset ids, box ids, prompt ids
MAX_NAME = 24  # player and handset names
MAX_NUMBER = 40  # a number typed on a handset, as text
MAX_TEXT = 200  # a prompt's question text on a handset (longer text is cut for the OLED)
MAX_MESSAGE = 48  # an ack's refusal message: three lines of a 128x64 screen
MAX_SEQ = 2**31 - 1
MAX_CLOCK = 2**53  # a millisecond clock reading (appliance or handset) is below this: exact in any JSON reader

# -- availability ------------------------------------------------------------------------------------
ONLINE = "online"
OFFLINE = "offline"

# -- prompt kinds (appliance -> handset) ---------------------------------------------------------------
INFO = "info"  # a message or a wait screen; no input
RANGE = "range"  # a numeric range [bottom, top], optionally with Confident? boosts
BET = "bet"  # estimation poker: the legal actions with their min/max amounts
CHOICE = "choice"  # one or more closed choices: A/B/C, True/False, a statement, a player
SPLIT = "split"  # all chips split between sides (All In: true/false)
TOKEN = "token"  # sQuizz: an answer A/B/C and one unused bet token
BUZZ = "buzz"  # buzzer round: press to buzz
PROMPT_KINDS = (INFO, RANGE, BET, CHOICE, SPLIT, TOKEN, BUZZ)
INPUT_KINDS = (RANGE, BET, CHOICE, SPLIT, TOKEN, BUZZ)

BET_ACTIONS = ("check", "call", "fold", "allin", "bet", "raise")
BET_AMOUNT_ACTIONS = ("bet", "raise")
BOOSTS = ("copy", "swap", "double")

# -- handset layouts -------------------------------------------------------------------------------------
LAYOUT_KEYPAD = "keypad"  # 4x4 matrix keypad
LAYOUT_FIVE = "five"  # up/down/left/right/OK
LAYOUT_TOUCH = "touch"  # a phone
LAYOUTS = (LAYOUT_KEYPAD, LAYOUT_FIVE, LAYOUT_TOUCH)


class ProtocolError(ValueError):
    """A payload or topic that breaks protocol v1; the message is short enough for an ack."""


# -- topics ----------------------------------------------------------------------------------------------


ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"


def _check_id(value, what):
    """Ids go into topics: ASCII letters, digits, '-' and '_' only (no '/', '+', '#')."""
    if not isinstance(value, str) or not value or len(value) > MAX_ID:
        raise ProtocolError("bad " + what)
    for ch in value:
        if ch not in ID_CHARS:
            raise ProtocolError("bad " + what)
    return value


def box_topic(box, *parts):
    return "/".join((ROOT, _check_id(box, "box id")) + parts)


def handset_topic(box, handset, leaf):
    return box_topic(box, "handset", _check_id(handset, "handset id"), leaf)


# per handset (handset -> appliance)
def status_topic(box, handset):
    """Retained ``online`` on connect, ``offline`` as the last will."""
    return handset_topic(box, handset, "status")


def hello_topic(box, handset):
    return handset_topic(box, handset, "hello")


def telemetry_topic(box, handset):
    return handset_topic(box, handset, "telemetry")


def input_topic(box, handset):
    return handset_topic(box, handset, "input")


def clock_topic(box, handset):
    """The handset's answer to a clock ping from the time topic (buzzer fairness)."""
    return handset_topic(box, handset, "clock")


# per handset (appliance -> handset)
def prompt_topic(box, handset):
    """Never retained: prompts carry private things."""
    return handset_topic(box, handset, "prompt")


def ack_topic(box, handset):
    return handset_topic(box, handset, "ack")


def time_topic(box, handset):
    """Clock pings (appliance -> handset) for the buzzer's fair ordering; answered on the clock topic."""
    return handset_topic(box, handset, "time")


# the appliance
def appliance_status_topic(box):
    return box_topic(box, "appliance", "status")


def board_topic(box):
    """The public board state, retained; it never holds a secret."""
    return box_topic(box, "board")


def admin_command_topic(box):
    return box_topic(box, "admin", "command")


def admin_state_topic(box):
    return box_topic(box, "admin", "state")


# wildcard subscriptions of the appliance
def handset_wildcard(box, leaf):
    return box_topic(box, "handset", "+", leaf)


def parse_handset_topic(box, topic):
    """``(handset_id, leaf)`` for a per-handset topic of ``box``; ProtocolError otherwise."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[1] != box or parts[2] != "handset":
        raise ProtocolError("not a handset topic")
    _check_id(parts[3], "handset id")
    return parts[3], parts[4]


# -- encoding ----------------------------------------------------------------------------------------------


def encode(payload):
    """Compact JSON bytes; ProtocolError if over :data:`MAX_PAYLOAD`."""
    data = json.dumps(payload, separators=(",", ":")).encode()
    if len(data) > MAX_PAYLOAD:
        raise ProtocolError("payload too big")
    return data


def decode(raw):
    """A dict from raw JSON bytes (or str); ProtocolError for oversize, non-UTF-8 or non-object JSON."""
    if isinstance(raw, str):
        raw = raw.encode()
    if len(raw) > MAX_PAYLOAD:
        raise ProtocolError("payload too big")
    try:
        obj = json.loads(raw.decode())
    except (ValueError, UnicodeError):
        raise ProtocolError("not JSON") from None
    if not isinstance(obj, dict):
        raise ProtocolError("not a JSON object")
    return obj


# -- small validators ---------------------------------------------------------------------------------------


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


_KINDS = {
    "int": (_is_int, "an int"),
    "bool": (lambda v: isinstance(v, bool), "true/false"),
    "str": (lambda v: isinstance(v, str), "text"),
    "dict": (lambda v: isinstance(v, dict), "an object"),
    "list": (lambda v: isinstance(v, list), "a list"),
}


def _get(obj, key, kind, what=None, required=True):
    what = what or key
    if key not in obj:
        if required:
            raise ProtocolError("missing " + what)
        return None
    value = obj[key]
    check, noun = _KINDS[kind]
    if not check(value):
        raise ProtocolError(what + " not " + noun)
    return value


def _text(obj, key, limit, what=None, required=True):
    value = _get(obj, key, "str", what, required)
    if value is not None and (len(value) > limit or (required and not value.strip())):
        raise ProtocolError((what or key) + " too long" if len(value) > limit else "empty " + (what or key))
    return value


def _number_text(obj, key, what=None):
    value = _text(obj, key, MAX_NUMBER, what)
    return value.strip()


def _clock(obj, key):
    value = _get(obj, key, "int", key)
    if value < 0 or value >= MAX_CLOCK:
        raise ProtocolError(key + " out of range")
    return value


def _count(value, what):
    if not _is_int(value) or value < 0 or value > MAX_SEQ:
        raise ProtocolError(what + " must be a whole number >= 0")
    return value


# -- handset -> appliance payloads --------------------------------------------------------------------------


def make_hello(handset, name=None, firmware="", layout=LAYOUT_KEYPAD, clock=None):
    msg = {"v": VERSION, "id": handset, "fw": firmware, "layout": layout}
    if name:
        msg["name"] = name
    if clock is not None:
        msg["clock"] = clock
    return msg


def parse_hello(handset, obj):
    """Validate a hello from the handset whose topic id is ``handset``; returns the cleaned dict."""
    _check_version(obj)
    _claimed_id(handset, obj)
    name = _text(obj, "name", MAX_NAME, "name", required=False)
    layout = _get(obj, "layout", "str", required=False) or LAYOUT_KEYPAD
    if layout not in LAYOUTS:
        raise ProtocolError("unknown layout")
    fw = _text(obj, "fw", MAX_ID, "firmware", required=False) or ""
    clock = _get(obj, "clock", "int", required=False)
    return {"id": handset, "name": name, "layout": layout, "fw": fw, "clock": clock}


def make_telemetry(battery=None, rssi=None, firmware="", layout=LAYOUT_KEYPAD):
    return {"v": VERSION, "battery": battery, "rssi": rssi, "fw": firmware, "layout": layout}


def parse_telemetry(obj):
    _check_version(obj)
    battery = obj.get("battery")
    if battery is not None and (not _is_int(battery) or not 0 <= battery <= 100):
        raise ProtocolError("battery must be 0-100")
    rssi = obj.get("rssi")
    if rssi is not None and (not _is_int(rssi) or not -130 <= rssi <= 0):
        raise ProtocolError("rssi must be -130..0")
    fw = _text(obj, "fw", MAX_ID, "firmware", required=False) or ""
    layout = _get(obj, "layout", "str", required=False) or LAYOUT_KEYPAD
    if layout not in LAYOUTS:
        raise ProtocolError("unknown layout")
    return {"battery": battery, "rssi": rssi, "fw": fw, "layout": layout}


def make_input(seq, prompt_id, kind, data, handset=None, clock=None):
    msg = {"v": VERSION, "seq": seq, "prompt": prompt_id, "kind": kind, "data": data}
    if handset is not None:
        msg["id"] = handset
    if clock is not None:
        msg["clock"] = clock
    return msg


def parse_input(handset, obj):
    """Validate an input's envelope and its data's shape for its kind.

    Returns ``{"seq", "prompt", "kind", "data", "clock"}`` with ``data`` cleaned. Whether the values
    are legal now (your turn, an unused token) is the appliance's question, not the protocol's.
    """
    _check_version(obj)
    _claimed_id(handset, obj)
    seq = _count(_get(obj, "seq", "int", "seq"), "seq")
    prompt_id = _get(obj, "prompt", "str", "prompt id")
    if not prompt_id or len(prompt_id) > MAX_ID:
        raise ProtocolError("bad prompt id")
    kind = _get(obj, "kind", "str", "kind")
    if kind not in INPUT_KINDS:
        raise ProtocolError("unknown input kind")
    data = _get(obj, "data", "dict", "data")
    clock = _get(obj, "clock", "int", required=False)
    return {"seq": seq, "prompt": prompt_id, "kind": kind, "data": _INPUT_PARSERS[kind](data), "clock": clock}


def _range_data(data):
    out = {}
    if "copy" in data:
        if "bottom" in data or "top" in data:
            raise ProtocolError("copy or range, not both")
        out["copy"] = _text(data, "copy", MAX_NAME, "copy")
    else:
        out["bottom"] = _number_text(data, "bottom")
        out["top"] = _number_text(data, "top")
    if "swap" in data:
        swap = _get(data, "swap", "list", "swap")
        if len(swap) != 2 or not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in swap):
            raise ProtocolError("swap needs 2 names")
        out["swap"] = [swap[0], swap[1]]
    if "double" in data:
        out["double"] = _get(data, "double", "bool", "double")
    return out


def _bet_data(data):
    action = _get(data, "action", "str", "action")
    if action not in BET_ACTIONS:
        raise ProtocolError("unknown bet action")
    out = {"action": action}
    if action in BET_AMOUNT_ACTIONS:
        out["to"] = _count(_get(data, "to", "int", "amount"), "amount")
    elif "to" in data:
        raise ProtocolError(action + " takes no amount")
    return out


def _choice_data(data):
    choices = _get(data, "choices", "dict", "choices")
    if not choices or len(choices) > 8:
        raise ProtocolError("bad choices")
    out = {}
    for key in choices:
        value = choices[key]
        if not isinstance(key, str) or len(key) > MAX_ID:
            raise ProtocolError("bad choice name")
        if not isinstance(value, str) or len(value) > MAX_NAME:
            raise ProtocolError("bad choice " + key[:16])
        out[key] = value
    return {"choices": out}


def _split_data(data):
    split = _get(data, "split", "dict", "split")
    if not split or len(split) > 4:
        raise ProtocolError("bad split")
    out = {}
    for side in split:
        if not isinstance(side, str) or len(side) > MAX_ID:
            raise ProtocolError("bad split side")
        out[side] = _count(split[side], "chips")
    return {"split": out}


def _token_data(data):
    answer = _get(data, "answer", "str", "answer")
    if answer not in ("A", "B", "C"):
        raise ProtocolError("answer must be A/B/C")
    token = _count(_get(data, "token", "int", "token"), "token")
    return {"answer": answer, "token": token}


def _buzz_data(data):
    pressed = _get(data, "pressed", "int", "press time", required=False)
    return {"pressed": pressed}


_INPUT_PARSERS = {
    RANGE: _range_data,
    BET: _bet_data,
    CHOICE: _choice_data,
    SPLIT: _split_data,
    TOKEN: _token_data,
    BUZZ: _buzz_data,
}


def _check_version(obj):
    v = obj.get("v", VERSION)
    if v != VERSION:
        raise ProtocolError("protocol version " + str(v)[:8] + " unsupported")


def _claimed_id(handset, obj):
    if "id" in obj and obj["id"] != handset:
        raise ProtocolError("id does not match topic")


# -- clock offsets (the buzzer orders presses by when they happened) ---------------------------------------------
#
# The appliance pings a handset on its time topic with its own clock t0 (ms); the handset answers at
# once on its clock topic, echoing ping and t0, with its own clock th (ms) when it answered. The
# appliance notes when the answer arrives (t3) and estimates the handset's clock offset from many
# such (t0, th, t3) samples (appliance/edge/clocksync.py).


def make_ping(ping, t0):
    """Appliance -> handset (time topic): ping number ``ping`` sent at appliance clock ``t0`` (ms)."""
    return {"v": VERSION, "ping": ping, "t0": t0}


def parse_ping(obj):
    _check_version(obj)
    ping = _count(_get(obj, "ping", "int", "ping"), "ping")
    return {"ping": ping, "t0": _clock(obj, "t0")}


def make_clock(ping, t0, th):
    """Handset -> appliance (clock topic): the ping's number and ``t0`` echoed, ``th`` the handset's clock."""
    return {"v": VERSION, "ping": ping, "t0": t0, "th": th}


def parse_clock(handset, obj):
    """Validate a handset's answer to a ping; returns ``{"ping", "t0", "th"}``."""
    _check_version(obj)
    _claimed_id(handset, obj)
    ping = _count(_get(obj, "ping", "int", "ping"), "ping")
    return {"ping": ping, "t0": _clock(obj, "t0"), "th": _clock(obj, "th")}


def answer_ping(obj, clock_ms):
    """The handset's whole part of the exchange: the clock payload answering a time-topic message
    ``obj`` at handset clock ``clock_ms``, or None if ``obj`` is not a ping. ProtocolError if malformed."""
    if "ping" not in obj:
        return None
    ping = parse_ping(obj)
    return make_clock(ping["ping"], ping["t0"], clock_ms)


# -- appliance -> handset payloads ----------------------------------------------------------------------------


def make_ack(seq, ok, message="", prompt_id=None):
    """``ok`` True: accepted (``message`` may say what was locked in); False: refused, ``message`` why."""
    msg = {"v": VERSION, "seq": seq, "ok": bool(ok), "msg": message[:MAX_MESSAGE]}
    if prompt_id is not None:
        msg["prompt"] = prompt_id
    return msg


def parse_ack(obj):
    _check_version(obj)
    seq = _get(obj, "seq", "int", "seq")
    ok = _get(obj, "ok", "bool", "ok")
    message = _text(obj, "msg", MAX_MESSAGE, "msg", required=False) or ""
    return {"seq": seq, "ok": ok, "msg": message, "prompt": obj.get("prompt")}


def make_prompt(prompt_id, kind, title="", text="", **fields):
    """A prompt. ``fields`` by kind:

    * info: ``lines`` (list of str), ``wait`` (bool, a waiting-for-others screen)
    * range: ``unit``; ``boosts``: ``{"copy": [names], "swap": [names], "double": bool}`` or absent
    * bet: ``actions``: ``[{"action", "min"?, "max"?}]``, ``stack``, ``to_call``, ``pot``
    * choice: ``fields``: ``[{"name", "label", "options": [{"id", "label"}], "required": bool}]``
    * split: ``total``, ``sides``: ``[{"id", "label"}]``
    * token: ``answers``: ``["A", "B", "C"]``, ``tokens``: list of unused token numbers
    * buzz: ``armed`` (bool)

    Every prompt may also carry ``private``: the player's own info (your range, tokens, chips).
    """
    if kind not in PROMPT_KINDS:
        raise ProtocolError("unknown prompt kind")
    msg = {"v": VERSION, "id": prompt_id, "kind": kind, "title": title, "text": text}
    msg.update(fields)
    return msg


def parse_prompt(obj):
    """What a handset checks of a prompt before showing it."""
    _check_version(obj)
    prompt_id = _get(obj, "id", "str", "prompt id")
    kind = _get(obj, "kind", "str", "kind")
    if kind not in PROMPT_KINDS:
        raise ProtocolError("unknown prompt kind")
    if not prompt_id or len(prompt_id) > MAX_ID:
        raise ProtocolError("bad prompt id")
    return obj
