"""Phone handsets: the web server is each phone's MQTT client, running the firmware's own handset core.

Why not MQTT over WebSockets from the phone: the broker would have to be reachable from the pub's Wi-Fi,
and a browser holding broker credentials could publish on any handset's topics. Here the broker stays
on the box; a phone only reaches this server, and a signed cookie binds the browser to one handset id,
so it can only ever act as its own handset. The handset core (``firmware.core.handset.Handset``) is the
one a hardware handset runs: the same hello, the same checks of an input against its prompt
(``firmware.core.allowed``), the same sequence numbers, re-sending and acks.

The page learns of a change of its screen by a push stream (web/push.py): every change here calls
``on_change`` with the phone's id. A phone counts as online while its stream is open or it polls: after
``idle_seconds`` with neither its MQTT link is closed (the hub sees ``offline``); its next poll reconnects
and says hello again. After ``forget_seconds`` its
slot is freed (after ``unseated_seconds`` already if it is not seated in the game); at most ``max_phones``
phones are handsets at once, and at most ``per_address`` from one network address, whether a phone joins
or its cookie brings it back after its place was freed (a phone seated in the game always comes back).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from appliance.edge.accounts import private_client_id
from appliance.edge.mqtt import Availability, Client, Connection
from firmware import protocol
from firmware.core.handset import Handset

log = logging.getLogger(__name__)

JSON = dict[str, Any]
PHONE_FIRMWARE = "phone-1"
TELEMETRY_SECONDS = 30.0
ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


class MqttClientLike(Protocol):
    connected: threading.Event

    def start(self, wait: float | None = 10.0) -> Any: ...

    def stop(self, clean: bool = True) -> None: ...

    def publish(self, topic: str, payload: bytes | str, retain: bool = False, qos: int | None = None) -> None: ...

    def subscribe(self, topics: Any) -> None: ...


ClientFactory = Callable[[str, list[str], Callable[[str, bytes], None], Availability, Callable[[], None]],
                         MqttClientLike]


def mqtt_factory(connection: Connection) -> ClientFactory:
    def make(client_id: str, topics: list[str], on_message: Callable[[str, bytes], None],
             availability: Availability, on_connect: Callable[[], None]) -> MqttClientLike:
        return Client(client_id=client_id, connection=connection, on_message=on_message,
                      subscriptions=list(topics), availability=availability, on_connect=on_connect)

    return make


class PhoneRefused(ValueError):
    """An input the phone's handset core will not send; the message is for the player."""


class PhonesFull(Exception):
    """No free phone slot."""


class AddressFull(PhonesFull):
    """The phone's network address holds its :attr:`Phones.per_address` places already."""


class PhoneRemoved(Exception):
    """The quizmaster removed this phone's handset: it must join again."""


class _Transport:
    def __init__(self, phone: PhoneHandset) -> None:
        self.phone = phone

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        client = self.phone.client
        if client is None or not client.connected.is_set():
            raise OSError("not connected")  # the core keeps the input pending and re-sends on connect
        client.publish(topic, payload, retain=retain)

    def subscribe(self, topic: str) -> None:
        if self.phone.client is not None:
            self.phone.client.subscribe([topic])


def phone_core(box: str, handset_id: str, transport: _Transport, name: str) -> Handset:
    """The firmware's handset core with the ``touch`` layout in its hello and telemetry. The core's key
    editor (built for keypad layouts) is never pressed: the phone page builds the input and
    :meth:`Handset.submit` checks it against the prompt."""
    core = Handset(box, handset_id, transport, layout=protocol.LAYOUT_KEYPAD, name=name)
    core.layout = protocol.LAYOUT_TOUCH
    return core


