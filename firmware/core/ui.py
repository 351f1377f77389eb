# The handset's 128x64 screen: 16 columns x 8 rows of 8x8 text. Draws on any framebuf-like object
# (MicroPython framebuf.FrameBuffer / SSD1306 driver on a device, firmware.core.fb on CPython).
#
# Row 0 is the status bar (title, connection, battery); rows 1-6 the body; row 7 the footer (a notice,
# the player's own info or the keys).

from firmware import protocol
from firmware.core import allowed, fields
from firmware.core import editor as forms

COLS = 16
ROWS = 8
BODY = 6  # rows 1..6
BOX_SILENT = "box: no answer"  # the footer while the box's heartbeat is stale ("box not answering" is 17)


def clean(text):
    """What the 8x8 font can draw: ASCII, anything else as "?" (one cell per character). Plain ASCII
    comes back as it is, without a copy."""
    text = str(text)
    for ch in text:
        if not " " <= ch <= "~":
            return "".join([c if " " <= c <= "~" else "?" for c in text])
    return text


def wrap(text, width=COLS):
    """Lines of at most ``width`` characters, broken at spaces where possible."""
    lines = []
    for para in clean(text).split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > width:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def private_lines(prompt):
    """The player's own info (your range, tokens, chips) as short lines."""
    info = prompt.get("private") if prompt else None
    if not info:
        return []
    if isinstance(info, dict):
        out = []
        for key in info:
            value = info[key]
            if isinstance(value, (list, tuple)):
                value = ",".join(str(v) for v in value)
            out.append(str(key) + ": " + str(value))
        return out
    if isinstance(info, (list, tuple)):
        return [str(v) for v in info]
    return [str(info)]


def text_row(fb, row, text, invert=False, col=0):
    y = row * 8
    if invert:
        fb.fill_rect(col * 8, y, COLS * 8 - col * 8, 8, 1)
    fb.text(clean(text)[: COLS - col], col * 8, y, 0 if invert else 1)


