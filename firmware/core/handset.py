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


class Handset:
    def __init__(self, box, handset_id, transport, screen=None, layout="keypad", clock_ms=None, name=None, seq=0):
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
        self.last_ack = None
        self.acked = None  # (seq, prompt id) of the last input acked ok: said in every hello
        self.time = None  # the appliance's last clock message (time topic)
        self.online = False
        self.battery = None  # percent, set by the port
        self.rssi = None
        self.view = VIEW_IDLE
        self.message = ""  # the ack's message (locked in / refused)
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
        self.render()

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
        hello = protocol.make_hello(self.id, self.name, FIRMWARE, self.layout, self.clock_ms(), acked=self.acked)
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
            self._send_pending()
        if self._box_changed():
            self.render()

    # -- the box's heartbeat ---------------------------------------------------------------------------
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
        if same and self.view in (VIEW_LOCKED, VIEW_SENT):
            return  # an update of the prompt already answered: stay locked in
        self.message = ""
        self.view = VIEW_INFO if self.editor is None else VIEW_EDIT

    def _on_ack(self, obj):
        ack = protocol.parse_ack(obj)
        self.last_ack = ack
        if self.pending is None or ack["seq"] != self.pending["seq"]:
            return  # a late ack of an input already settled, or of none this handset sent
        answered = self.pending["prompt"]
        if ack["ok"] and ack.get("prompt") == answered:
            # the last acked input, said in every hello: our own input's seq and prompt id, never an
            # ack's word for it (an ack naming another prompt, 970 characters of one, made every
            # later hello too big to send, and the handset could never connect again)
            self.acked = (ack["seq"], answered)
        self.pending = None
        if self.prompt is None or self.prompt.get("id") != answered:
            return  # the screen moved on to a new prompt meanwhile
        self.message = ack["msg"]
        if ack["ok"]:
            self.view = VIEW_LOCKED
        else:
            self.view = VIEW_REFUSED
            if self.editor is not None:
                self.editor.back()

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
        if self.view == VIEW_REFUSED:
            self.view = VIEW_EDIT  # any key dismisses the refusal; the values are still there
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
            raise ValueError("still sending")
        seq = self.seq + 1 if self.seq < protocol.MAX_SEQ else 1
        prompt = self.prompt
        msg = protocol.make_input(seq, prompt["id"], prompt["kind"], clean, self.id, self.clock_ms())
        protocol.encode(msg)  # over MAX_PAYLOAD raises (a ValueError) before anything changes
        self.seq = seq
        self.pending = msg
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
