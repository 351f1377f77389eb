# One handset: the prompt it shows, the input being edited, the input sent and not yet acknowledged.
# Hardware and transport are injected, so the same class runs on an ESP32 (umqtt.simple), a Pi Zero
# (paho-mqtt), in `quizbox handset-sim` and in tests (a fake transport).
#
# transport: publish(topic: str, payload: bytes, retain: bool = False) and subscribe(topic: str).
# screen: a framebuf.FrameBuffer-like object (fill, text, rect, fill_rect, hline, pixel), optionally
#         with show() (the SSD1306 driver, luma bridge); None for a headless handset.

from firmware import protocol
from firmware.core import allowed, editor

FIRMWARE = "qb-1.0"
RESEND_MS = 3000  # an unacked input is sent again after this long on a live connection
GIVE_UP_SENDS = 10  # ...until it went this often (about 30 s) with no ack: then the player is told
NO_ACK = "The box did not answer. Send again?"  # said when an input is given up (at most 48 characters)
NOT_TAKEN = "Your last answer was not taken"  # an input refused stale that cannot be offered again
SEND_AGAIN = "Not sent: again?"  # the review page's head when the box restarted before taking it

# what the screen shows (ui.draw reads it)
VIEW_IDLE = "idle"  # no prompt yet
VIEW_INFO = "info"  # an info prompt (a message or "waiting for others")
VIEW_EDIT = "edit"  # editing an input (the editor may be on its review page)
VIEW_SENT = "sent"  # input sent, ack awaited
VIEW_LOCKED = "locked"  # ack ok: locked in
VIEW_REFUSED = "refused"  # ack refused: the message, then back to editing with the values kept

try:
    from time import ticks_diff as _elapsed  # MicroPython: ticks wrap around
    from time import ticks_ms as _ticks_ms
except ImportError:  # CPython
    import time

    def _ticks_ms():
        return int(time.monotonic() * 1000)

    def _elapsed(now, then):
        return now - then


def as_known(obj):
    """A prompt of a kind this firmware does not know (a later protocol revision's) as an info screen of its
    title and text: nothing to enter, but the player sees what the box asks (docs/protocol.md section 6)."""
    kind = obj.get("kind") if isinstance(obj, dict) else None
    if not isinstance(kind, str) or kind in protocol.PROMPT_KINDS:
        return obj  # known, or malformed: parse_prompt decides
    shown = {"kind": protocol.INFO}
    for key in ("v", "id", "title", "text", "private"):
        if key in obj:
            shown[key] = obj[key]
    return shown


def asked(prompt):
    """What a prompt asks (kind, title, text): a prompt re-sent under a new id after the box restarted
    asks the same, and an answer to the old one may be offered for it again."""
    return [prompt.get("kind"), prompt.get("title"), prompt.get("text")]


class PendingFile:
    """The unacked input in a small file, written before it is sent and removed when it is settled, so a
    reset or a watchdog reboot does not lose what the player typed; and the last acked input until the
    next prompt asks something else, so a box that restored from its good copy gets it back (protocol
    1.3). load() gives what was kept (None when nothing, or the file is unreadable: said on the console,
    nothing else is lost)."""

    def __init__(self, path):
        self.path = path

    def load(self):
        import json

        try:
            with open(self.path) as f:
                text = f.read()
        except OSError:
            return None
        try:
            kept = json.loads(text)
        except ValueError:
            kept = None
        held = isinstance(kept, dict) and (isinstance(kept.get("input"), dict) or isinstance(kept.get("acked"), dict))
        if not held:
            print("pending file unreadable, dropped:", text[:40])
            self.clear()
            return None
        return kept

    def save(self, kept):
        import json
        import os

        with open(self.path + ".new", "w") as f:
            f.write(json.dumps(kept))
        os.rename(self.path + ".new", self.path)  # whole or not at all, even across a power cut

    def clear(self):
        import os

        try:  # noqa: SIM105 - MicroPython has no contextlib
            os.remove(self.path)
        except OSError:
            pass  # nothing kept