def centered(fb, y, text, c=1):
    """``text`` centred on pixel row ``y``."""
    text = clean(text)[:COLS]
    fb.text(text, (COLS * 8 - len(text) * 8) // 2, y, c)


SHORT_UNITS = {"points": "pts", "correct": "ok"}


def ordinal(n):
    if 10 <= n % 100 <= 20:
        return str(n) + "th"
    return str(n) + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def result_line(result):
    """A seat's result and place in one row: "+3 pts 2nd/40" (the unit left out where it would not fit)."""
    change = result["result"]
    head = ("+" if change >= 0 else "") + str(change)
    place = ordinal(result["place"]) + "/" + str(result["of"])
    unit = SHORT_UNITS.get(result["unit"], result["unit"])
    line = head + " " + unit + " " + place
    return line if len(line) <= COLS else head + " " + place


# -- status bar ------------------------------------------------------------------------------------------
def status_bar(fb, handset, title):
    fb.fill_rect(0, 0, 128, 8, 1)
    seat = getattr(handset, "seat", None)
    if seat:  # its team's seat number, right of the title: "Q3      #37"
        tag = "#" + str(seat)
        x = 102 - 8 * len(tag)
        fb.text(tag, x, 0, 0)
        fb.text(clean(title)[: (x - 2) // 8], 0, 0, 0)
    else:
        fb.text(clean(title)[:11], 0, 0, 0)
    link(fb, 104, 0, handset.online, handset.box_silent)
    battery(fb, 114, 0, handset.battery)


def link(fb, x, y, online, silent=False):
    """An antenna: three rising bars when online, a cross when offline. Online but the box silent (the
    footer's BOX_SILENT), the tallest bar is broken into a "!": the broker answers, the box does not."""
    if online:
        fb.fill_rect(x, y + 5, 2, 2, 0)
        fb.fill_rect(x + 3, y + 3, 2, 4, 0)
        fb.fill_rect(x + 6, y + 1, 2, 6, 0)
        if silent:
            fb.hline(x + 6, y + 5, 2, 1)
    else:
        for i in range(6):
            fb.pixel(x + 1 + i, y + 1 + i, 0)
            fb.pixel(x + 6 - i, y + 1 + i, 0)


def battery(fb, x, y, percent):
    fb.rect(x, y + 1, 12, 6, 0)
    fb.fill_rect(x + 12, y + 3, 2, 2, 0)
    if percent is None:
        fb.pixel(x + 6, y + 3, 0)  # unknown: a dot
        return
    fb.fill_rect(x + 1, y + 2, (max(0, min(100, percent)) * 10 + 50) // 100, 4, 0)


# -- screens -------------------------------------------------------------------------------------------
def draw(fb, handset):
    fb.fill(0)
    prompt = handset.prompt
    title = (prompt.get("title") if prompt else "") or "Quizbox"
    status_bar(fb, handset, title)
    view = handset.view
    if view == "idle":
        idle(fb, handset)
    elif view == "info":
        info(fb, handset)
    elif view == "sent":
        sent(fb, handset)
    elif view == "locked":
        locked(fb, handset)
    elif view == "refused":
        refused(fb, handset)
    elif handset.editor is not None and handset.editor.review:
        review(fb, handset)
    elif handset.editor is not None:
        edit(fb, handset)
    editing = view == "edit" and handset.editor is not None and handset.editor.notice
    why = ""  # a notice about the entry goes first
    if not handset.online and view not in ("idle", "sent"):  # those two say "connecting", "offline"
        why = handset.status or "no connection"
    elif handset.online and handset.box_silent:  # connected, but no heartbeat for the stale time
        why = BOX_SILENT
    if why and not editing:
        text_row(fb, 7, ("  " + why) if len(why) <= 14 else why, True)
    elif view in ("info", "locked", "idle") and getattr(handset, "result", None):
        text_row(fb, 7, result_line(handset.result))  # the seat's last result and place, under the screen


def error_screen(fb, handset):
    """Drawn when a screen could not be drawn (a bug): the handset still works and says so."""
    fb.fill(0)
    status_bar(fb, handset, "Quizbox")
    centered(fb, 16, "screen error")
    centered(fb, 28, "keys still work")
    kind = handset.prompt.get("kind", "") if handset.prompt else ""
    centered(fb, 44, kind)


def body(fb, lines, first=1):
    for i in range(min(len(lines), 1 + BODY - first)):
        text_row(fb, first + i, lines[i])


def idle(fb, handset):
    centered(fb, 16, "QUIZBOX")
    centered(fb, 26, handset.name or handset.id)
    centered(fb, 44, "waiting for game" if handset.online else (handset.status or "connecting") + "...")


def info(fb, handset):
    prompt = handset.prompt
    lines = wrap(prompt.get("text") or "") if prompt.get("text") else []
    extra = prompt.get("lines")
    for line in extra if isinstance(extra, list) else []:
        lines += wrap(line)
    if prompt.get("wait"):
        # the waiting-for-others screen: unmistakable, with the player's own info below
        fb.rect(4, 11, 120, 20, 1)
        centered(fb, 13, "Waiting for")
        centered(fb, 21, "others...")
        body(fb, (private_lines(prompt) + lines)[:3], 4)
    else:
        body(fb, (lines + private_lines(prompt))[:BODY])


def sent(fb, handset):
    centered(fb, 16, "Sending..." if handset.online else "Offline")
    centered(fb, 26, "" if handset.online else "sends when back")
    body(fb, private_lines(handset.prompt)[:2], 5)


def locked(fb, handset):
    # a check mark and the ack's message
    for i in range(4):
        fb.fill_rect(50 + i * 2, 17 + i * 2, 3, 3, 1)
    for i in range(7):
        fb.fill_rect(58 + i * 3, 23 - i * 2, 3, 3, 1)
    centered(fb, 30, "Locked in")
    msg = wrap(handset.message)[:1] if handset.message else []
    body(fb, msg + private_lines(handset.prompt)[: 2 - len(msg)], 5)


def refused(fb, handset):
    text_row(fb, 1, "Refused:", True)
    body(fb, wrap(handset.message or "not allowed")[:3], 2)
    text_row(fb, 6, "any key: edit")


def review(fb, handset):
    form = handset.editor
    text_row(fb, 1, form.notice or "Send this?")  # "Not sent: again?" when the box restarted before it
    body(fb, [clean(s) for s in form.summary(form.data)][:5], 2)
    # the keypad's letter keys (docs/hardware.md): D is OK, B deletes
    keys = "D=send  B=back" if handset.layout == protocol.LAYOUT_KEYPAD else "OK=send  <=back"
    text_row(fb, 7, keys, True)


def edit(fb, handset):
    form = handset.editor
    prompt = handset.prompt
    kind = prompt["kind"]
    if kind == protocol.BUZZ:
        buzz(fb, prompt)
        return
    head = wrap(prompt.get("text") or "")
    extra = context_lines(form, prompt, handset.layout)
    rows = field_rows(form, handset.layout)
    head_rows = min(len(head), 2)  # the question stays in sight; the fields scroll below it
    if form.unit:  # the unit's line takes the question's second line rather than a field's row
        head_rows = min(head_rows, max(1, BODY - len(extra) - len(rows)))
    lines = head[:head_rows] + extra
    body(fb, lines)
    first = 1 + len(lines)
    room = 1 + BODY - first
    current = 0
    for i in range(len(rows)):
        if rows[i][2]:
            current = i
    start = max(0, min(current - room + 1, len(rows) - room))
    for i in range(start, min(len(rows), start + room)):
        label, value, here, cursor = rows[i]
        row = first + i - start
        text = (label + ":")[:7]
        text_row(fb, row, (">" if here else " ") + text, False)
        value = clean(value)[:8]
        if here:
            fb.fill_rect(64, row * 8, 64, 8, 1)
        fb.text(value, 64, row * 8, 0 if here else 1)
        if here and cursor is not None and cursor < 8:
            # the digit being scrolled: lit on dark, underlined, inside the inverted value
            fb.fill_rect(64 + cursor * 8, row * 8, 8, 8, 0)
            fb.text(value[cursor : cursor + 1], 64 + cursor * 8, row * 8, 1)
            fb.hline(64 + cursor * 8, row * 8 + 7, 8, 1)
    footer(fb, form, prompt, handset.layout)


def number_window(value, cursor, width=8):
    """A window of ``width`` characters of a long value that keeps the cursor in sight."""
    if len(value) <= width:
        return value, cursor
    start = 0 if cursor is None else max(0, min(cursor - width + 2, len(value) - width))
    return value[start : start + width], None if cursor is None else cursor - start


def field_rows(form, layout):
    """(label, value, is current, cursor column) for each field shown."""
    rows = []
    for field in form.fields():
        here = field is form.field
        value, cursor = field.shown(layout if here else protocol.LAYOUT_KEYPAD)
        typing = here and layout == protocol.LAYOUT_KEYPAD
        if typing and not isinstance(field, fields.PickField):
            value += "_"  # where the next key lands
        if isinstance(field, fields.NumberField):
            value, cursor = number_window(value, len(value) - 1 if typing else cursor)
            cursor = None if typing or not here else cursor
        rows.append((str(field.label), value, here, cursor))
    if isinstance(form, forms.SplitForm) and form.sides:
        rows.append((form.sides[-1][1], str(form.rest()), False, None))
    return rows


def numbered(field, most=2):
    """A pick's options with their keypad digits ("1 Fold  2 Call" / "3 Raise 4 All in"), packed into at
    most ``most`` lines of the screen's width."""
    lines = []
    line = ""
    for i in range(len(field.options)):
        item = field.key_of(i) + " " + clean(field.options[i][1])[:7]
        if line and len(line) + 2 + len(item) > COLS:
            lines.append(line)
            line = ""
        line = item if not line else line + "  " + item
    if line:
        lines.append(line)
    return lines[:most]


def context_lines(form, prompt, layout=protocol.LAYOUT_KEYPAD):
    """Facts a form needs in sight: a bet's pot and stack, a split's total; on a keypad, the numbered
    options of the pick being made."""
    keypad = layout == protocol.LAYOUT_KEYPAD
    if isinstance(form, forms.BetForm):
        line = "Pot " + str(prompt.get("pot", "?"))
        if prompt.get("to_call"):
            line += " call " + str(prompt["to_call"])
        lines = [line, "Stack " + str(prompt.get("stack", "?"))]
        if keypad and form.field is form.action:
            return lines + numbered(form.action)
        entry = allowed.bet_action(prompt, form.action.chosen())
        if entry is not None and entry["action"] in protocol.BET_AMOUNT_ACTIONS:
            high = entry["max"]
            lines.append("to " + str(entry["min"]) + ("+" if high is None else ".." + str(high)))
        return lines
    if isinstance(form, forms.SplitForm):
        return ["Split all " + str(form.total)]
    if isinstance(form, (forms.NumberForm, forms.RangeForm)):
        return [("in " + clean(form.unit))[:COLS]] if form.unit else []  # the unit is shown, never typed
    if keypad and isinstance(form, forms.ChoiceForm) and isinstance(form.field, fields.PickField):
        return numbered(form.field)
    return []


def footer(fb, form, prompt, layout):
    if form.notice:
        text_row(fb, 7, form.notice, True)
        return
    field = form.field
    if isinstance(field, fields.PickField) and not field.empty():
        chosen = clean(field.options[field.index][1])
        if len(chosen) > 8:  # longer than the value cell: the whole of it here
            text_row(fb, 7, chosen)
            return
    mine = private_lines(prompt)
    if mine:
        text_row(fb, 7, mine[0])
        return
    if layout == protocol.LAYOUT_KEYPAD:
        hint = "C=next D=ok" if len(form.fields()) > 1 else "D=ok"
    else:
        hint = "^v edit <> move"
    text_row(fb, 7, hint)


def buzz(fb, prompt):
    if prompt.get("armed"):
        fb.fill_rect(14, 14, 100, 36, 1)
        fb.text("BUZZ!", 44, 24, 0)
        fb.text("any key", 36, 36, 0)
    else:
        fb.rect(14, 14, 100, 36, 1)
        centered(fb, 20, "not armed")
        centered(fb, 34, "wait...")
