# What a prompt allows: the one check every input passes before a handset sends it (architecture.md:
# handsets hold no rules; they only edit inputs the prompt allows). The data must also be exactly what
# protocol.parse_input expects for the prompt's kind, so a sent input is never malformed.
#
# check(prompt, data) returns the data to send (cleaned copy) or raises ValueError with a short reason.
# The readers below (boosts, bet_actions, ...) take only well-formed parts of a prompt: whatever else a
# prompt holds is ignored, so an odd prompt offers fewer choices but never crashes a handset.

from firmware import protocol
from firmware.core import numtext

ANSWERS = ("A", "B", "C")


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


# -- reading a prompt --------------------------------------------------------------------------------------
def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _names(value, limit=protocol.MAX_NAME):
    """The distinct non-empty strings of a list, in order; anything else is no names."""
    out = []
    if isinstance(value, list):
        for item in value:
            if isinstance(item, str) and item and len(item) <= limit and item not in out:
                out.append(item)
    return out


def _label(value, fallback):
    return value if isinstance(value, str) and value else fallback


def boosts(prompt):
    """{"copy": [names], "swap": [names], "double": bool} the player may use now."""
    value = prompt.get("boosts")
    value = value if isinstance(value, dict) else {}
    return {"copy": _names(value.get("copy")), "swap": _names(value.get("swap")), "double": value.get("double") is True}


def bet_actions(prompt):
    """[{"action", "min", "max"}]: the known actions, each once; min an int >= 0, max an int or None."""
    out = []
    seen = []
    actions = prompt.get("actions")
    for entry in actions if isinstance(actions, list) else []:
        if not isinstance(entry, dict):
            continue
        name = entry.get("action")
        if name not in protocol.BET_ACTIONS or name in seen:
            continue
        seen.append(name)
        low, high = entry.get("min"), entry.get("max")
        low = low if _is_int(low) and low >= 0 else 0
        high = high if _is_int(high) else None
        if high is not None and high < low:
            continue  # nothing can be bet: not offered
        out.append({"action": name, "min": low, "max": high})
    return out


def bet_action(prompt, name):
    for entry in bet_actions(prompt):
        if entry["action"] == name:
            return entry
    return None


def choice_fields(prompt):
    """[{"name", "label", "required", "options": [(id, label)]}] with at least one option each."""
    out = []
    names = []
    fields = prompt.get("fields")
    for field in fields if isinstance(fields, list) else []:
        if not isinstance(field, dict):
            continue
        name = field.get("name")
        if not isinstance(name, str) or not name or len(name) > protocol.MAX_ID or name in names:
            continue
        options = []
        ids = []
        raw = field.get("options")
        for option in raw if isinstance(raw, list) else []:
            if not isinstance(option, dict):
                continue
            oid = option.get("id")
            if isinstance(oid, str) and oid and len(oid) <= protocol.MAX_NAME and oid not in ids:
                ids.append(oid)
                options.append((oid, _label(option.get("label"), oid)))
        if options:
            names.append(name)
            out.append(
                {
                    "name": name,
                    "label": _label(field.get("label"), name),
                    "required": field.get("required") is True,
                    "options": options,
                    # a seat number's tens field (revision 1.4): the room's highest seat, else None
                    "last": _last_seat(field.get("last")),
                }
            )
    return out[:8]  # protocol: at most 8 choices


def _last_seat(value):
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 1000 else None


def split_sides(prompt):
    """[(id, label)]: distinct side ids, at most 4 (protocol)."""
    out = []
    ids = []
    sides = prompt.get("sides")
    for side in sides if isinstance(sides, list) else []:
        if isinstance(side, dict):
            sid = side.get("id")
            if isinstance(sid, str) and sid and len(sid) <= protocol.MAX_ID and sid not in ids:
                ids.append(sid)
                out.append((sid, _label(side.get("label"), sid)))
    return out[:4]


def split_total(prompt):
    total = prompt.get("total")
    return total if _is_int(total) and total >= 0 else None