class Handset:
    def __init__(
        self, box, handset_id, transport, screen=None, layout="keypad", clock_ms=None, name=None, seq=0, keep=None
    ):
        """``keep``: where the unacked input outlives a reboot (a PendingFile; None: in memory only)."""
        if layout not in protocol.LAYOUTS:
            raise ValueError("unknown layout " + str(layout))
        self.box = box
        self.id = handset_id
        self.transport = transport
        self.screen = screen
        self.layout = layout
        self.clock_ms = clock_ms or _ticks_ms
        self.name = name
        self.seq = seq  # the last seq used; the first input is seq + 1
        self.prompt = None
        self.editor = None
        self.pending = None  # the unacked input message (a dict as protocol.make_input builds it)
        self.pending_sent = 0  # clock_ms of its last sending
        self.pending_sends = 0  # how often it went on a live connection
        self.pending_asked = None  # asked() of the prompt it answers
        self.keep = keep
        self.last_ack = None
        self.acked = None  # (seq, prompt id) of the last input acked ok: said in every hello
        # that input itself (seq, prompt, kind, data, mark), kept until a prompt asks something else: a box
        # that restored from its good copy applies it again (protocol 1.3)
        self.acked_input = None
        self.time = None  # the appliance's last clock message (time topic)
        self.online = False
        self.battery = None  # percent, set by the port
        self.rssi = None
        self.view = VIEW_IDLE
        self.message = ""  # the ack's message (locked in / refused)
        self.seat = None  # its team's seat number in the game, from the box's result acks (protocol 1.4)
        self.result = None  # after a question's reveal: the seat's result and place (protocol.parse_result)
        self.team_in = None  # (prompt id, words): another device of the team answered that prompt (1.4)
        self.status = ""  # what the link is doing while offline ("joining Wi-Fi", "box not found"), or ""
        self.render_errors = 0
        # the appliance's heartbeat (docs/protocol.md, "The box's heartbeat"): when it was last heard on
        # clock_ms's clock (None: never), its boot and its period; box_silent is what the screen shows
        self.box_heard = None
        self.box_boot = None
        self.box_every = protocol.HEARTBEAT_MS
        self.box_silent = False  # online and not heard for the stale time: "box not answering"
        self._box_since = 0  # the later of the last heartbeat and the last connect
        self._topics = {
            protocol.prompt_topic(box, handset_id): self._on_prompt,
            protocol.ack_topic(box, handset_id): self._on_ack,
            protocol.time_topic(box, handset_id): self._on_time,
            protocol.appliance_heartbeat_topic(box): self._on_heartbeat,
        }
        self._restore()
        self.render()

    # -- the unacked input across a reboot ------------------------------------------------------------
    def _restore(self):
        """The input kept from before a reset, to be sent again (same seq) once connected."""
        kept = self.keep.load() if self.keep is not None else None
        if kept is None:
            return
        acked = kept.get("acked")
        if isinstance(acked, dict):
            try:
                said = protocol.parse_hello(self.id, {"acked": acked})["acked"]
                self.acked_input = acked
                self.acked = (said["seq"], said["prompt"])
            except protocol.ProtocolError as err:
                print("acked input dropped:", err)
        if isinstance(kept.get("input"), dict):
            try:
                protocol.parse_input(self.id, kept["input"])
                self.pending = kept["input"]
                self.pending_asked = kept.get("asked")
                self.view = VIEW_SENT
            except protocol.ProtocolError as err:
                print("pending input dropped:", err)
        self._kept()

    def _kept(self):
        """The unacked input and the last acked one to the file (removed when there is neither)."""
        if self.keep is None:
            return
        try:
            if self.pending is None and self.acked_input is None:
                self.keep.clear()
            else:
                self.keep.save({"input": self.pending, "asked": self.pending_asked, "acked": self.acked_input})
        except OSError as err:  # a full or broken flash: the input still goes, from RAM
            print("pending input not kept:", repr(err))

    def _settle(self):
        """The pending input is done with (acked, moot or given up)."""
        self.pending = None
        self.pending_sends = 0
        self.pending_asked = None
        self._kept()

    # -- connection ---------------------------------------------------------------------------------
    def connected(self):
        """Call on every (re)connect: subscribe, say hello, re-send the unacked input (same seq)."""
        try:
            for topic in self._topics:
                self.transport.subscribe(topic)
            self._hello()
            self.online = True
            self._box_since = self.clock_ms()  # the box gets the stale time to be heard from again
            self._box_changed()
            if self.pending is not None:
                self._send_pending()
        except OSError:
            self.online = False  # the port's reconnect loop calls connected() again
            raise
        finally:
            self.render()

    def _hello(self):
        """Say hello, with the last acked input (the appliance finds what it lost from it)."""
        acked = self.acked_input if self.acked_input is not None else self.acked
        hello = protocol.make_hello(self.id, self.name, FIRMWARE, self.layout, self.clock_ms(), acked=acked,
                                    results=True)
        self.transport.publish(protocol.hello_topic(self.box, self.id), protocol.encode(hello))

    def disconnected(self):
        self.online = False
        self._box_changed()
        self.render()

    def set_status(self, text):
        """The port's link says what it is doing while offline; the screen shows it."""
        if text != self.status:
            self.status = text
            self.render()

    def tick(self):
        """Call now and then: re-sends an unacked input after RESEND_MS on a live connection, and redraws
        once when the box has gone quiet (no heartbeat for the stale time)."""
        due = self.pending is not None and _elapsed(self.clock_ms(), self.pending_sent) >= RESEND_MS
        if due and self.online:
            if self.pending_sends >= GIVE_UP_SENDS:
                self._give_up()
            else:
                self._send_pending()
        if self._box_changed():
            self.render()

    # -- the box's heartbeat ---------------------------------------------------------------------------
    def _give_up(self):
        """A box that never acks: stop sending, say so, keep the values to send again (a new seq)."""
        answered = self.pending["prompt"]
        self._settle()
        if self.prompt is not None and self.prompt.get("id") == answered and self.editor is not None:
            self.editor.back()
            self.message = NO_ACK
            self.view = VIEW_REFUSED
        self.render()

    def _stale_ms(self):
        return max(protocol.STALE_MS, 3 * self.box_every)

    def box_answering(self):
        """Whether a heartbeat came within the stale time (three of its periods, at least STALE_MS).
        False before the first one: a box never heard from is not known to answer."""
        heard = self.box_heard
        return heard is not None and _elapsed(self.clock_ms(), heard) < self._stale_ms()

    def _box_changed(self):
        """Update box_silent (what the footer shows); True when it changed. Silent means online and
        nothing heard for the stale time since the later of the last heartbeat and the connect, so a
        connect does not flash the warning before the retained heartbeat arrives."""
        silent = self.online and _elapsed(self.clock_ms(), self._box_since) >= self._stale_ms()
        if silent == self.box_silent:
            return False
        self.box_silent = silent
        return True

    def _on_heartbeat(self, obj):
        """The appliance is alive. Quiet (no redraw) unless the box was shown silent. A new boot (the box
        restarted while we stayed connected to the broker): say hello again with the last acked input and
        re-send the unacked one, as on a reconnect."""
        beat = protocol.parse_heartbeat(obj)
        now = self.clock_ms()
        self.box_heard = self._box_since = now
        self.box_every = beat["every"]
        previous, self.box_boot = self.box_boot, beat["boot"]
        online = self.online
        if previous is not None and previous != beat["boot"] and online:
            try:
                self._hello()
                if self.pending is not None:
                    self._send_pending()
            except OSError:
                self.online = False
        return not self._box_changed() and self.online == online

    def telemetry(self):
        msg = protocol.make_telemetry(self.battery, self.rssi, FIRMWARE, self.layout)
        self.transport.publish(protocol.telemetry_topic(self.box, self.id), protocol.encode(msg))

    # -- messages from the appliance -------------------------------------------------------------------
    def on_message(self, topic, payload):
        """A message on one of our topics; a malformed one is dropped (returns False), nothing else
        changes."""
        handler = self._topics.get(topic)
        if handler is None:
            return False
        try:
            obj = protocol.decode(payload)
            quiet = handler(obj)
        except protocol.ProtocolError:
            return False
        if not quiet:
            self.render()
        return True

    def _on_prompt(self, obj):
        prompt = protocol.parse_prompt(as_known(obj))
        same = self.prompt is not None and self.prompt.get("id") == prompt["id"]
        if same and self.prompt == prompt:
            return  # the same prompt again (after a reconnect): keep what is being typed
        self.prompt = prompt
        self.editor = editor.make(prompt, self.layout)
        kept = self.acked_input
        if kept is not None and prompt["kind"] != protocol.INFO and protocol.prompt_mark(prompt) != kept["mark"]:
            self.acked_input = None  # a prompt that asks something else: the box has moved on
            self._kept()
        if same and self.view in (VIEW_LOCKED, VIEW_SENT):
            return  # an update of the prompt already answered: stay locked in
        if self.team_in is not None and self.team_in[0] == prompt["id"]:
            self.message = self.team_in[1]  # the team's answer to this prompt is in already (room-6)
            self.view = VIEW_LOCKED
            return
        self.message = ""
        if self.pending is not None and self.pending["prompt"] == prompt["id"]:
            self.view = VIEW_SENT  # an input kept across a reboot: on its way, not to be typed again
            return
        self.view = VIEW_INFO if self.editor is None else VIEW_EDIT

    def _on_ack(self, obj):
        if obj.get("re") == protocol.RESULT_ACK:  # the seat's number, result and place (protocol 1.4)
            result = protocol.parse_result(obj)
            self.seat = result["seat"]
            self.result = result if result["result"] is not None else None
            return None
        ack = protocol.parse_ack(obj)
        self.last_ack = ack
        if ack.get("re") == protocol.TEAM_ACK:
            # another device of the team answered (protocol 1.4): its answer is in, shown here too
            # (kept: the team ack may come before the prompt it names, and while this device's own input
            # for the older screen is still on its way, to be refused already_in)
            self.team_in = (ack.get("prompt"), ack["msg"])
            waiting = self.pending is not None and self.pending["prompt"] == ack.get("prompt")
            if not waiting and self.prompt is not None and ack.get("prompt") == self.prompt.get("id"):
                self.message = ack["msg"]
                self.view = VIEW_LOCKED
            return
        if self.pending is None or ack["seq"] != self.pending["seq"]:
            return  # a late ack of an input already settled, or of none this handset sent
        answered = self.pending["prompt"]
        if ack["ok"] and ack.get("prompt") == answered:
            # the last acked input, said in every hello: our own input's seq and prompt id, never an
            # ack's word for it (an ack naming another prompt, 970 characters of one, made every
            # later hello too big to send, and the handset could never connect again)
            self.acked = (ack["seq"], answered)
            asked_then = self.pending_asked or [self.pending["kind"], "", ""]
            self.acked_input = {"seq": ack["seq"], "prompt": answered, "kind": self.pending["kind"],
                                "data": self.pending["data"],
                                "mark": protocol.prompt_mark({"kind": asked_then[0], "title": asked_then[1],
                                                              "text": asked_then[2]})}
        lost, lost_asked = self.pending, self.pending_asked
        self._settle()
        if self.prompt is None or self.prompt.get("id") != answered:
            # the screen moved on to a new prompt meanwhile; refused stale (the box restarted, or the
            # question closed before it came), the answer is offered again or the player told
            if not ack["ok"] and ack.get("code") == "stale":
                self._not_taken(lost, lost_asked)
            return
        self.message = ack["msg"]
        if ack["ok"] or ack.get("code") == "already_in":  # already in: the team's answer is (room-6)
            self.view = VIEW_LOCKED
        else:
            self.view = VIEW_REFUSED
            if self.editor is not None:
                self.editor.back()

    def _not_taken(self, lost, lost_asked):
        """An input refused for a prompt no longer shown. The same question asked again (the box
        restarted: a new id): its review page with the answer, one OK sends it. Else said in words."""
        form, prompt = self.editor, self.prompt
        if form is not None and not form.review and self.view == VIEW_EDIT and lost_asked == asked(prompt):
            try:
                form.data = allowed.check(prompt, lost["data"])
                form.review = True
                form.notice = SEND_AGAIN
                return
            except ValueError:
                pass  # the new prompt does not allow it (the bounds changed): said in words below
        self.message = NOT_TAKEN
        self.view = VIEW_REFUSED

    def _on_time(self, obj):
        """A clock ping: answered at once, and nothing on the screen changes (no render, no I2C push,
        so pings never hold up key scanning). Returns True: quiet."""
        self.time = obj
        answer = protocol.answer_ping(obj, self.clock_ms())  # the buzzer's clock offset (NTP-style)
        if answer is not None:
            try:
                self.transport.publish(protocol.clock_topic(self.box, self.id), protocol.encode(answer))
            except OSError:
                self.online = False
        return True

    # -- the player ------------------------------------------------------------------------------------
    def press(self, key, at=None):
        """One button press in this handset's layout; returns the seq when it sent an input. ``at``: when
        the key went down on clock_ms's clock (the port's pin-edge stamp), else now."""
        if key not in editor.LAYOUT_KEYS.get(self.layout, ()):  # a touch handset (a phone) only submits
            raise ValueError("no key " + str(key) + " on a " + self.layout + " handset")
        seq = None
        if self.view == VIEW_REFUSED:  # any key dismisses the refusal; the values are still there
            self.view = VIEW_EDIT if self.editor is not None else VIEW_INFO
        elif self.view == VIEW_EDIT and self.editor is not None:
            data = self.editor.press(key)
            if data is not None:
                if self.prompt["kind"] == protocol.BUZZ and "pressed" not in data:
                    data = {"pressed": self.clock_ms() if at is None else at}
                try:
                    seq = self.submit(data)
                except ValueError as err:
                    self.editor.notice = str(err)
                    self.editor.back()
        self.render()
        return seq

    def submit(self, data):
        """Send ``data`` as the input for the current prompt; ValueError if the prompt does not allow it
        (nothing is sent then) or an input is still unacknowledged. Returns the seq."""
        clean = allowed.check(self.prompt, data)
        if self.pending is not None:
            if self.pending["prompt"] == self.prompt["id"]:
                raise ValueError("still sending")
            self._settle()  # an input for a prompt no longer shown is moot (protocol section 9)
        seq = self.seq + 1 if self.seq < protocol.MAX_SEQ else 1
        prompt = self.prompt
        msg = protocol.make_input(seq, prompt["id"], prompt["kind"], clean, self.id, self.clock_ms())
        protocol.encode(msg)  # over MAX_PAYLOAD raises (a ValueError) before anything changes
        self.seq = seq
        self.pending = msg
        self.pending_asked = asked(prompt)
        self.pending_sends = 0
        self._kept()  # before it is sent: from here on a reboot sends it again
        self.view = VIEW_SENT
        self.message = ""
        if self.online:
            self._send_pending()
        self.render()
        return self.seq

    def _send_pending(self):
        """Publish the unacked input; a dead connection keeps it pending for the next connected()."""
        self.pending_sent = self.clock_ms()
        try:
            self.transport.publish(protocol.input_topic(self.box, self.id), protocol.encode(self.pending))
            self.pending_sends += 1
        except OSError:
            self.online = False

    # -- screen ------------------------------------------------------------------------------------------
    def render(self):
        """Draw the view and show it. A bug in a screen draws the error screen instead, and a display
        that fails is the display's business: neither reaches the caller (a message handler, a key)."""
        if self.screen is None:
            return
        from firmware.core import ui

        try:
            ui.draw(self.screen, self)
        except Exception as err:  # noqa: BLE001 - the handset must go on: its state is already right
            self.render_errors += 1
            print("screen error:", repr(err))
            ui.error_screen(self.screen, self)
        show = getattr(self.screen, "show", None)
        if show is not None:
            try:
                show()
            except Exception as err:  # noqa: BLE001 - e.g. an I2C NACK from a driver that raises
                print("display error:", repr(err))
