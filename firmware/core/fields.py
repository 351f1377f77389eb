# The editable fields of an input form, each driven by either button layout:
#   keypad: "0"-"9", ".", "-", "mag" (k/M/B/T/x10^), "del", "ok", "next"  (ok/next are the form's)
#   five:   "up", "down", "left", "right", "ok"                            (ok is the form's)
# A field's key()/five() returns "next" or "prev" when the cursor should leave it, else None.

from firmware.core import numtext

MAX_DIGITS = 15  # typed digits of one number (the OLED shows 16 characters a line)
MAX_EXP_DIGITS = 2  # x10^ exponent digits: |exponent| <= 99 (numtext.MAX_EXPONENT)
EXP = "x10^"
MAGNITUDES = numtext.MAGS + (EXP,)
BLANK = "_"  # five layout: a digit scrolled to blank is removed when the cursor leaves it


class Field:
    name = ""
    label = ""
    required = True

    def empty(self):
        return True

    def key(self, key):
        return None

    def five(self, key):
        if key == "left":
            return "prev"
        if key == "right":
            return "next"
        return None

    def shown(self, layout):
        """(text, cursor column or None) for the value on screen."""
        return "", None


class NumberField(Field):
    """A number typed as sign, digits with at most one point, and a magnitude (k/M/B/T or x10^n).

    whole=True: a whole number >= 0 (chips); a point and a magnitude may still be used (2.5k = 2500).
    """

    def __init__(self, name, label, whole=False, initial=None):
        self.name = name
        self.label = label
        self.whole = whole
        self.neg = False
        self.chars = []  # digits and at most one "."; BLANK only transiently in the five layout
        self.mag = ""  # one of MAGNITUDES
        self.exp = ""  # exponent text for EXP: digits with an optional leading "-"
        self.pos = 0  # five layout cursor: 0 sign (not for whole), then chars, the append slot, mag, exp
        self.fresh = False  # keypad: a prefilled value is replaced by the first typed digit
        if initial is not None:
            self.chars = list(str(initial))
            self.fresh = True
        self.pos = self._first_slot()

    # -- value -------------------------------------------------------------------------------------------
    def empty(self):
        return not any(c.isdigit() for c in self.chars)

    def value(self):
        """(m, e), None when empty; ValueError with a short reason when it is no valid number."""
        if self.empty():
            return None
        text = "".join(c for c in self.chars if c != BLANK)
        whole, _, frac = text.partition(".")
        m = int((whole + frac) or "0")
        e = -len(frac)
        if self.mag == EXP:
            if self.exp in ("", "-"):
                raise ValueError(self.label + ": exponent?")
            e += int(self.exp)
        elif self.mag:
            e += numtext.MAG_POWER[self.mag]
        if self.neg:
            m = -m
        m, e = numtext.normal(m, e)
        numtext.check_bounds(m, e)
        if self.whole and e < 0:
            raise ValueError(self.label + ": whole number")
        return m, e

    def int_value(self):
        m, e = self.value()
        return m * 10**e

    # -- keypad --------------------------------------------------------------------------------------------
    def key(self, key):
        if self.fresh and (key.isdigit() or key == "."):
            self.chars = []
        self.fresh = False
        if key.isdigit():
            if self.mag == EXP:
                if len(self.exp.lstrip("-")) < MAX_EXP_DIGITS:
                    self.exp += key
            elif self.mag == "" and self._digits() < MAX_DIGITS:
                self.chars.append(key)
        elif key == "." and self.mag == "" and "." not in self.chars:
            if self._digits() < MAX_DIGITS:
                self.chars.append(".")
        elif key == "-":
            if self.mag == EXP:
                self.exp = self.exp[1:] if self.exp.startswith("-") else "-" + self.exp
            elif not self.whole:
                self.neg = not self.neg
        elif key == "mag":
            self.mag = MAGNITUDES[(MAGNITUDES.index(self.mag) + 1) % len(MAGNITUDES)]
            self.exp = ""
        elif key == "del":
            if self.mag == EXP and self.exp:
                self.exp = self.exp[:-1]
            elif self.mag:
                self.mag = ""
            elif self.chars:
                self.chars.pop()
            else:
                self.neg = False
        return None

    def _digits(self):
        return sum(1 for c in self.chars if c.isdigit())

    # -- five buttons: digit-wise entry with magnitude steps -----------------------------------------------
    # The cursor walks: the sign, the whole digits (the last slot appends one), the magnitude (k/M/B/T or
    # x10^ and its exponent), then the decimals of that magnitude (3, M, 5 is 3.5M; the point comes by
    # itself). up/down scroll the slot: a digit through _ 1 2 ... 9 0 (so d costs d presses from blank,
    # 0 costs one "down"); a digit scrolled to _ is removed when the cursor leaves it.
    def _split(self):
        """(whole digits, decimals) of the typed number."""
        if "." in self.chars:
            i = self.chars.index(".")
            return self.chars[:i], self.chars[i + 1 :]
        return self.chars, []

    def _join(self, whole, decimals):
        self.chars = whole + ["."] + decimals if decimals else list(whole)

    def _slots(self):
        whole, decimals = self._split()
        slots = [] if self.whole else ["sign"]
        slots += [("w", i) for i in range(len(whole) + 1)]  # the last one appends
        slots.append("mag")
        if self.mag == EXP:
            slots.append("exp")
        slots += [("d", i) for i in range(len(decimals) + 1)]
        return slots

    def _first_slot(self):
        return 0 if self.whole else 1

    def _drop_blank(self, slot):
        """Leaving a digit scrolled to blank removes it; True if one was removed."""
        if not isinstance(slot, tuple):
            return False
        whole, decimals = self._split()
        part = whole if slot[0] == "w" else decimals
        if slot[1] < len(part) and part[slot[1]] == BLANK:
            del part[slot[1]]
            self._join(whole, decimals)
            return True
        return False

    def five(self, key):
        slots = self._slots()
        slot = slots[self.pos]
        if key in ("left", "right"):
            step = -1 if key == "left" else 1
            if self._drop_blank(slot):
                slots = self._slots()
                if step > 0:
                    step = 0  # the next slot moved into this place
            new = self.pos + step
            if new < 0:
                self.pos = 0
                return "prev"
            if new >= len(slots):
                self.pos = len(slots) - 1
                return "next"
            self.pos = new
            return None
        if key not in ("up", "down"):
            return None
        step = 1 if key == "up" else -1
        if slot == "sign":
            self.neg = not self.neg
        elif slot == "mag":
            self.mag = MAGNITUDES[(MAGNITUDES.index(self.mag) + step) % len(MAGNITUDES)]
            self.exp = ""
        elif slot == "exp":
            value = int(self.exp) if self.exp not in ("", "-") else 0
            value = max(-numtext.MAX_EXPONENT, min(numtext.MAX_EXPONENT, value + step))
            self.exp = str(value)
        else:
            self._scroll_digit(slot, step)
        return None

    def _scroll_digit(self, slot, step):
        ring = BLANK + "1234567890"
        whole, decimals = self._split()
        part = whole if slot[0] == "w" else decimals
        index = slot[1]
        here = part[index] if index < len(part) else BLANK
        char = ring[(ring.index(here) + step) % len(ring)]
        if index == len(part):
            if char == BLANK or self._digits() >= MAX_DIGITS:
                return
            part.append(char)
        else:
            part[index] = char
        self._join(whole, decimals)

    def suggest_above(self, other):
        """Five buttons: start empty ``self`` at the round number above ``other`` (From 3.5M: To 4M, From
        12: To 20), in ``other``'s magnitude, so a range's top often needs no press at all."""
        if not self.empty():
            return
        try:
            value = other.value()
        except ValueError:
            return
        if value is None or value[0] <= 0:
            return
        m, e = value
        digits = str(m)
        place = len(digits) - 1 + e  # the power of ten of the leading digit
        if place < 0:
            return  # below 1: no good guess
        lead = int(digits[0]) + 1
        if lead == 10:
            lead, place = 1, place + 1
        if other.mag == EXP:
            self.mag, self.exp, self.chars = EXP, str(place), [str(lead)]
        else:
            power = numtext.MAG_POWER[other.mag] if other.mag else 0
            if place < power:
                return
            self.mag = other.mag
            self.chars = list(str(lead) + "0" * (place - power))
        self.pos = self._first_slot()

    # -- screen ----------------------------------------------------------------------------------------
    def shown(self, layout):
        sign = "-" if self.neg else ""
        body = "".join(self.chars)
        tail = self.mag + (self.exp if self.mag == EXP else "")
        if layout != "five":
            return sign + body + tail, None
        slot = self._slots()[self.pos]
        sign = "" if self.whole else ("-" if self.neg else "+")
        whole, decimals = self._split()
        w = "".join(whole) + (BLANK if slot == ("w", len(whole)) else "")
        d = "".join(decimals) + (BLANK if slot == ("d", len(decimals)) else "")
        text = sign + w + ("." + d if d else "") + (self.mag or " ") + (self.exp if self.mag == EXP else "")
        if slot == "sign":
            col = 0
        elif isinstance(slot, tuple) and slot[0] == "w":
            col = len(sign) + slot[1]
        elif isinstance(slot, tuple):
            col = len(sign) + len(w) + 1 + slot[1]
        else:
            col = len(sign) + len(w) + (1 + len(d) if d else 0)
            if slot == "exp":
                col += len(EXP)
        return text, col


