# An input form for one prompt: its fields, the cursor, a review page before sending.
#   press(key) -> the input data to send (already checked by allowed.check) or None
#   back() leaves the review page (cancel), keeping every value
# Keys: keypad "next" moves to the next field, "ok" goes to the review page and "ok" there sends,
# "del" there cancels. Five buttons: left/right leave a field at its ends, "ok" reviews and sends,
# "left" on the review page cancels.

from firmware import protocol
from firmware.core import allowed, numtext
from firmware.core.fields import CountField, NumberField, PickField

KEYPAD_KEYS = ("1", "2", "3", "mag", "4", "5", "6", "del", "7", "8", "9", "next", "-", "0", ".", "ok")
FIVE_KEYS = ("up", "down", "left", "right", "ok")
LAYOUT_KEYS = {protocol.LAYOUT_KEYPAD: KEYPAD_KEYS, protocol.LAYOUT_FIVE: FIVE_KEYS}


def make(prompt, layout):
    """The form for ``prompt`` or None when it takes no input (info)."""
    form = _FORMS.get(prompt.get("kind"))
    return None if form is None else form(prompt, layout)


class Form:
    unit = ""  # shown beside the numbers of a range or number form, never typed

    def __init__(self, prompt, layout):
        self.prompt = prompt
        self.layout = layout
        self.review = False  # on the review page: the data below is what "ok" sends
        self.data = None
        self.notice = ""  # why the last "ok" did not review (shown on the form)
        self.all = self.build()
        shown = self.fields()
        self.field = shown[0] if shown else None

    def build(self):
        return []

    def fields(self):
        """The fields shown now (some depend on others, e.g. a bet's amount)."""
        return self.all

    def collect(self):
        """The input data from the fields; ValueError naming what is missing or wrong."""
        return {}

    def summary(self, data):
        """Review page lines (at most 5 of 16 characters)."""
        return []

    def press(self, key):
        if self.review:
            if key == "ok":
                return self.data
            if key in ("del", "left"):
                self.notice = ""
                self.back()
            return None
        self.notice = ""
        if key == "ok":
            return self._review()
        if self.layout == protocol.LAYOUT_FIVE:
            self._move(self.field.five(key) if self.field else key)
        elif key == "next":
            self._move("next")
        elif self.field is not None:
            self.field.key(key)
        return None

    def back(self):
        self.review = False
        self.data = None

    def _move(self, where):
        shown = self.fields()
        if where not in ("next", "prev") or not shown:
            return
        index = shown.index(self.field) if self.field in shown else 0
        index = (index + (1 if where == "next" else -1)) % len(shown)
        self.field = shown[index]
        if isinstance(self.field, NumberField) and where == "prev":
            self.field.pos = len(self.field._slots()) - 1

    def _review(self):
        try:
            data = allowed.check(self.prompt, self.collect())
        except ValueError as err:
            self.notice = str(err)
            return None
        if not self.summary(data):
            return data  # nothing worth reviewing (a buzz): send at once
        self.data = data
        self.review = True
        return None

    def missing(self, field):
        self.field = field
        return ValueError("enter " + field.label)

    def filled(self, field):
        """``field``'s value; ValueError (the cursor left on the field) when it is empty or bad."""
        try:
            value = field.value()
        except ValueError:
            self.field = field
            raise
        if value is None:
            raise self.missing(field)
        return value


def _number_text(form, field):
    return numtext.wire(*form.filled(field))


