"""Liveness: a handset silent for longer than its keepalive allows is shown offline.

The broker publishes a handset's last will (``offline``) when its connection dies uncleanly, and a
handset says ``offline`` itself before a clean disconnect; one that disconnects cleanly without it, or
whose broker session lingers, would stay ``online`` for ever. So the hub also watches what it hears:
every hello, telemetry, input and clock answer counts. A handset publishes telemetry at least every
``TELEMETRY_EVERY`` s (and answers the hub's clock pings, every 10 s outside a buzzer round), so one
silent for more than ``SILENT_AFTER`` s (90; or three of its keepalives, from its hello, if that is longer) is shown
offline on the admin page and the TV, and back online the moment it is heard again (its current prompt
is re-sent then).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from firmware import protocol

if TYPE_CHECKING:
    from appliance.edge.handsets import Handset, Registry


class Watched(Protocol):
    """What liveness needs of the hub, and no more."""

    registry: Registry
    clock: Callable[[], float]

    def send_prompt(self, handset: Handset, fresh: bool = False) -> None: ...

    def state_soon(self) -> None: ...

    def publish_state(self) -> None: ...

log = logging.getLogger(__name__)


def limit(handset: Handset) -> float:
    """Seconds of silence after which ``handset`` is shown offline."""
    return float(max(protocol.SILENT_AFTER, 3 * handset.keepalive))


def heard(hub: Watched, handset: Handset) -> None:
    """A message from ``handset``: it is connected; if it was shown offline it is back (its prompt and
    the state are sent again)."""
    handset.last_seen = hub.clock()
    if not handset.online:
        handset.online = True
        log.info("handset %s is heard again", handset.id)
        hub.send_prompt(handset, fresh=True)
        hub.state_soon()


def sweep(hub: Watched) -> None:
    """Mark every online handset silent for too long offline (called by the hub's ticker, under its lock)."""
    now = hub.clock()
    changed = False
    for handset in hub.registry:
        if handset.online and now - handset.last_seen > limit(handset):
            handset.online = False
            log.warning("handset %s silent for %.0f s: shown offline", handset.id, now - handset.last_seen)
            changed = True
    if changed:
        hub.publish_state()
