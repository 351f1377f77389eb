# Quizbox handset protocol v1 (revision 1.5): every topic, payload, admin command, refusal code and limit,
# defined once.
#
# MicroPython-compatible on purpose (no typing, dataclasses or f-string tricks): an ESP32 handset carries
# this file, and the appliance and the web import it from here. docs/protocol.md describes it with an
# example of every message (tests/test_protocol_doc.py keeps the two in step).

import json

VERSION = 1
ROOT = "quizbox"

# -- limits ----------------------------------------------------------------------------------------
MAX_PAYLOAD = 1024  # bytes of any handset-facing JSON payload (ESP32 RAM)
MAX_ID = 32  # handset ids, box ids, prompt ids
MAX_NAME = 24  # player and handset names
MAX_NUMBER = 40  # a number typed on a handset, as text
MAX_TEXT = 200  # a prompt's question text on a handset (longer text is cut for the OLED)
MAX_MESSAGE = 48  # an ack's message, at most: it must also wrap into MESSAGE_LINES of MESSAGE_COLS
MESSAGE_COLS = 21  # a 128x64 OLED with a 6x8 font
MESSAGE_LINES = 3  # the lines under the title
MAX_CODE = 16  # a refusal code
MAX_CHOICES = 8  # choice fields in one choice input
MAX_SIDES = 4  # sides of a split input
SWAP_NAMES = 2  # a swap boost names exactly two players
MAX_COMMAND = 65536  # bytes of an admin command (a start may carry its cards)
MAX_COMMAND_ID = 32  # an admin command's id
MAX_SEQ = 2**31 - 1
MAX_CLOCK = 2**53  # a millisecond clock reading (appliance or handset) is below this: exact in any JSON reader

# -- the MQTT session -------------------------------------------------------------------------------
KEEPALIVE = 30  # s: the MQTT keepalive of handsets and of the appliance's own clients (5-300 allowed)
TELEMETRY_EVERY = 60  # s: a handset publishes telemetry at least this often
SILENT_AFTER = 90  # s, 3 keepalives (or 3 of its own if longer): a handset not heard from that long is offline
BACKOFF_MIN = 1  # s: reconnect backoff, doubling up to BACKOFF_MAX
BACKOFF_MAX = 30
ACK_TIMEOUT = 3  # s: an unacknowledged input is sent again (same seq) after this long
RECENT_ACKS = 16  # accepted inputs per handset whose ack is remembered for re-sent duplicates

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
NUMBER = "number"  # one exact number (a quiz night's tie-break)
PROMPT_KINDS = (INFO, RANGE, BET, CHOICE, SPLIT, TOKEN, BUZZ, NUMBER)
INPUT_KINDS = (RANGE, BET, CHOICE, SPLIT, TOKEN, BUZZ, NUMBER)

BET_ACTIONS = ("check", "call", "fold", "allin", "bet", "raise")
BET_AMOUNT_ACTIONS = ("bet", "raise")
BOOSTS = ("copy", "swap", "double")

# -- handset layouts -------------------------------------------------------------------------------------
LAYOUT_KEYPAD = "keypad"  # 4x4 matrix keypad
LAYOUT_FIVE = "five"  # up/down/left/right/OK
LAYOUT_TOUCH = "touch"  # a phone
LAYOUTS = (LAYOUT_KEYPAD, LAYOUT_FIVE, LAYOUT_TOUCH)

# -- refusal codes: a refused input, hello or admin command says why with one of these -------------------
# (stable tokens: a handset may show its own text for a code; ``msg`` stays the readable reason)
REFUSALS = {
    "bad_payload": "not JSON, not an object, not UTF-8 or over the size limit",
    "bad_input": "a field is missing, of the wrong type or too long, or the kind is unknown",
    "version": "a protocol version other than 1",
    "wrong_id": "the id in the payload is not the topic's",
    "not_paired": "the handset has no broker account: pair it first",
    "unknown_handset": "the appliance has no hello from this handset: send hello again",
    "not_accepted": "the quizmaster has not accepted this handset yet",
    "stale": "the input answers a prompt that is no longer shown",
    "not_seated": "this handset has no seat in the running game",
    "paused": "the game is paused",
    "not_your_turn": "another player acts now",
    "wrong_phase": "the game is in a phase that does not take this",
    "already_in": "this player's answer is in already",
    "bad_value": "the values read, but are not valid (a number that does not parse, an unknown name)",
    "not_allowed": "the rules refuse it now (a used boost, a split that does not add up)",
    "no_game": "no game is running",
    "not_saved": "the box could not save it (a full or read-only disk); nothing changed",
    "unknown_command": "an admin command the appliance does not know",
    "bad_command": "an admin command with a missing or wrong argument",
    "refused": "any other refusal; msg says why",
}