class PhoneHandset:
    def __init__(self, box: str, handset_id: str, name: str, factory: ClientFactory, clock: Callable[[], float],
                 on_change: Callable[[str], None] | None = None):
        self.box = box
        self.on_change = on_change
        self.id = handset_id
        self.name = name
        self.factory = factory
        self.clock = clock
        self.lock = threading.RLock()
        self.client: MqttClientLike | None = None
        self.core = phone_core(box, handset_id, _Transport(self), name)
        self.version = 1
        self.last_poll = clock()
        self.battery: int | None = None
        self.identify_until = 0.0
        self.notice: tuple[str, str | None] = ("", None)  # a refusal by this phone's core, for one prompt
        self.csrf_key: str | None = None  # its cookie's CSRF key, for a screen pushed to its page (web/phone.py)
        self.csrf_token: tuple[str, str, float] | None = None  # (key, token signed with it, when) for those screens
        self._telemetry_at = -TELEMETRY_SECONDS
        self.prompt_at = self.core.clock_ms()  # when the prompt on screen reached this phone's core (core clock)

    # -- the MQTT link --------------------------------------------------------------------------------------

    def connect(self) -> None:
        with self.lock:
            if self.client is not None:
                return
            topics = [protocol.prompt_topic(self.box, self.id), protocol.ack_topic(self.box, self.id),
                      protocol.time_topic(self.box, self.id)]
            # a client id nobody can derive from the phone's id on the board (docs/security.md)
            self.client = self.factory(private_client_id(f"quizbox-{self.box}-{self.id}"), topics, self._on_message,
                                       Availability(protocol.status_topic(self.box, self.id)), self._on_connect)
            self.client.start(wait=None)

    def disconnect(self) -> None:
        with self.lock:
            client, self.client = self.client, None
            self.core.disconnected()
            self._bump()
        if client is not None:
            client.stop(clean=True)

    def _on_connect(self) -> None:
        with self.lock:
            # subscribe, hello, re-send an unacked input with its seq; lost again at once: the next connect does
            with contextlib.suppress(OSError):
                self.core.connected()
            self._telemetry_at = -TELEMETRY_SECONDS
            self._bump()

    def _on_message(self, topic: str, payload: bytes) -> None:
        with self.lock:
            before, seen = self._shown(), self._seen()
            if self.core.on_message(topic, payload):
                if self._shown() != before:  # a new prompt, or the buzzers armed on the same one
                    self.prompt_at = self.core.clock_ms()
                if self._seen() != seen:  # a clock ping, a prompt sent again: nothing new on the screen
                    self._bump()

    def _shown(self) -> tuple[Any, Any]:
        prompt = self.core.prompt or {}
        return prompt.get("id"), prompt.get("armed")

    def _seen(self) -> tuple[Any, ...]:
        """What of the core the phone's screen shows (:meth:`screen`): a message that changes none of it
        pushes nothing to the page."""
        core = self.core
        return (core.prompt, core.view, core.message, core.online, core.pending is not None, core.seat,
                core.result)

    def _bump(self) -> None:
        self.version += 1
        if self.on_change is not None:
            self.on_change(self.id)  # the page's push stream (web/push.py)

    # -- the phone page ----------------------------------------------------------------------------------------

    def polled(self, battery: int | None = None) -> None:
        """The phone asked for its screen: it is here; reconnect if its link was closed while idle."""
        with self.lock:
            self.last_poll = self.clock()
            if battery is not None and battery != self.battery:
                self.battery = battery
                self._telemetry_at = -TELEMETRY_SECONDS
        self.connect()
        self.tick()

    def tick(self) -> None:
        """Re-send an unacked input and send telemetry when due."""
        with self.lock:
            if self.client is None or not self.client.connected.is_set():
                return
            self.core.tick()
            now = self.clock()
            if now - self._telemetry_at >= TELEMETRY_SECONDS:
                self._telemetry_at = now
                self.core.battery = self.battery
                self.core.telemetry()

    def submit(self, prompt_id: str, data: JSON, pressed: int | None = None) -> int:
        """Send ``data`` for the prompt ``prompt_id`` through the handset core; PhoneRefused otherwise.

        A buzz carries its press time on the core's clock, as a hardware handset's does: ``pressed``, the
        page's own stamp of the tap put on this clock (web/static/phone.js), kept between when the prompt
        reached this phone and now; without it, now."""
        with self.lock:
            prompt = self.core.prompt
            if prompt is None or prompt.get("id") != prompt_id:
                raise PhoneRefused("that screen is old; look again")
            if prompt.get("kind") == protocol.BUZZ and "pressed" not in data:
                data = {**data, "pressed": self.press_time(pressed)}
            try:
                seq = int(self.core.submit(data))
            except ValueError as exc:
                raise PhoneRefused(str(exc)) from None
            self.notice = ("", None)
            self._bump()
            return seq

    def press_time(self, pressed: int | None) -> int:
        """A buzz's press time on the core's clock: the page's stamp, which can be no earlier than the prompt
        reached this phone's core (nobody taps a button before it is shown: a tampered page gains no more
        than its own network delay) and no later than now."""
        now = int(self.core.clock_ms())
        if pressed is None:
            return now
        return max(int(self.prompt_at), min(int(pressed), now))

    def refuse(self, message: str, prompt_id: str | None) -> None:
        """Show ``message`` on the phone while prompt ``prompt_id`` is on screen (nothing was sent)."""
        with self.lock:
            self.notice = (message, prompt_id)
            self._bump()

    def identify(self, seconds: float = 5.0) -> None:
        with self.lock:
            self.identify_until = self.clock() + seconds
            self._bump()

    def screen(self) -> JSON:
        """What the phone shows now."""
        with self.lock:
            core = self.core
            prompt_id = core.prompt.get("id") if core.prompt else None
            return {
                "notice": self.notice[0] if self.notice[1] is not None and self.notice[1] == prompt_id else "",
                "id": self.id,
                "name": self.name,
                "version": self.version,
                "prompt": core.prompt,
                "view": core.view,
                "message": core.message,
                "online": bool(self.client is not None and self.client.connected.is_set() and core.online),
                "pending": core.pending is not None,
                "identify": self.identify_until > self.clock(),
                # protocol 1.4: its team's seat number, and the seat's result and place after a reveal
                "seat_number": core.seat,
                "result": core.result["msg"] if core.result else "",
            }