class RangeForm(Form):
    def build(self):
        self.unit = allowed.number_unit(self.prompt)
        offer = allowed.boosts(self.prompt)
        self.bottom = NumberField("bottom", "From")
        self.top = NumberField("top", "To")
        names = offer["copy"]
        self.copy = PickField("copy", "Copy", [(n, n) for n in names], False) if names else None
        names = offer["swap"]
        pair = len(names) >= 2
        self.swap1 = PickField("swap1", "Swap", [(n, n) for n in names], False) if pair else None
        self.swap2 = PickField("swap2", "with", [(n, n) for n in names], False) if pair else None
        yes = [("yes", "Double!")]
        self.double = PickField("double", "Double", yes, False) if offer["double"] else None
        return [f for f in (self.bottom, self.top, self.copy, self.swap1, self.swap2, self.double) if f]

    def fields(self):
        if self.copy is not None and not self.copy.empty():
            return [f for f in self.all if f is not self.bottom and f is not self.top]
        return self.all

    def _untyped(self):
        """Nothing typed in From and To, and boosts to go on to."""
        return self.bottom.empty() and self.top.empty() and not self.bottom.neg and len(self.fields()) > 2

    def press(self, key):
        if (key == "ok" and self.layout != protocol.LAYOUT_FIVE and not self.review
                and self.field in (self.bottom, self.top) and self._untyped()):
            # keypad: nothing typed, OK goes on to the boosts (a Swap of seat 37 is OK, next, 3, 7: issue 30)
            # where a review could only say "enter From"
            self.notice = ""
            self.field = self.all[2]
            return None
        if (self.layout == protocol.LAYOUT_FIVE and key == "right" and not self.review
                and self.field is self.bottom and self.bottom.pos == self.bottom._first_slot() and self._untyped()):
            # five buttons: right on an empty From goes on to the boosts, past an empty To (a Swap of seat 37
            # is right, right, four downs: issue 30); OK on From still goes on to To
            self.notice = ""
            self.field = self.all[2]
            return None
        if self.layout == protocol.LAYOUT_FIVE and key == "ok" and not self.review and self.field is self.bottom:
            self.notice = ""
            self._move("next")  # five buttons: OK on From goes on to To
            return None
        if (self.layout == protocol.LAYOUT_FIVE and key == "ok" and not self.review and self.field is self.top
                and self.top.empty() and self.bottom.empty() and len(self.fields()) > 2):
            # nothing typed: OK on To goes on to the boosts (a Copy of seat 37 in 6 presses, issue 30)
            # where a review could only say "enter From"
            self.notice = ""
            self._move("next")
            return None
        return Form.press(self, key)

    def _move(self, where):
        Form._move(self, where)
        if self.layout == protocol.LAYOUT_FIVE and self.field is self.top:
            self.top.suggest_above(self.bottom)  # From 3.5M: To starts at 4M

    def collect(self):
        data = {}
        if self.copy is not None and not self.copy.empty():
            data["copy"] = self.copy.chosen()
        else:
            data["bottom"] = _number_text(self, self.bottom)
            data["top"] = _number_text(self, self.top)
        if self.swap1 is not None and not (self.swap1.empty() and self.swap2.empty()):
            if self.swap1.empty() or self.swap2.empty():
                raise self.missing(self.swap2 if self.swap2.empty() else self.swap1)
            data["swap"] = [self.swap1.chosen(), self.swap2.chosen()]
        if self.double is not None and not self.double.empty():
            data["double"] = True
        return data

    def summary(self, data):
        if "copy" in data:
            lines = ["Copy " + data["copy"]]
        else:
            lines = ["From " + _short(data["bottom"]), "To   " + _short(data["top"])]
            unit = self.unit
            if unit and len(lines[0]) + len(unit) < 16 and len(lines[1]) + len(unit) < 16:
                lines = [lines[0] + " " + unit, lines[1] + " " + unit]  # "From 8800 m"
            elif unit:
                lines.append(("in " + unit)[:16])
        if "swap" in data:
            lines.append("Swap " + data["swap"][0] + "/" + data["swap"][1])
        if data.get("double"):
            lines.append("Double!")
        return lines


def _short(text):
    return numtext.short(*numtext.parse(text), width=11)


# A bet's actions keep their keypad digit from prompt to prompt: check and call (or bet and raise) are
# never offered together, so they share one.
BET_KEYS = {"fold": "1", "check": "2", "call": "2", "bet": "3", "raise": "3", "allin": "4"}


def bet_label(entry):
    """An action's name on the 8 cells of a value; its amount bounds show above the form."""
    name = entry["action"]
    return "All in" if name == "allin" else _cap(name)


def _cap(word):
    return word[:1].upper() + word[1:]  # MicroPython's str has no capitalize()


class BetForm(Form):
    def build(self):
        self.entries = allowed.bet_actions(self.prompt)
        options = [(a["action"], bet_label(a)) for a in self.entries]
        options.sort(key=lambda option: BET_KEYS.get(option[0], "9"))  # listed 1, 2, 3, 4
        self.action = PickField("action", "Action", options, keys=[BET_KEYS.get(o[0], "9") for o in options])
        self.amounts = {}
        for entry in self.entries:
            if entry["action"] in protocol.BET_AMOUNT_ACTIONS:
                self.amounts[entry["action"]] = NumberField("to", "To", whole=True, initial=entry["min"])
        return [self.action]

    def fields(self):
        amount = self.amounts.get(self.action.chosen())
        return [self.action] if amount is None else [self.action, amount]

    def collect(self):
        name = self.action.chosen()
        if name is None:
            raise self.missing(self.action)
        if name not in self.amounts:
            return {"action": name}
        field = self.amounts[name]
        self.filled(field)
        return {"action": name, "to": field.int_value()}

    def summary(self, data):
        name = data["action"]
        if "to" in data:
            return [_cap(name) + " to", numtext.grouped(str(data["to"]))]
        return ["All in" if name == "allin" else _cap(name)]


TENS, UNITS = "_tens", "_units"


def _digit_pair(fields, index):
    """The room's seat as two closed choices (an All In exclusion: ``x_tens`` then ``x_units``, rules.md The
    room 2): True when fields[index] and fields[index + 1] are such a pair, optional, ids digits ("-" none)."""
    if index + 1 >= len(fields):
        return False
    tens, units = fields[index], fields[index + 1]
    if not tens["name"].endswith(TENS) or units["name"] != tens["name"][: -len(TENS)] + UNITS:
        return False
    if tens["required"] or units["required"]:
        return False
    if not all(oid.isdigit() for oid, _ in units["options"]):
        return False
    return any(oid.isdigit() for oid, _ in tens["options"])