class ProtocolError(ValueError):
    """A payload or topic that breaks protocol v1; the message is short enough for an ack, ``code`` one
    of :data:`REFUSALS`."""

    def __init__(self, message="", code="bad_input"):
        super().__init__(message)
        self.code = code


# -- topics ----------------------------------------------------------------------------------------------


ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"


def _check_id(value, what):
    """Ids go into topics: ASCII letters, digits, '-' and '_' only (no '/', '+', '#')."""
    # strip() stops at the first character outside ID_CHARS from either end: anything left is one
    if not isinstance(value, str) or not value or len(value) > MAX_ID or value.strip(ID_CHARS):
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


def appliance_heartbeat_topic(box):
    """The appliance's heartbeat, retained: ``{"v", "at", "every", "boot"}`` every HEARTBEAT_MS."""
    return box_topic(box, "appliance", "heartbeat")


def board_topic(box):
    """The public board state, retained; it never holds a secret."""
    return box_topic(box, "board")


def admin_command_topic(box):
    return box_topic(box, "admin", "command")


def admin_state_topic(box):
    return box_topic(box, "admin", "state")


def pairing_topic(box, handset):
    """A handset without a broker account asks to be paired here (the public pairing account)."""
    return box_topic(box, "pairing", _check_id(handset, "handset id"))


def pairing_wildcard(box):
    return box_topic(box, "pairing", "+")


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


try:  # CPython: one encoder, not one built per call (json.dumps does that for non-default separators)
    _dumps = json.JSONEncoder(separators=(",", ":")).encode
except AttributeError:  # MicroPython's json has no JSONEncoder

    def _dumps(payload):
        return json.dumps(payload, separators=(",", ":"))


def encode(payload):
    """Compact JSON bytes; ProtocolError if over :data:`MAX_PAYLOAD`."""
    data = _dumps(payload).encode()
    if len(data) > MAX_PAYLOAD:
        raise ProtocolError("payload too big")
    return data


def decode(raw, limit=MAX_PAYLOAD):
    """A dict from raw JSON bytes (or str) of at most ``limit`` bytes; ProtocolError for oversize, non-UTF-8
    or non-object JSON."""
    if isinstance(raw, str):
        raw = raw.encode()
    if len(raw) > limit:
        raise ProtocolError("payload too big", "bad_payload")
    try:
        obj = json.loads(raw.decode())
    except (ValueError, UnicodeError):
        raise ProtocolError("not JSON", "bad_payload") from None
    if not isinstance(obj, dict):
        raise ProtocolError("not a JSON object", "bad_payload")
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


def make_hello(handset, name=None, firmware="", layout=LAYOUT_KEYPAD, clock=None, keepalive=None, acked=None,
               results=False):
    """``acked`` (optional): ``(seq, prompt id)`` of the last input the appliance acked ok, so a box
    that lost it in a power cut can say so; or (revision 1.3) a dict with ``seq``, ``prompt`` and the
    input itself, ``kind``, ``data`` and ``mark`` (:func:`prompt_mark` of the prompt it answered), so a
    box that lost it can apply it again. ``results`` (revision 1.4): it takes result acks (its seat's number,
    result and place, :func:`make_result`)."""
    msg = {"v": VERSION, "id": handset, "fw": firmware, "layout": layout}
    if results:
        msg["results"] = True
    if name:
        msg["name"] = name
    if clock is not None:
        msg["clock"] = clock
    if keepalive is not None:
        msg["keepalive"] = keepalive
    if isinstance(acked, dict):
        msg["acked"] = dict(acked)
    elif acked is not None:
        msg["acked"] = {"seq": acked[0], "prompt": acked[1]}
    return msg