def token_answers(prompt):
    answers = prompt.get("answers")
    if not isinstance(answers, list):
        return list(ANSWERS)
    return [a for a in ANSWERS if a in answers]


def token_numbers(prompt):
    out = []
    tokens = prompt.get("tokens")
    for token in tokens if isinstance(tokens, list) else []:
        if _is_int(token) and 0 <= token <= protocol.MAX_SEQ and token not in out:
            out.append(token)
    return out


def number_unit(prompt):
    """The unit a range or number prompt shows beside its numbers ("" for none); never typed (protocol
    sections 6 and 8)."""
    unit = prompt.get("unit")
    return unit.strip() if isinstance(unit, str) else ""


# -- checks per kind ------------------------------------------------------------------------------------------
def _only(data, keys):
    for key in data:
        if key not in keys:
            raise ValueError("unexpected " + str(key)[:16])


def _range(prompt, data):
    _only(data, ("bottom", "top", "copy", "swap", "double"))
    offer = boosts(prompt)
    out = {}
    if "copy" in data:
        if data["copy"] not in offer["copy"]:
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
        pair = data["swap"]
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError("swap needs 2 names")
        if pair[0] == pair[1] or pair[0] not in offer["swap"] or pair[1] not in offer["swap"]:
            raise ValueError("cannot swap those")
        out["swap"] = [pair[0], pair[1]]
    if "double" in data:
        if data["double"] is not True and data["double"] is not False:
            raise ValueError("double not yes/no")
        if data["double"] and not offer["double"]:
            raise ValueError("no double left")
        out["double"] = data["double"]
    return out


def _bet(prompt, data):
    _only(data, ("action", "to"))
    name = data.get("action")
    entry = bet_action(prompt, name)
    if entry is None:
        raise ValueError("cannot " + str(name)[:16] + " now")
    if name not in protocol.BET_AMOUNT_ACTIONS:
        if "to" in data:
            raise ValueError(name + " takes no amount")
        return {"action": name}
    to = data.get("to")
    if not _is_int(to):
        raise ValueError("amount not whole")
    if to < entry["min"]:
        raise ValueError(name + " at least " + str(entry["min"]))
    if entry["max"] is not None and to > entry["max"]:
        raise ValueError(name + " at most " + str(entry["max"]))
    if to > protocol.MAX_SEQ:
        raise ValueError("amount too big")
    return {"action": name, "to": to}


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
        if choices[name] not in [oid for oid, _ in field["options"]]:
            raise ValueError("bad " + field["label"][:20])
        out[name] = choices[name]
    for field in fields:
        if field["required"] and field["name"] not in out:
            raise ValueError("choose " + field["label"][:20])
    return {"choices": out}


def _split(prompt, data):
    _only(data, ("split",))
    split = data.get("split")
    sides = [sid for sid, _ in split_sides(prompt)]
    total = split_total(prompt)
    if not sides or total is None:
        raise ValueError("nothing to split")
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
    if used != total:
        # rules.md All In 5: a bettor splits ALL their chips
        raise ValueError("split all " + str(total) + " chips")
    return {"split": out}


def _token(prompt, data):
    _only(data, ("answer", "token"))
    if data.get("answer") not in token_answers(prompt):
        raise ValueError("answer A, B or C")
    token = data.get("token")
    if not _is_int(token) or token not in token_numbers(prompt):
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


def _number(prompt, data):
    # rules.md Quiz night 4: one exact number, read by the same rules as a range's bottom and top
    _only(data, ("number",))
    if "number" not in data:
        raise ValueError("enter a number")
    return {"number": numtext.wire(*numtext.parse(data["number"]))}  # "bad number", "number too big", ...


_CHECKS = {
    protocol.RANGE: _range,
    protocol.BET: _bet,
    protocol.CHOICE: _choice,
    protocol.SPLIT: _split,
    protocol.TOKEN: _token,
    protocol.BUZZ: _buzz,
    protocol.NUMBER: _number,
}