class SeatDigitsField(PickField):
    """One list of seat numbers for a tens-and-units pair: a keypad types 3 then 7, five buttons scroll down
    from the highest seat (the tens field's ``last``), so seat 37 of 40 is as quick as a Copy's."""

    def __init__(self, tens, units):
        name = tens["name"][: -len(TENS)]
        self.names = (tens["name"], units["name"])
        self.digits = {}  # seat label -> (tens id, units id)
        unit_ids = [oid for oid, _ in units["options"]]
        options = []
        for tid, _ in tens["options"]:
            if not tid.isdigit():
                continue
            for uid in unit_ids:
                seat = int(tid) * 10 + int(uid)
                if seat < 1 or (tens["last"] is not None and seat > tens["last"]):
                    continue
                label = str(seat)
                if label not in self.digits:
                    self.digits[label] = (tid, uid)
                    options.append((label, label))
        options.sort(key=lambda option: int(option[0]))
        label = tens["label"]
        if label.endswith(": tens"):
            label = label[: -len(": tens")]  # "Exclude seat: tens" is "Exclude seat"
        PickField.__init__(self, name, label, options, False)

    def choices(self):
        """The pair's choices for the chosen seat."""
        if self.index is None:
            return {}
        tens, units = self.digits[self.chosen()]
        return {self.names[0]: tens, self.names[1]: units}


class ChoiceForm(Form):
    def build(self):
        fields = allowed.choice_fields(self.prompt)
        out = []
        index = 0
        while index < len(fields):
            f = fields[index]
            if _digit_pair(fields, index):
                out.append(SeatDigitsField(f, fields[index + 1]))
                index += 2
                continue
            out.append(PickField(f["name"], f["label"], f["options"], f["required"]))
            index += 1
        return out

    def collect(self):
        choices = {}
        for field in self.all:
            if isinstance(field, SeatDigitsField):
                choices.update(field.choices())
            elif not field.empty():
                choices[field.name] = field.chosen()
            elif field.required:
                raise self.missing(field)
        return {"choices": choices}

    def summary(self, data):
        lines = []
        for field in self.all:
            if isinstance(field, SeatDigitsField):
                if not field.empty():
                    lines.append(str(field.label)[:12] + " " + field.chosen())  # "Exclude seat 37"
            elif field.name in data["choices"]:
                lines.append(str(field.label)[:7] + ": " + str(field.options[field.index][1]))
        return lines


class SplitForm(Form):
    """All chips between the sides (rules.md All In 5): the last side takes what is left."""

    def build(self):
        self.total = allowed.split_total(self.prompt) or 0
        self.sides = allowed.split_sides(self.prompt)  # (id, label) pairs
        return [CountField(sid, label, self.total) for sid, label in self.sides[:-1]]

    def rest(self):
        return self.total - sum(f.count or 0 for f in self.all)

    def collect(self):
        split = {}
        for field in self.all:
            if field.empty():
                raise self.missing(field)
            split[field.name] = field.count
        if self.sides:
            if self.rest() < 0:
                raise ValueError("only " + str(self.total) + " chips")
            split[self.sides[-1][0]] = self.rest()
        return {"split": split}

    def summary(self, data):
        return [label[:10] + " " + str(data["split"][sid]) for sid, label in self.sides]


class TokenForm(Form):
    def build(self):
        answers = allowed.token_answers(self.prompt)
        tokens = allowed.token_numbers(self.prompt)
        self.answer = PickField("answer", "Answer", [(a, a) for a in answers])
        self.token = PickField("token", "Token", [(t, str(t)) for t in tokens], numbered=True)
        return [self.answer, self.token]

    def collect(self):
        for field in self.all:
            if field.empty():
                raise self.missing(field)
        return {"answer": self.answer.chosen(), "token": self.token.chosen()}

    def summary(self, data):
        return ["Answer " + data["answer"], "Token  " + str(data["token"])]


class NumberForm(Form):
    """One exact number (a quiz night's tie-break, rules.md Quiz night 4): typed like a range's From, the
    prompt's unit shown beside it and never typed."""

    def build(self):
        self.unit = allowed.number_unit(self.prompt)
        self.number = NumberField("number", "Number")
        return [self.number]

    def _move(self, where):
        pass  # one field: leaving it at either end keeps the cursor in it (no wrap to the other end)

    def collect(self):
        return {"number": _number_text(self, self.number)}

    def summary(self, data):
        return [numtext.short(*numtext.parse(data["number"]), width=16)] + ([self.unit[:16]] if self.unit else [])


class BuzzForm(Form):
    """Every key buzzes at once; the handset stamps the press time (rules.md Buzzer 2)."""

    def press(self, key):
        return {}


_FORMS = {
    protocol.RANGE: RangeForm,
    protocol.BET: BetForm,
    protocol.CHOICE: ChoiceForm,
    protocol.SPLIT: SplitForm,
    protocol.TOKEN: TokenForm,
    protocol.BUZZ: BuzzForm,
    protocol.NUMBER: NumberForm,
}
