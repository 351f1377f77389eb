"""Pairing: every handset logs in to the box's mosquitto with its own account, made when the quizmaster
accepts it (appliance/edge/accounts.py keeps the accounts in mosquitto's dynamic security plugin).

Why accounts make the topic the identity: mosquitto does not tell a subscriber who published a message,
so the hub cannot ask "which account sent this input?". It does not need to: account ``<id>``'s role lets
it publish only on ``quizbox/<box>/handset/<id>/...`` (and read only its own prompt, ack and time, and the
public board), so a message on handset ``<id>``'s input topic was published by account ``<id>`` (or by the
appliance or the admin page, which are the box's own services). The hub then checks that the topic's id
has an account (:meth:`Pairing.may_speak`), and the session maps the id to its seat: topic = credentials
= seat.

How a handset gets its account, with no secret ever sent to it:

1. The handset makes up its own secret once (16-64 printable characters) and keeps it in flash.
2. It logs in as user ``<id>`` with that secret and client id ``client_id(<id>, secret)``; the broker
   refuses (no account yet). It then logs in as the public ``pairing`` account (a random client id),
   whose only right is to publish on ``quizbox/<box>/pairing/<id>``, and sends
   ``{"v": 1, "id": "<id>", "name": "Ann", "secret": "<its secret>"}`` there every few seconds, showing
   ``Pair code 1234`` (:func:`pair_code` of its secret) on its screen.
3. The hub lists the request on the admin page WITHOUT the code. The quizmaster reads the code on the
   handset and types it; :meth:`Pairing.accept` makes the account only if it matches: user ``<id>``,
   password the secret, bound to client id ``client_id(<id>, secret)``, role ``quizbox-handset-<id>``.
4. The handset's next login as ``<id>`` works; it says hello and plays.

Anyone on the pub's Wi-Fi can use the pairing account, but it can only ask (docs/security.md):

* the first request for an id stands; a request for the same id with another secret is a conflict: both
  are refused, and the admin page warns that two devices claim the id, until the quizmaster removes the
  requests (so a forged request whose code happens to match the real handset's cannot be accepted);
* requests are never evicted: a request not repeated for :data:`EXPIRE` seconds lapses, and beyond
  :data:`MAX_PENDING` ids new requests are refused (counted and shown), never older ones dropped;
* requests are read on a connection of their own (:class:`PairingDesk`) behind a rate limit, so a flood
  never reaches the game's connection; retained requests are ignored and cleared.

An id that already has an account is never re-paired this way: remove it first. Phone handsets
(``phone-...``, web/phones.py) have no account of their own: the admin page is their MQTT client and
binds each browser to one handset id.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from appliance.edge.accounts import APPLIANCE_USER as APPLIANCE_USER  # the names pairing has always exported
from appliance.edge.accounts import PAIRING_PASSWORD as PAIRING_PASSWORD
from appliance.edge.accounts import PAIRING_USER as PAIRING_USER
from appliance.edge.accounts import PHONE_PREFIX as PHONE_PREFIX
from appliance.edge.accounts import WEB_USER as WEB_USER
from appliance.edge.accounts import (
    AccountsError,
    BrokerAccounts,
    MemoryAccounts,
    is_handset_account,
    private_client_id,
)
from appliance.edge.refusal_log import RefusalLog
from appliance.errors import QuizboxError
from firmware import protocol

log = logging.getLogger(__name__)

MIN_SECRET, MAX_SECRET = 16, 64
MAX_PENDING = 64  # ids waiting at once; beyond, new requests are refused (never an older one dropped)
EXPIRE = 60.0  # s: a request not repeated for this long lapses (handsets repeat every 5 s)
RATE = 2.0  # messages a second read for one handset id that holds no request yet (a burst of BURST)
BURST = 6.0
MAX_TRACKED = 4096  # handset ids whose reading is counted at once (a flood of new ids starts them afresh)
MAX_REQUEST = 512  # bytes: a request is ~120
SETTLE = 12.0
"""Seconds a request must be heard as the only one for its id before it can be accepted: two of a real
handset's re-sends (every 5 s) and some slack. A forged request whose code matches the real handset's
screen is no use: while the real handset shows its code it asks every 5 s, so within SETTLE its own
request is read (the desk reads every id fairly) and the two make a conflict (issue 32)."""
MAX_WARNED = 3  # conflicts named one by one on the admin page; beyond, one line counts them


class PairingError(QuizboxError):
    """Pairing refused (a bad request, no request to accept, a wrong code, a conflict) or the broker
    refused to make the account."""


def pair_code(secret: str) -> str:
    """The four digits a handset shows while it waits to be paired; the quizmaster types them."""
    return f"{int.from_bytes(hashlib.sha256(secret.encode()).digest()[:4], 'big') % 10000:04d}"


def pairing_topic(box: str, handset: str) -> str:
    return protocol.pairing_topic(box, handset)  # built in one place, with the other topics


def pairing_wildcard(box: str) -> str:
    return protocol.pairing_wildcard(box)


@dataclass(frozen=True)
class Request:
    handset: str
    name: str | None
    secret: str
    code: str
    at: float  # first asked
    last: float  # last asked
    token: str = ""  # the box's own name for this one request: the admin page accepts it and no other


@dataclass
class Conflict:
    """Two devices asked to be one handset id with different secrets: neither may be accepted."""

    handset: str
    since: float
    last: float
    secrets: int = 2


class Pairing:
    """Handsets asking for an account, and what accepting or removing one does to the broker's accounts.
    Thread-safe (the pairing desk adds requests; the hub's admin commands accept and remove)."""

    def __init__(self, accounts: BrokerAccounts | MemoryAccounts, clock: Callable[[], float] = time.monotonic,
                 settle: float = SETTLE) -> None:
        self.accounts = accounts
        self.clock = clock
        self.settle = settle  # SETTLE (tests of the rules on their own pass 0; the attacks' tests scale it)
        self.revision = 0  # moves whenever the list of requests or conflicts does (the desk's cheap check)
        self.pending: dict[str, Request] = {}
        self.conflicts: dict[str, Conflict] = {}
        self.refused_full = 0  # requests refused because MAX_PENDING ids were waiting
        self.dropped = 0  # messages dropped unread by the rate limit (PairingDesk)
        self.flooded: set[str] = set()  # ids whose messages came faster than a handset sends (some dropped)
        # ids whose requests the quizmaster removed, to pair again: heard even while MAX_PENDING ids wait
        # (a flood's junk fills the list for EXPIRE seconds; the quizmaster's own id must not wait for it)
        self.invited: dict[str, float] = {}
        self.cleared = 0  # retained requests cleared
        self._lock = threading.RLock()

    def ensure_service_account(self) -> None:
        """Every role, the public pairing account and every handset's role (on every start: self-healing)."""
        try:
            self.accounts.setup()
        except AccountsError as exc:
            raise PairingError(str(exc)) from exc

    def may_speak(self, handset: str) -> bool:
        """Whether a message on handset ``handset``'s topics can be from that handset: it has an account,
        or it is a phone the admin page speaks for."""
        if handset.startswith(PHONE_PREFIX):
            return True
        return self.accounts.has(handset)

    def expire(self) -> None:
        now = self.clock()
        with self._lock:
            for handset in [h for h, r in self.pending.items() if now - r.last > EXPIRE]:
                del self.pending[handset]
                self.revision += 1
            for handset in [h for h, c in self.conflicts.items() if now - c.last > EXPIRE]:
                del self.conflicts[handset]
                self.revision += 1

    def request(self, handset: str, payload: bytes) -> Request:
        """Read a pairing request from the pairing topic of ``handset``; PairingError or ProtocolError
        if it is refused (the first request for an id stands; another secret for it is a conflict; an id
        with an account stays as it is)."""
        if len(payload) > MAX_REQUEST:
            raise protocol.ProtocolError(f"a pairing request is at most {MAX_REQUEST} bytes")
        obj = protocol.decode(payload)
        if obj.get("v", protocol.VERSION) != protocol.VERSION:
            raise protocol.ProtocolError("unsupported protocol version")
        if obj.get("id", handset) != handset:
            raise protocol.ProtocolError("id does not match topic")
        if not is_handset_account(handset, self.accounts.appliance_user):
            raise PairingError(f"{handset!r} cannot be paired (a reserved or phone id)")
        name = obj.get("name")
        if name is not None and (not isinstance(name, str) or not 0 < len(name.strip()) <= protocol.MAX_NAME):
            raise protocol.ProtocolError("bad name")
        secret = obj.get("secret")
        if (not isinstance(secret, str) or not MIN_SECRET <= len(secret) <= MAX_SECRET
                or not all(33 <= ord(c) < 127 for c in secret)):
            raise protocol.ProtocolError(f"secret must be {MIN_SECRET}-{MAX_SECRET} printable ASCII characters")
        self.expire()
        now = self.clock()
        with self._lock:
            conflict = self.conflicts.get(handset)
            if conflict is not None:
                conflict.last = now
                raise PairingError(f"two devices ask to be {handset}: refused until the quizmaster removes them")
            known = self.pending.get(handset)
            if known is not None:
                if not hmac.compare_digest(known.secret, secret):
                    del self.pending[handset]
                    self.conflicts[handset] = Conflict(handset, now, now)
                    self.revision += 1
                    log.warning("two devices ask to be handset %s: both refused", handset)
                    raise PairingError(f"{handset} already asked with another secret: both refused")
                self.pending[handset] = replace(known, last=now)
                return known  # the handset asking again while it waits
            if self.accounts.has(handset):
                raise PairingError(f"{handset} already has an account: remove it before pairing it again")
            if len(self.pending) + len(self.conflicts) >= MAX_PENDING and not self.is_invited(handset):
                self.refused_full += 1
                raise PairingError(f"{MAX_PENDING} handsets are waiting already: {handset} refused")
            made = Request(handset, name.strip() if name else None, secret, pair_code(secret), now, now,
                           secrets.token_hex(2))
            self.pending[handset] = made
            self.revision += 1
            return made

    def is_invited(self, handset: str) -> bool:
        """Whether the quizmaster removed ``handset``'s requests lately, to pair it again."""
        at = self.invited.get(handset)
        return at is not None and self.clock() - at < EXPIRE

    def heard_again(self, handset: str) -> None:
        """The request ``handset`` holds came again, word for word: it does not lapse."""
        with self._lock:
            held = self.pending.get(handset)
            if held is not None:
                self.pending[handset] = replace(held, last=self.clock())

    def accept(self, handset: str, code: str | None, token: str | None = None) -> bool:
        """The quizmaster accepts ``handset`` with the ``code`` they read on its screen: its requested
        account is made (True), or it has one already or is a phone (False). With ``token`` (the admin
        page's: the request it showed) only that very request is accepted; every request only once it has
        been the only one for its id for :attr:`settle` seconds."""
        if handset.startswith(PHONE_PREFIX):
            return False
        with self._lock:
            if handset in self.conflicts:
                raise PairingError(f"Two devices ask to be {handset}: remove both, pair again.")
            request = self.pending.get(handset)
            if request is None:
                if self.accounts.has(handset):
                    return False
                raise PairingError(f"{handset} has not asked to pair: switch it on.")
            if token is not None and not hmac.compare_digest(str(token).encode(), request.token.encode()):
                raise PairingError(f"{handset}'s request changed: look at the list again.")
            wait = request.at + self.settle - self.clock()
            if wait > 0:
                raise PairingError(f"Wait {wait:.0f} s: checking no other device is {handset}.")
            if not code or not str(code).strip():
                raise PairingError(f"Type the code {handset}'s screen shows.")
            if not hmac.compare_digest(str(code).strip().encode(), request.code.encode()):
                raise PairingError(f"{handset} shows another code: do not accept it.")
            try:
                self.accounts.add_handset(handset, request.secret)
            except AccountsError as exc:
                raise PairingError(str(exc)) from exc
            del self.pending[handset]
            self.invited.pop(handset, None)
            self.revision += 1
        log.info("handset %s paired: it has its own broker account now", handset)
        return True

    def remove(self, handset: str) -> bool:
        """Forget ``handset``'s request or conflict and take its account away (it can log in no more)."""
        with self._lock:
            asked = self.pending.pop(handset, None) is not None
            if self.conflicts.pop(handset, None) is not None or asked:
                if len(self.invited) >= MAX_PENDING:
                    self.invited.pop(next(iter(self.invited)))
                self.invited[handset] = self.clock()  # it may ask again however full the list is
            self.revision += 1
        if not is_handset_account(handset, self.accounts.appliance_user):
            return False
        try:
            return self.accounts.remove_handset(handset)
        except AccountsError as exc:
            raise PairingError(str(exc)) from exc

    def cut_off(self, handset: str, seconds: float) -> None:
        """A flooding handset's account is disabled for ``seconds`` (the broker drops it and refuses it
        meanwhile); not under the hub's lock: it waits for the broker."""
        try:
            self.accounts.disable_handset(handset)
        except AccountsError as exc:
            log.error("cannot cut off flooding handset %s: %s", handset, exc)
            return
        timer = threading.Timer(seconds, self._let_back, args=(handset,))
        timer.daemon = True
        timer.start()

    def _let_back(self, handset: str) -> None:
        try:
            self.accounts.enable_handset(handset)
        except AccountsError as exc:
            log.error("cannot let handset %s back in after its cut-off: %s", handset, exc)

    def requests(self) -> dict[str, dict[str, Any]]:
        """handset id -> its name (and whether two devices claim it), for the admin page. The code is not
        in it: the quizmaster types the code the handset shows."""
        self.expire()
        with self._lock:
            now = self.clock()
            out: dict[str, dict[str, Any]] = {
                h: {"name": r.name, "conflict": False, "request": r.token,
                    "wait": max(0, int(r.at + self.settle - now + 0.999))}
                for h, r in self.pending.items()}
            for handset in self.conflicts:
                out[handset] = {"name": None, "conflict": True}
            return out

    def warnings(self) -> list[str]:
        """Plain words for the admin page about pairing under attack."""
        with self._lock:
            conflicts = sorted(self.conflicts)
            flooded = sorted(self.flooded)
        out = [f"Two devices ask to be handset {h}: neither can be paired. If you did not just swap it, "
               f"someone may be trying to take its place; remove the requests and pair it again."
               for h in conflicts[:MAX_WARNED]]
        if len(conflicts) > MAX_WARNED:  # bounded: a flood made 22 lines of these
            out.append(f"{len(conflicts) - MAX_WARNED} more handset ids are asked for by two devices each "
                       f"({', '.join(conflicts[MAX_WARNED:MAX_WARNED + 5])}"
                       f"{', ...' if len(conflicts) > MAX_WARNED + 5 else ''}): none of them can be paired.")
        if self.refused_full:
            out.append(f"{self.refused_full} pairing requests for new ids were refused: {MAX_PENDING} were "
                       f"waiting, so someone on the network may be flooding the box with pairing requests. "
                       f"The handsets already listed are still heard.")
        if self.dropped:
            named = ", ".join(flooded[:5]) + (", ..." if len(flooded) > 5 else "")
            out.append(f"Someone on the network is flooding the box with pairing requests ({self.dropped} "
                       f"dropped unread, for ids {named}). Every id is read in turn, so a real handset's own "
                       f"requests still get through, and nobody can be paired while two devices ask to be it.")
        return out


class FairReading:
    """Which pairing messages the desk reads, fairly per handset id (mosquitto does not say who sent a
    message, but a request names its id in its topic): one global budget let a flood of junk take every
    read, so the real handset's own requests were dropped unread (issue 32).

    * a message for an id that holds a request or a conflict is always read: every distinct request for
      a waiting id must be seen, so a forged one and the real one make a conflict (an exact repeat of
      the held request costs a comparison, a conflict's messages only a look-up);
    * a message for any other id is read within that id's own budget (:data:`RATE` a second, a burst of
      :data:`BURST`; a real handset asks every 5 s), so a flood on other ids never uses up its budget;
    * while :data:`MAX_PENDING` ids wait, a message for a new id is refused unread.
    """

    def __init__(self, pairing: Pairing, clock: Callable[[], float], rate: float = RATE, burst: float = BURST) -> None:
        self.pairing, self.clock, self.rate, self.burst = pairing, clock, rate, burst
        self._buckets: dict[str, list[float]] = {}  # id -> [tokens, when]
        self._held: dict[str, bytes] = {}  # id -> the payload of the request it holds (a repeat costs nothing)

    def read(self, handset: str, payload: bytes) -> bool:
        """Whether the desk reads this message (False: dropped unread, counted)."""
        pairing = self.pairing
        if handset in pairing.conflicts:
            conflict = pairing.conflicts.get(handset)
            if conflict is not None:
                conflict.last = self.clock()  # still claimed by two: the conflict does not lapse
            return False
        held = pairing.pending.get(handset)
        if held is not None:
            if self._held.get(handset) == payload:
                pairing.heard_again(handset)  # the handset asking again while it waits
                return False
            return True
        if len(pairing.pending) + len(pairing.conflicts) >= MAX_PENDING and not pairing.is_invited(handset):
            pairing.refused_full += 1
            return False
        now = self.clock()
        bucket = self._buckets.get(handset)
        if bucket is None:
            if len(self._buckets) >= MAX_TRACKED:
                self._buckets.clear()
            bucket = self._buckets[handset] = [self.burst, now]
        bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
        bucket[1] = now
        if bucket[0] < 1:
            pairing.dropped += 1
            if len(pairing.flooded) < MAX_TRACKED:
                pairing.flooded.add(handset)
            return False
        bucket[0] -= 1
        return True

    def held(self, handset: str, payload: bytes) -> None:
        """``payload`` made or repeated the request ``handset`` holds."""
        if len(self._held) >= MAX_TRACKED:
            self._held = {h: p for h, p in self._held.items() if h in self.pairing.pending}
        self._held[handset] = payload


class PairingDesk:
    """Reads pairing requests on a connection of its own (the game's connection never sees them), fairly
    per handset id (:class:`FairReading`); retained requests are ignored and cleared. ``on_change`` is called (on this
    connection's thread) when the list of requests or warnings changed."""

    def __init__(self, box: str, pairing: Pairing, host: str, port: int, username: str, password: str,
                 on_change: Callable[[], None], tls: bool = False, ca_file: str = "",
                 clock: Callable[[], float] = time.monotonic) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.box = box
        self.pairing = pairing
        self.on_change = on_change
        self.prefix = protocol.box_topic(box, "pairing") + "/"
        self.fair = FairReading(pairing, clock)
        self.connected = threading.Event()
        self.connects = 0  # logins to the broker (a flood must not make it log in again and again)
        # refusals in the journal once a minute with a count (issue 38: a flood wrote 1,921 lines in 4 min)
        self.refusals = RefusalLog(log, clock)
        self._refusals_lock = threading.Lock()
        self._stopped = threading.Event()
        self._reporter = threading.Thread(target=self._report_loop, name="pairing-refusals", daemon=True)
        # MQTT 5: "retain as published" shows a request published with the retain flag even to a client
        # that was already subscribed, so it is never read and is cleared at once
        paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=private_client_id(f"quizbox-{box}-pairing"),
                           protocol=mqtt.MQTTv5)
        paho.username_pw_set(username, password)
        if tls:
            import ssl

            paho.tls_set(ca_certs=ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
        paho.reconnect_delay_set(min_delay=1, max_delay=8)
        paho.on_connect = self._connected
        paho.on_message = self._message
        self.paho = paho
        self._where = (host, port)

    def start(self) -> PairingDesk:
        self.paho.connect_async(*self._where, keepalive=30)
        self.paho.loop_start()
        self._reporter.start()
        return self

    def stop(self) -> None:
        self._stopped.set()
        self.paho.disconnect()
        self.paho.loop_stop()
        if self._reporter.is_alive():
            self._reporter.join(timeout=2)
        self._refused_flush(force=True)  # what the last minute held, before the program stops

    def _report_loop(self) -> None:
        while not self._stopped.wait(self.refusals.every / 6):
            self._refused_flush()

    def _refused_flush(self, force: bool = False) -> None:
        with self._refusals_lock:
            self.refusals.flush(force)

    def _refused(self, reason: str, detail: str = "") -> None:
        with self._refusals_lock:
            self.refusals.note(reason, detail)

    def _connected(self, client: Any, userdata: object, flags: object, reason: Any, properties: object) -> None:
        if reason.is_failure:
            log.error("pairing desk: the broker refused the appliance's account: %s", reason)
            return
        from paho.mqtt.subscribeoptions import SubscribeOptions

        client.subscribe(pairing_wildcard(self.box), options=SubscribeOptions(qos=0, retainAsPublished=True))
        self.connects += 1
        self.connected.set()

    def _message(self, client: Any, userdata: object, msg: Any) -> None:
        try:
            if msg.retain:
                # a retained request would come back after every restart of the box: clear it (an empty
                # retained message deletes it) and never read it
                if msg.payload:
                    client.publish(msg.topic, b"", qos=0, retain=True)
                    self.pairing.cleared += 1
                return
            handset = msg.topic[len(self.prefix):] if msg.topic.startswith(self.prefix) else ""
            payload = bytes(msg.payload)
            dropped, full, before = self.pairing.dropped, self.pairing.refused_full, self.pairing.revision
            if self.fair.read(handset, payload):
                try:
                    request = self.pairing.request(handset, payload)
                except protocol.ProtocolError as exc:
                    self._refused("malformed", f"{msg.topic[:120]}: {exc}")
                except QuizboxError as exc:
                    self._refused("against the pairing rules", f"{msg.topic[:120]}: {exc}")
                else:
                    self.fair.held(handset, payload)
                    if request.at == request.last:
                        log.info("handset %s asks to be paired", handset)
            if self.pairing.revision != before:
                self.on_change()
            elif self.pairing.dropped != dropped or self.pairing.refused_full != full:
                if self.pairing.dropped != dropped:
                    self._refused("dropped unread (faster than a handset asks)", msg.topic[:120])
                else:
                    self._refused(f"refused unread ({MAX_PENDING} handsets waiting)", msg.topic[:120])
                count = self.pairing.dropped + self.pairing.refused_full
                if count in (1, 10, 1000) or count % 100_000 == 0:  # the admin page's warning, not per message
                    self.on_change()
        except Exception:
            log.exception("pairing desk failed on a message on %s", str(msg.topic)[:120])


def request_payload(handset: str, secret: str, name: str | None = None) -> bytes:
    """A pairing request as a handset sends it (for handset code and tests)."""
    body: dict[str, object] = {"v": protocol.VERSION, "id": handset, "secret": secret}
    if name:
        body["name"] = name
    return json.dumps(body, separators=(",", ":")).encode()
