# A random LEGAL input for a prompt: the simulated handsets' players and the fuzz tests use it.
# rng is any object with randrange(n) and getrandbits(k) (MicroPython's random module works).

from firmware import protocol
from firmware.core import allowed, numtext


def choose(prompt, rng):
    """Data for a random input the prompt allows, or None when it allows none (info, no options)."""
    if prompt is None:
        return None
    make = _MAKERS.get(prompt.get("kind"))
    if make is None:
        return None
    data = make(prompt, rng)
    if data is None:
        return None
    return allowed.check(prompt, data)


def _pick(rng, items):
    return items[rng.randrange(len(items))]


def _coin(rng, one_in=2):
    return rng.randrange(one_in) == 0


def _number(rng):
    # whole, decimal, negative and huge values, as a player might type them
    m = rng.randrange(1000000) * (-1 if _coin(rng, 5) else 1)
    e = _pick(rng, (0, 0, 0, -1, -2, 3, 6, 12, 40))
    return m, e


def _range(prompt, rng):
    offer = allowed.boosts(prompt)
    data = {}
    if offer["copy"] and _coin(rng, 4):
        data["copy"] = _pick(rng, offer["copy"])
    else:
        a, b = _number(rng), _number(rng)
        if numtext.compare(a, b) > 0:
            a, b = b, a
        data["bottom"] = numtext.wire(*a)
        data["top"] = numtext.wire(*b)
    swap = offer["swap"]
    if len(swap) >= 2 and _coin(rng, 4):
        first = rng.randrange(len(swap))
        second = (first + 1 + rng.randrange(len(swap) - 1)) % len(swap)
        data["swap"] = [swap[first], swap[second]]
    if offer["double"] and _coin(rng, 4):
        data["double"] = True
    return data


def _bet(prompt, rng):
    actions = allowed.bet_actions(prompt)
    if not actions:
        return None
    entry = _pick(rng, actions)
    name = entry["action"]
    if name not in protocol.BET_AMOUNT_ACTIONS:
        return {"action": name}
    low, high = entry["min"], entry["max"]
    if high is None:
        high = low + 1000
    return {"action": name, "to": low + rng.randrange(high - low + 1)}


def _choice(prompt, rng):
    fields = allowed.choice_fields(prompt)
    if not fields:
        return None
    choices = {}
    for field in fields:
        if field["required"] or _coin(rng):
            choices[field["name"]] = _pick(rng, field["options"])[0]
    if not choices:
        field = _pick(rng, fields)
        choices[field["name"]] = _pick(rng, field["options"])[0]
    return {"choices": choices}


def _split(prompt, rng):
    sides = [sid for sid, _ in allowed.split_sides(prompt)]
    total = allowed.split_total(prompt)
    if not sides or total is None:
        return None
    split = {}
    left = total
    for side in sides[:-1]:
        n = rng.randrange(left + 1)
        split[side] = n
        left -= n
    split[sides[-1]] = left
    return {"split": split}


def _token(prompt, rng):
    answers = allowed.token_answers(prompt)
    tokens = allowed.token_numbers(prompt)
    if not answers or not tokens:
        return None
    return {"answer": _pick(rng, answers), "token": _pick(rng, tokens)}


def _buzz(prompt, rng):
    # a press before the buzzers are armed locks the handset out of the question (rules.md Buzzer 1)
    return {} if prompt.get("armed") else None


def _one_number(prompt, rng):
    # a tie-break's estimate: mostly a whole number a player would guess (a year, a count, a distance),
    # now and then a decimal or any number a player might type
    if _coin(rng, 4):
        m, e = _number(rng)
    else:
        m, e = rng.randrange(10000), _pick(rng, (0, 0, 0, -1))
    return {"number": numtext.wire(m, e)}


_MAKERS = {
    protocol.RANGE: _range,
    protocol.BET: _bet,
    protocol.CHOICE: _choice,
    protocol.SPLIT: _split,
    protocol.TOKEN: _token,
    protocol.BUZZ: _buzz,
    protocol.NUMBER: _one_number,
}