def prompt_mark(prompt):
    """What a prompt asks (kind, title, text) in 12 hex digits: a handset keeps it with its last acked
    input, and a box that restored from its good copy applies that input again only to a prompt that
    asks the same (revision 1.3). Two 24-bit multiplicative hashes of the UTF-8 bytes: every step stays a
    small int on MicroPython (a 32-bit FNV made a bigint per byte: 16 KB of garbage per 200-character
    question on the ESP32)."""
    text = "\n".join([str(prompt.get("kind", "")), str(prompt.get("title", "")), str(prompt.get("text", ""))])
    a, b = 5381, 7919
    for byte in text.encode("utf-8"):
        a = (a * 33 + byte) & 0xFFFFFF
        b = (b * 37 + byte) & 0xFFFFFF  # below 2**30: a MicroPython small int
    return ("00000" + hex(a)[2:])[-6:] + ("00000" + hex(b)[2:])[-6:]


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
    out = {"id": handset, "name": name, "layout": layout, "fw": fw, "clock": clock,
           "results": _get(obj, "results", "bool", required=False) is True}  # revision 1.4
    keepalive = _get(obj, "keepalive", "int", required=False)
    if keepalive is not None:  # optional (protocol 1.1); KEEPALIVE when absent
        if not 5 <= keepalive <= 300:
            raise ProtocolError("keepalive must be 5-300")
        out["keepalive"] = keepalive
    acked = _get(obj, "acked", "dict", required=False)
    if acked is not None:  # optional: only handsets that know it send it
        seq = _count(_get(acked, "seq", "int", "acked seq"), "acked seq")
        prompt_id = _get(acked, "prompt", "str", "acked prompt")
        if not prompt_id or len(prompt_id) > MAX_ID:
            raise ProtocolError("bad acked prompt id")
        out["acked"] = {"seq": seq, "prompt": prompt_id}
        if "kind" in acked:  # revision 1.3: the input itself, to be applied again by a box that lost it
            kind = _get(acked, "kind", "str", "acked kind")
            if kind not in INPUT_KINDS:
                raise ProtocolError("unknown acked kind")
            mark = _get(acked, "mark", "str", "acked mark")
            if not mark or len(mark) > 16:
                raise ProtocolError("bad acked mark")
            out["acked"].update(kind=kind, data=_INPUT_PARSERS[kind](_get(acked, "data", "dict", "acked data")),
                                mark=mark)
    return out


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
        if len(swap) != SWAP_NAMES or not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in swap):
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
    if not choices or len(choices) > MAX_CHOICES:
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
    if not split or len(split) > MAX_SIDES:
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


def _one_number_data(data):
    return {"number": _number_text(data, "number")}


_INPUT_PARSERS = {
    RANGE: _range_data,
    BET: _bet_data,
    CHOICE: _choice_data,
    SPLIT: _split_data,
    TOKEN: _token_data,
    BUZZ: _buzz_data,
    NUMBER: _one_number_data,
}


def _check_version(obj):
    v = obj.get("v", VERSION)
    if v != VERSION:
        if isinstance(v, str):  # "1" read as "version 1 unsupported", as if 1 were refused
            said = "v must be the number 1, not the text " + repr(v[:8])
            # within an ack's 48 characters: a non-ASCII text's repr is long ('\U0001342f')
            raise ProtocolError(said if len(said) <= MAX_MESSAGE else "v must be the number 1, not text", "version")
        raise ProtocolError("protocol version " + str(v)[:8] + " unsupported", "version")


def _claimed_id(handset, obj):
    if "id" in obj and obj["id"] != handset:
        raise ProtocolError("id does not match topic", "wrong_id")


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


def screen_message(text):
    """``text`` for the handset's screen: at most :data:`MAX_MESSAGE` characters that wrap at spaces into
    :data:`MESSAGE_LINES` lines of :data:`MESSAGE_COLS`. A longer text loses its "; <hint>" tail if that
    makes it fit, else it is cut after a whole word and ends ".."; only a single word longer than the
    limit is ever cut inside."""
    text = " ".join(str(text).split())
    if _fits_screen(text):
        return text
    head = text.partition("; ")[0]
    if _fits_screen(head):
        return head
    text = head
    words = text.split()
    out = ""
    for word in words:
        candidate = word if not out else out + " " + word
        if not _fits_screen(candidate):
            break
        out = candidate
    else:
        return out
    while out and not _fits_screen(out + ".."):
        out = out.rpartition(" ")[0]
    if not out:  # the first word alone is too long
        return words[0][: MAX_MESSAGE - 2] + ".."
    return out.rstrip(" :;,.-") + ".."