class CountField(Field):
    """A whole number of chips from 0 to ``most``: keypad types it, five-button up/down steps it."""

    def __init__(self, name, label, most):
        self.name = name
        self.label = label
        self.most = most
        self.count = None

    def empty(self):
        return self.count is None

    def key(self, key):
        if key.isdigit():
            value = (self.count or 0) * 10 + int(key)
            self.count = value if value <= self.most else int(key) if int(key) <= self.most else self.count
        elif key == "del":
            self.count = None if not self.count or self.count < 10 else self.count // 10
        return None

    def five(self, key):
        if key in ("up", "down"):
            step = 1 if key == "up" else -1
            self.count = ((self.count or 0) + step) % (self.most + 1)
            return None
        return Field.five(self, key)

    def shown(self, layout):
        return ("" if self.count is None else str(self.count)), None


class PickField(Field):
    """One option of a list (``options``: (id, label) pairs); optional fields may stay unset."""

    def __init__(self, name, label, options, required=True, numbered=False, keys=None):
        self.name = name
        self.label = label
        self.options = options
        self.required = required
        self.numbered = numbered  # keypad digits pick the option labelled so (a bet token), never by place
        self.keys = keys  # the keypad digit of each option (a bet's actions: the same digit every prompt)
        self.index = None
        # a room's seat numbers (rules.md The room 2): keypad digits are typed, 3 then 7 is seat 37
        self.seats = len(options) > 9 and all(str(label).isdigit() for _, label in options)
        self.typed = ""

    def key_of(self, index):
        """The keypad digit that picks option ``index``."""
        if self.keys is not None:
            return self.keys[index]
        return str(self.options[index][1]) if self.numbered else str(index + 1)

    def empty(self):
        return self.index is None

    def chosen(self):
        return None if self.index is None else self.options[self.index][0]

    def key(self, key):
        if self.keys is not None and key in self.keys:
            self.index = self.keys.index(key)
            return None
        labels = [str(label) for _, label in self.options]
        if self.keys is not None and key.isdigit():
            return None  # a digit no action has
        if self.seats and key.isdigit():
            return self._type_seat(labels, key)
        if key in labels:
            self.index = labels.index(key)  # a token numbered 3 is key 3
        elif key.isdigit() and not self.numbered and 1 <= int(key) <= len(self.options):
            self.index = int(key) - 1  # else by position: 1 is the first option
        elif key == "mag" and self.options:
            self.index = 0 if self.index is None else (self.index + 1) % len(self.options)
        elif key == "del":
            self.index = None
            self.typed = ""
        return None

    def _type_seat(self, labels, digit):
        """A digit of a seat number: it extends the number typed while some seat starts so, else starts
        a new one; the seat typed so far is chosen (1 is seat 1 until a 2 makes it 12)."""
        typed = self.typed + digit
        if not any(label.startswith(typed) for label in labels):
            typed = digit if any(label.startswith(digit) for label in labels) else ""
        self.typed = typed
        self.index = labels.index(typed) if typed in labels else None
        return None

    def five(self, key):
        if key in ("up", "down") and self.options:
            # optional fields scroll through "not set" too
            count = len(self.options) + (0 if self.required else 1)
            now = len(self.options) if self.index is None else self.index
            if self.index is None and self.required:
                now = -1 if key == "up" else 0
            now = (now + (1 if key == "up" else -1)) % count
            self.index = None if now == len(self.options) else now
            return None
        return Field.five(self, key)

    def shown(self, layout):
        if self.index is None:
            return ("-" if self.required else "(none)"), None
        return str(self.options[self.index][1]), None
