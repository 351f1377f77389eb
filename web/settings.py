"""The admin page's settings: defaults here, the box's TOML config, then the instance folder outside the code.

The instance folder is ``<box data_dir>/web`` (``~/.local/share/quizbox/web``, ``/var/lib/quizbox/web`` on a
Pi). It holds what the web process keeps for itself and never ships in the code:

* ``secret_key``: signs the session cookies (admin login, a phone's handset id); made on first run, mode 0600;
* ``admin.json``: the one admin account's password hash (see :mod:`web.account`);
* ``setup-code``: the one-time code the first-run page asks for, while no password is set;
* ``web.cfg`` (optional): Python-syntax overrides of the upper-case settings below (not ``MAX_PHONES``:
  the phone places are the Settings page's, appliance/infra/settings.py).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from appliance.infra.files import write_whole

DEFAULTS: dict[str, Any] = {
    # waitress: no phone holds a thread (a push stream lives in waitress's loop, web/push.py; a poll is a
    # short request), so a few threads serve many phones
    "THREADS": 8,
    # connections (web/connections.py, docs/security.md): a phone keeps one or two open while it plays (a
    # browser opens at most 6 to one site, for a moment), so the default 120 phone places and the admin
    # and TV pages take about 120 x 2 + 2 x 6 = 252, with room for bursts; with each phone's MQTT link (3
    # files: appliance.infra.settings.MAX_PHONE_PLACES) the most phone places the Settings page offers,
    # 160 x 3 + 400 + 64 spare, stays below the 1024 files select() and systemd's default allow
    "CONNECTION_LIMIT": 400,
    "CONNECTIONS_PER_ADDRESS": 16,  # more from one address are closed at once (2 phones behind one NAT: 12)
    "HEADER_TIMEOUT": 10.0,  # seconds a request may take to send all its headers, from its first byte
    "CHANNEL_TIMEOUT": 60,  # waitress: seconds a connection may stay silent (phones poll every second)
    "CLEANUP_INTERVAL": 10,  # waitress: seconds between its sweeps for silent connections
    # phones: how many may be handsets at once (the Settings page's phone places, config web.phones, set
    # over this by create_app), and when an unseen phone counts as gone
    "MAX_PHONES": 120,
    "PHONES_PER_ADDRESS": 2,  # phone places one network address may hold
    "PHONE_IDLE_SECONDS": 20.0,  # no poll for this long: the phone's MQTT link closes (it shows offline)
    "PHONE_FORGET_SECONDS": 600.0,  # unseen this long: its slot is free again
    # the phone page polls its screen every PHONE_POLL_MS while its push stream is down (web/push.py), and
    # every PHONE_PUSHED_POLL_MS while it is up (for what the stream does not carry: the box's heartbeat)
    "PHONE_POLL_MS": 1000,
    "PHONE_PUSHED_POLL_MS": 10000,
    "PUSH_KEEPALIVE_SECONDS": 20.0,  # an SSE comment on an idle stream, below CHANNEL_TIMEOUT
    "JOINS_PER_ADDRESS": 6,  # new phones per address per 10 minutes
    # uploads: a deck file is at most 5 MB (appliance.decks.validate.MAX_FILE_BYTES) plus the form around it
    "MAX_CONTENT_LENGTH": 6 * 1024 * 1024,
    "MIN_PASSWORD": 8,
    "PASSWORD_METHOD": "scrypt",  # werkzeug.security's method; tests use a cheap one
    "COMMAND_TIMEOUT": 4.0,
    # cookies: no Secure flag (the box serves plain HTTP on the pub's LAN), but never readable by scripts
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_NAME": "quizbox",
    "PERMANENT_SESSION_LIFETIME": timedelta(hours=12),
    # a cookie only when the session changed: a phone polls every second while its player presses buttons,
    # and a poll answered after a press that changed the session (a seat code's notice, a leave) would
    # otherwise send back the older cookie it was sent with and undo that change in the browser
    "SESSION_REFRESH_EACH_REQUEST": False,
    "WTF_CSRF_TIME_LIMIT": 12 * 3600,
    "HISTORY_LIMIT": 200,
    "EXTRA_GAMES": {},  # game -> deck type, for games registered by tests or plug-ins
    # how phones join, drawn as a QR code on the live page's TV picture in the lobby; None: as the TV shows
    # it, http://<box id>.local:<web port>/join and <box id>.local (set both for a box without mDNS)
    "JOIN_URL": None,
    "JOIN_ADDRESS": None,
}


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (temp file, fsync, rename), readable by the owner only."""
    write_whole(path, text, 0o600)


def secret_key(instance: Path) -> str:
    """The instance's secret key, made on first run (64 hex digits)."""
    path = instance / "secret_key"
    if path.exists():
        key = path.read_text(encoding="utf-8").strip()
        if len(key) >= 32:
            return key
    key = secrets.token_hex(32)
    write_private(path, key + "\n")
    return key