def _fits_screen(text):
    if len(text) > MAX_MESSAGE:
        return False
    lines = 0
    used = MESSAGE_COLS  # as if a full line came before: the first word starts a line
    for word in text.split(" "):
        if used + 1 + len(word) <= MESSAGE_COLS:
            used += 1 + len(word)
        else:
            lines += (len(word) + MESSAGE_COLS - 1) // MESSAGE_COLS or 1
            used = len(word) % MESSAGE_COLS or MESSAGE_COLS
    return lines <= MESSAGE_LINES


TEAM_ACK = "team"
"""An ack's ``re`` (revision 1.4): another device of the handset's team had its input accepted; ``seq`` is
-1 and ``prompt`` this handset's current prompt id. A handset built before 1.4 has no input with seq -1
and ignores it."""


def make_ack(seq, ok, message="", prompt_id=None, code=None, about=None):
    """``ok`` True: accepted (``message`` may say what was locked in); False: refused, ``code`` (one of
    :data:`REFUSALS`) and ``message`` why. ``about`` ("hello") marks the answer to a refused hello."""
    msg = {"v": VERSION, "seq": seq, "ok": bool(ok), "msg": screen_message(message)}
    if not ok:
        msg["code"] = code if code in REFUSALS else "refused"
    if prompt_id is not None:
        msg["prompt"] = prompt_id
    if about is not None:
        msg["re"] = about
    return msg


RESULT_ACK = "result"
"""An ack's ``re`` (revision 1.4): the handset's seat number and, after a question's reveal, its seat's result
and place, on its own ack topic (``seq`` -1: a handset built before 1.4 ignores it)."""
MAX_UNIT = 12  # a result's unit ("points", "chips", "correct")


def make_result(seat, total, place, of, unit="points", result=None):
    """The seat's standing for a handset: ``seat`` its seat number; ``total`` its points (chips...) in all,
    ``place`` among ``of`` seats (equal totals share a place); ``result`` what the last question changed,
    None before any (a game's start: the seat number alone)."""
    unit = str(unit)[:MAX_UNIT]
    sign = "+" if result is not None and result >= 0 else ""
    text = "Seat " + str(seat) if result is None else f"{sign}{result} {unit}: {total}, place {place}/{of}"
    msg = {"v": VERSION, "seq": -1, "ok": True, "re": RESULT_ACK, "msg": screen_message(text), "seat": seat,
           "total": total, "place": place, "of": of, "unit": unit}
    if result is not None:
        msg["result"] = result
    return msg


def parse_result(obj):
    """A result ack's fields (:func:`make_result`), checked; ProtocolError when one is missing or wrong."""
    _check_version(obj)
    out = {"msg": _get(obj, "msg", "str", "msg", required=False) or ""}
    for key in ("seat", "total", "place", "of"):
        out[key] = _get(obj, key, "int", key)
    if not (1 <= out["seat"] <= MAX_SEQ and 1 <= out["place"] <= out["of"]):
        raise ProtocolError("result: seat or place out of range", "bad_input")
    out["result"] = _get(obj, "result", "int", "result", required=False)
    unit = _get(obj, "unit", "str", "unit", required=False) or ""
    out["unit"] = unit[:MAX_UNIT]
    if len(out["msg"]) > MAX_MESSAGE:
        out["msg"] = screen_message(out["msg"])
    return out


def parse_ack(obj):
    _check_version(obj)
    seq = _get(obj, "seq", "int", "seq")
    ok = _get(obj, "ok", "bool", "ok")
    # the seq and ok are what a handset must not lose: an over-long msg or code (a box out of spec) is cut
    # or dropped, never the whole ack (refused, the input was sent again every few seconds, for ever)
    message = _get(obj, "msg", "str", "msg", required=False) or ""
    if len(message) > MAX_MESSAGE:
        message = screen_message(message)
    code = _get(obj, "code", "str", "code", required=False)
    if code is not None and len(code) > MAX_CODE:
        code = None
    if code is None and not ok:
        code = "refused"  # an appliance older than protocol 1.1, or a code no refusal has
    return {"seq": seq, "ok": ok, "msg": message, "prompt": obj.get("prompt"), "code": code,
            "re": obj.get("re")}


