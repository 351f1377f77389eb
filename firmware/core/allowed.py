# What a prompt allows: the one check every input passes before a handset sends it (architecture.md:
# handsets hold no rules; they only edit inputs the prompt allows). The data must also be exactly what
# protocol.parse_input expects for the prompt's kind, so a sent input is never malformed.
#
# check(prompt, data) returns the data to send (cleaned copy) or raises ValueError with a short reason.

from firmware import protocol
from firmware.core import numtext


def check(prompt, data):
    if prompt is None:
        raise ValueError("no question yet")
    kind = prompt.get("kind")
    if kind not in protocol.INPUT_KINDS:
        raise ValueError("nothing to enter")
    if not isinstance(data, dict):
        raise ValueError("data not an object")
    out = _CHECKS[kind](prompt, data)
    # belt and braces: the envelope parser of the appliance must accept it unchanged
    protocol._INPUT_PARSERS[kind](out)
    return out


def _only(data, keys):
    for key in data:
        if key not in keys:
            raise ValueError("unexpected " + str(key)[:16])


def boosts(prompt):
    value = prompt.get("boosts") or {}
    return value if isinstance(value, dict) else {}


def _range(prompt, data):
    _only(data, ("bottom", "top", "copy", "swap", "double"))
    allowed = boosts(prompt)
    out = {}
    if "copy" in data:
        names = allowed.get("copy") or []
        if data["copy"] not in names:
            raise ValueError("cannot copy that")
        if "bottom" in data or "top" in data:
            raise ValueError("copy or range")
        out["copy"] = data["copy"]
    else:
        if "bottom" not in data or "top" not in data:
            raise ValueError("need bottom and top")
        bottom = numtext.parse(data["bottom"])
        top = numtext.parse(data["top"])
        # rules.md Confident 1: bottom > top is refused at entry with a clear message
        if numtext.compare(bottom, top) > 0:
            raise ValueError("bottom above top")
        out["bottom"] = numtext.wire(*bottom)
        out["top"] = numtext.wire(*top)
    if "swap" in data:
        names = allowed.get("swap") or []
        pair = data["swap"]
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError("swap needs 2 names")
        if pair[0] == pair[1] or pair[0] not in names or pair[1] not in names:
            raise ValueError("cannot swap those")
        out["swap"] = [pair[0], pair[1]]
    if "double" in data:
        if data["double"] is not True and data["double"] is not False:
            raise ValueError("double not yes/no")
        if data["double"] and not allowed.get("double"):
            raise ValueError("no double left")
        out["double"] = data["double"]
    return out


def bet_action(prompt, name):
    for entry in prompt.get("actions") or []:
        if isinstance(entry, dict) and entry.get("action") == name:
            return entry
    return None


def bet_bounds(entry):
    """(low, high) for a bet/raise "to" amount; high None for no upper bound."""
    low = entry.get("min")
    high = entry.get("max")
    return (low if _is_int(low) else 0), (high if _is_int(high) else None)


def _bet(prompt, data):
    _only(data, ("action", "to"))
    name = data.get("action")
    entry = bet_action(prompt, name)
    if entry is None or name not in protocol.BET_ACTIONS:
        raise ValueError("cannot " + str(name)[:16] + " now")
    if name not in protocol.BET_AMOUNT_ACTIONS:
        if "to" in data:
            raise ValueError(name + " takes no amount")
        return {"action": name}
    to = data.get("to")
    if not _is_int(to):
        raise ValueError("amount not whole")
    low, high = bet_bounds(entry)
    if to < low:
        raise ValueError(name + " at least " + str(low))
    if high is not None and to > high:
        raise ValueError(name + " at most " + str(high))
    return {"action": name, "to": to}


def choice_fields(prompt):
    return [f for f in prompt.get("fields") or [] if isinstance(f, dict) and "name" in f]


def option_ids(field):
    return [o.get("id") for o in field.get("options") or [] if isinstance(o, dict)]


def _choice(prompt, data):
    _only(data, ("choices",))
    choices = data.get("choices")
    if not isinstance(choices, dict) or not choices:
        raise ValueError("nothing chosen")
    fields = choice_fields(prompt)
    by_name = {}
    for field in fields:
        by_name[field["name"]] = field
    out = {}
    for name in choices:
        field = by_name.get(name)
        if field is None:
            raise ValueError("no choice " + str(name)[:16])
        if choices[name] not in option_ids(field):
            raise ValueError("bad " + _label(field))
        out[name] = choices[name]
    for field in fields:
        if field.get("required") and field["name"] not in out:
            raise ValueError("choose " + _label(field))
    return {"choices": out}


def _label(field):
    return str(field.get("label") or field["name"])[:20]


def split_sides(prompt):
    return [s.get("id") for s in prompt.get("sides") or [] if isinstance(s, dict)]


def _split(prompt, data):
    _only(data, ("split",))
    split = data.get("split")
    sides = split_sides(prompt)
    if not isinstance(split, dict) or sorted(split) != sorted(sides):
        raise ValueError("split every side")
    out = {}
    used = 0
    for side in sides:
        n = split[side]
        if not _is_int(n) or n < 0:
            raise ValueError("chips must be >= 0")
        out[side] = n
        used += n
    total = prompt.get("total")
    if used != total:
        # rules.md All In 5: a bettor splits ALL their chips
        raise ValueError("split all " + str(total) + " chips")
    return {"split": out}


def token_answers(prompt):
    return prompt.get("answers") or ["A", "B", "C"]


def _token(prompt, data):
    _only(data, ("answer", "token"))
    if data.get("answer") not in token_answers(prompt) or data.get("answer") not in ("A", "B", "C"):
        raise ValueError("answer A, B or C")
    token = data.get("token")
    tokens = prompt.get("tokens") or []
    if not _is_int(token) or token not in tokens:
        # rules.md sQuizz 5: one unused bet token
        raise ValueError("token not yours")
    return {"answer": data["answer"], "token": token}


def _buzz(prompt, data):
    # rules.md Buzzer 1: a press before arming is still sent; the appliance decides the lock-out.
    _only(data, ("pressed",))
    pressed = data.get("pressed")
    if pressed is not None and not _is_int(pressed):
        raise ValueError("press time not whole")
    return {} if pressed is None else {"pressed": pressed}


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


_CHECKS = {
    protocol.RANGE: _range,
    protocol.BET: _bet,
    protocol.CHOICE: _choice,
    protocol.SPLIT: _split,
    protocol.TOKEN: _token,
    protocol.BUZZ: _buzz,
}