class Phones:
    """Every phone handset of this web process."""

    def __init__(
        self,
        box: str,
        factory: ClientFactory,
        max_phones: int = 16,
        idle_seconds: float = 20.0,
        forget_seconds: float = 600.0,
        per_address: int = 2,
        seated: Callable[[str], bool] | None = None,
        unseated_seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        on_change: Callable[[str], None] | None = None,
        streaming: Callable[[str], bool] | None = None,
    ) -> None:
        self.box = box
        self.factory = factory
        self.max_phones = max_phones
        self.idle_seconds = idle_seconds
        self.forget_seconds = forget_seconds
        # places one network address may hold (a table sharing the pub's Wi-Fi behind one address still
        # gets a few; one guest cannot take them all), and whether a phone is seated in the game: an
        # unseated phone that stopped polling gives its place back after unseated_seconds, not forget_seconds
        self.per_address = per_address
        self.unseated_seconds = unseated_seconds
        self.seated = seated or (lambda handset_id: False)
        # the push streams (web/push.py): told of every change of a phone's screen; a phone whose stream
        # is open is on its page, as one that polls is
        self.on_change = on_change
        self.streaming = streaming or (lambda handset_id: False)
        self._address: dict[str, str] = {}
        self.clock = clock
        self._phones: dict[str, PhoneHandset] = {}
        self._removed: set[str] = set()
        # phones turned away, by why (for the quizmaster's Handsets page), and places handed over
        self.turned_away = {"full": 0, "address": 0}
        self.handed_over = 0
        self._joined: dict[str, float] = {}  # handset id -> when it took its place
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __len__(self) -> int:
        return len(self._phones)

    def get(self, handset_id: str) -> PhoneHandset | None:
        with self._lock:
            return self._phones.get(handset_id)

    def join(self, name: str, address: str = "?") -> PhoneHandset:
        """A new phone handset named ``name`` for a phone at network ``address``; PhonesFull when every
        slot is taken, AddressFull when ``address`` holds :attr:`per_address` of them already."""
        handset_id = "phone-" + "".join(secrets.choice(ID_ALPHABET) for _ in range(8))
        try:
            with self._lock:
                phone = self._make(handset_id, name, address, seated=False)
        except AddressFull:
            self.turned_away["address"] += 1
            raise
        except PhonesFull:
            # every place taken: a phone from an address holding none takes the newest place of an address
            # holding more than one, if it is not seated in the game (guests on 8 addresses took all 16)
            victim = self._spare_place(address)
            if victim is None:
                self.turned_away["full"] += 1
                raise
            self.leave(victim)
            self.handed_over += 1
            log.warning("phone places full: %s's place went to a phone from an address holding none", victim)
            with self._lock:
                phone = self._make(handset_id, name, address, seated=False)
        self._start_reaper()
        return phone

    def _spare_place(self, address: str) -> str | None:
        """The place a phone from ``address`` may take when all are taken: ``address`` holds none, and an
        unseated phone's address holds more than one (its newest place). None: no such place."""
        with self._lock:
            held: dict[str, list[str]] = {}
            for handset_id in self._phones:
                held.setdefault(self._address.get(handset_id, "?"), []).append(handset_id)
            if held.get(address):
                return None
            crowded = [h for ids in held.values() if len(ids) > 1 for h in ids]
            crowded.sort(key=lambda h: self._joined.get(h, 0.0), reverse=True)
        for handset_id in crowded:  # asks the board: outside the lock
            if not self.seated(handset_id):
                return handset_id
        return None

    def warnings(self) -> list[str]:
        """Plain words for the quizmaster about phones turned away (the Handsets page)."""
        out = []
        full, address = self.turned_away["full"], self.turned_away["address"]
        if full:
            out.append(f"{full} phone{'s were' if full > 1 else ' was'} turned away: all {self.max_phones} phone "
                       f"places were taken. Remove phones you do not know (below), or lend a handset.")
        if address:
            out.append(f"{address} phone{'s were' if address > 1 else ' was'} turned away: their network address "
                       f"already held {self.per_address} phone places.")
        if self.handed_over:
            out.append(f"{self.handed_over} phone place{'s' if self.handed_over > 1 else ''} of addresses holding "
                       f"two went to phones from new addresses (all places were taken; seated phones keep theirs).")
        return out

    def resume(self, handset_id: str, name: str, address: str = "?") -> PhoneHandset:
        """The phone with this id (a signed cookie named it) polling from network ``address``.

        A phone still holding its place gets it, from wherever it polls. One this process forgot (its
        place lapsed, or the web server restarted) is made again within the bounds of a join: PhonesFull
        when every slot is taken, AddressFull when ``address`` holds :attr:`per_address` places already,
        so saved cookies replayed from one address take no more places than joins could. A phone seated
        in the game is bounded by the total only: it always gets back to its seat."""
        protocol.handset_topic(self.box, handset_id, "status")  # validates the id
        with self._lock:
            phone = self._held(handset_id)
        if phone is None:
            seated = self.seated(handset_id)  # asks the board: outside the lock
            with self._lock:
                phone = self._held(handset_id) or self._make(handset_id, name, address, seated=seated)
        self._start_reaper()
        return phone

    def _held(self, handset_id: str) -> PhoneHandset | None:
        """The phone holding a place under this id (caller holds the lock); PhoneRemoved if the
        quizmaster removed it."""
        if handset_id in self._removed:
            raise PhoneRemoved(handset_id)
        return self._phones.get(handset_id)

    def _make(self, handset_id: str, name: str, address: str, seated: bool) -> PhoneHandset:
        """A phone taking a place for ``address`` (caller holds the lock): the total bound always, the
        per-address bound unless the phone is seated in the game."""
        if len(self._phones) >= self.max_phones:
            raise PhonesFull(f"all {self.max_phones} phone places are taken")
        held = sum(1 for h, a in self._address.items() if a == address and h in self._phones)
        if held >= self.per_address and not seated:
            raise AddressFull(f"this network address holds {held} phone places already")
        phone = PhoneHandset(self.box, handset_id, name[: protocol.MAX_NAME], self.factory, self.clock,
                             on_change=self.on_change)
        self._phones[handset_id] = phone
        self._address[handset_id] = address
        self._joined[handset_id] = self.clock()
        return phone

    def leave(self, handset_id: str, removed: bool = False) -> None:
        """Close a phone's link and free its slot; ``removed`` (by the quizmaster): its cookie no longer
        brings it back."""
        with self._lock:
            phone = self._phones.pop(handset_id, None)
            self._address.pop(handset_id, None)
            self._joined.pop(handset_id, None)
            if removed:
                self._removed.add(handset_id)
        if phone is not None:
            phone.disconnect()

    def reap(self) -> None:
        """Close the links of phones that stopped polling; forget long-gone ones."""
        now = self.clock()
        with self._lock:
            phones = list(self._phones.values())
        for phone in phones:
            if self.streaming(phone.id):  # its page is open on its push stream: here, as if it polled
                phone.polled()
                continue
            idle = now - phone.last_poll
            if idle >= self.forget_seconds or (idle >= self.unseated_seconds and not self.seated(phone.id)):
                self.leave(phone.id)
            elif idle >= self.idle_seconds and phone.client is not None:
                phone.disconnect()
            else:
                phone.tick()

    def _start_reaper(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._reap_loop, name="phones-reaper", daemon=True)
            self._thread.start()

    def _reap_loop(self) -> None:
        while not self._stop.wait(1.0):
            try:
                self.reap()
            except Exception:  # a failing phone must not stop the reaper of the others
                log.exception("phone reaper failed")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
        with self._lock:
            phones = list(self._phones.values())
            self._phones.clear()
        for phone in phones:
            phone.disconnect()