def wire_prompt(boot, prompt):
    """The prompt as sent: ``prompt`` (a session's, its id local to one run of the appliance) with the
    id tagged ``<boot>-<id>``, so an input re-sent from before a restart cannot answer a new prompt
    that reuses its id."""
    out = dict(prompt)
    out["v"] = VERSION
    out["id"] = boot + "-" + str(prompt["id"])
    return out


def split_prompt_id(prompt_id):
    """``(boot, local id)`` of a prompt id as sent; boot is "" for an untagged id."""
    boot, dash, local = prompt_id.rpartition("-")
    return (boot, local) if dash else ("", prompt_id)


def make_prompt(prompt_id, kind, title="", text="", **fields):
    """A prompt. ``fields`` by kind:

    * info: ``lines`` (list of str), ``wait`` (bool, a waiting-for-others screen)
    * range: ``unit``; ``boosts``: ``{"copy": [names], "swap": [names], "double": bool}`` or absent
    * bet: ``actions``: ``[{"action", "min"?, "max"?}]``, ``stack``, ``to_call``, ``pot``
    * choice: ``fields``: ``[{"name", "label", "options": [{"id", "label"}], "required": bool}]``
    * split: ``total``, ``sides``: ``[{"id", "label"}]``
    * token: ``answers``: ``["A", "B", "C"]``, ``tokens``: list of unused token numbers
    * buzz: ``armed`` (bool)
    * number: ``unit`` (text to show, never to type)

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


# -- admin commands (admin page -> appliance) and their replies -------------------------------------------------
#
# A command is {"v": 1, "id": "<command id>", "cmd": "<name>", ...arguments}; the appliance answers every
# command it reads (accepted or refused) in the admin state's "last": {"id", "ok", "code"?, "msg"}, the
# command's id echoed, so a sender matches its own answer among the states published for other reasons.

# name -> {argument: (kind, required)}; kinds as _KINDS, "id" an id as in topics
ADMIN_COMMANDS = {
    "accept": {"handset": ("id", True), "code": ("str", False)},
    "rename": {"handset": ("id", True), "name": ("str", True)},
    "remove": {"handset": ("id", True)},
    "identify": {"handset": ("id", True)},
    "start": {"game": ("id", True), "seats": ("list", False), "options": ("dict", False),
              "cards": ("list", False), "deck": ("str", False), "filters": ("dict", False)},
    "next": {},
    "skip": {},
    "sound": {},
    "undo": {},
    "pause": {},
    "resume": {},
    "end": {},
    "finish": {},
    "seat": {"player": ("str", True), "handset": ("id", True), "code": ("str", False)},
    # revision 1.4 (rules.md room-6): ``handset`` plays on the seat of the team whose handset is ``team``, or
    # whose team code is ``code``; neither: it plays on its own again
    "team": {"handset": ("id", True), "team": ("str", False), "code": ("str", False)},
    "lobby": {},
    # the running game's own commands (the buzzer round): refused with wrong_phase in another game
    "arm": {},
    "right": {},
    "wrong": {},
    "close": {},
    # a quiz night (appliance/session/night.py): its run-sheet, its rounds, its tie-break
    "night_start": {"seats": ("list", True), "rounds": ("list", True), "title": ("str", False)},
    "night_round": {},
    "night_finish": {},
    "night_abandon": {},
    "night_add": {"plan": ("dict", True), "before": ("int", False)},
    "night_skip": {"round": ("int", True)},
    "night_move": {"round": ("int", True), "before": ("int", False)},
    "night_seat": {"round": ("int", True), "seats": ("list", True)},
    "night_interval": {"seconds": ("int", True)},
    "night_card": {"question": ("str", True), "answer": ("str", True)},
    "night_number": {"player": ("str", True), "number": ("str", True)},
    "night_close_card": {},
    "night_end": {},
    "night_next": {},
    "night_hold": {"seconds": ("int", False)},
    "night_correct": {"team": ("str", True), "points": ("int", True), "reason": ("str", True)},
    "night_join": {"player": ("str", True), "handset": ("id", True)},
    "night_qr": {"show": ("bool", True)},
}
GAME_COMMANDS = ("arm", "right", "wrong", "close")
ADMIN_STATE_FIELDS = ("v", "handsets", "scene", "game", "paused", "can_advance", "message", "pairing",
                      "pairing_warnings", "last", "card", "seat_codes", "undo")


def make_command(command_id, cmd, **args):
    msg = {"v": VERSION, "id": command_id, "cmd": cmd}
    msg.update(args)
    return msg


def parse_command(obj):
    """Validate an admin command: a known ``cmd`` with its arguments' kinds (the appliance then checks
    the values: that the handset exists, that the game can start). Returns the dict with ``id`` ("" if
    it had none). ProtocolError, whose ``code`` is unknown_command or bad_command, otherwise."""
    if obj.get("v", VERSION) != VERSION:
        raise ProtocolError("protocol version " + str(obj.get("v"))[:8] + " unsupported", "version")
    command_id = obj.get("id", "")
    if not isinstance(command_id, str) or len(command_id) > MAX_COMMAND_ID:
        raise ProtocolError("bad command id", "bad_command")
    cmd = obj.get("cmd")
    if not isinstance(cmd, str):
        raise ProtocolError('a command is {"cmd": name, ...}', "bad_command")
    if cmd not in ADMIN_COMMANDS:
        raise ProtocolError("unknown command " + repr(cmd[:24]), "unknown_command")
    for key, (kind, required) in ADMIN_COMMANDS[cmd].items():
        if key not in obj:
            if required:
                raise ProtocolError(cmd + " needs " + key, "bad_command")
            continue
        value = obj[key]
        if kind == "id":
            if not isinstance(value, str) or not value or len(value) > MAX_ID:
                raise ProtocolError(cmd + ": bad " + key, "bad_command")
        elif not _KINDS[kind][0](value):
            raise ProtocolError(cmd + ": " + key + " not " + _KINDS[kind][1], "bad_command")
    out = dict(obj)
    out["id"] = command_id
    return out


def decode_command(raw):
    """An admin command from raw bytes: JSON object of at most :data:`MAX_COMMAND` bytes, validated."""
    return parse_command(decode(raw, MAX_COMMAND))


def make_reply(command_id, ok, message="", code=None):
    """The appliance's answer to the admin command ``command_id``."""
    msg = {"id": command_id, "ok": bool(ok), "msg": str(message)[:200]}
    if not ok:
        msg["code"] = code if code in REFUSALS else "refused"
    return msg


def parse_reply(obj):
    """A reply as the admin page reads it from the admin state's ``last``; None if it is none."""
    if not isinstance(obj, dict) or not isinstance(obj.get("ok"), bool) or not isinstance(obj.get("id"), str):
        return None
    return {"id": obj["id"], "ok": obj["ok"], "msg": str(obj.get("msg", "")), "code": obj.get("code")}


# -- the appliance's heartbeat (appliance -> everyone) ------------------------------------------------------

HEARTBEAT_MS = 2000  # the appliance says it is alive this often
STALE_MS = 6000  # no heartbeat for this long: "the box is not answering"


def make_heartbeat(at_ms, boot, every_ms=HEARTBEAT_MS):
    """``at_ms``: the appliance's wall clock (ms since 1970); ``boot``: changes on every start."""
    return {"v": VERSION, "at": at_ms, "every": every_ms, "boot": boot}


def parse_heartbeat(obj):
    _check_version(obj)
    at = _clock(obj, "at")
    every = _get(obj, "every", "int")
    if every <= 0 or every > 600000:
        raise ProtocolError("every out of range")
    boot = _get(obj, "boot", "str")
    if not boot or len(boot) > MAX_ID:
        raise ProtocolError("bad boot")
    return {"at": at, "every": every, "boot": boot}


def box_answering(heard_ms, now_ms, every_ms=HEARTBEAT_MS):
    """Whether a box last heard at ``heard_ms`` (the listener's own clock) still counts as answering:
    three heartbeats may be missed. ``heard_ms`` None: never heard."""
    return heard_ms is not None and now_ms - heard_ms < max(STALE_MS, 3 * every_ms)
