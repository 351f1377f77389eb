"""The one admin account: a password hash in the instance folder, and the one-time code of the first run.

Every session holds :meth:`Account.stamp`, checked on every request (web/pages.py): it changes with the
password and with a generation counter kept beside the hash, which logging out and changing the password
count up, so a copied cookie dies with the session it was copied from (docs/security.md). The devices the
quizmaster logged in from are remembered (hashes of a random cookie, :meth:`Account.trust`): their failed
logins count on their own, so nobody else's failures lock the quizmaster's own device out (web/throttle.py).

Hashing is werkzeug's (scrypt), a kept library already in the dependencies. The first-run page is the
weak moment on a pub's Wi-Fi (anyone on the network could set the password first), so it asks for a
setup code that only the person who started the box can read: printed by ``quizbox web`` and kept in
the instance folder (mode 0600) until the password is set.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from pathlib import Path
from typing import Any

from werkzeug.security import check_password_hash, generate_password_hash

from web.settings import write_private

RECHECK_SECONDS = 1.0
ACCOUNT_FILE = "admin.json"
SETUP_FILE = "setup-code"
BOX_CODE_FILE = "box-code"
"""The box's own login code: read at the box (``sudo cat /var/lib/quizbox/web/box-code``), never shown
on the network. A login carrying it is not held by the account-wide cap, so guests
on many addresses cannot keep the quizmaster out (issue 32); it changes after every login that used it."""


class Account:
    def __init__(self, instance: Path, method: str = "scrypt") -> None:
        self.instance = instance
        self.method = method
        self.path = instance / ACCOUNT_FILE
        # (the file's stat, its data, when it was last looked at)
        self._cache: tuple[tuple[int, int, int], dict[str, Any], float] | None = None

    def _data(self) -> dict[str, Any]:
        """The account file, read again only when it changed, and looked at no more than once every
        ``RECHECK_SECONDS`` (every page asks whether a password is set: 40 phones' pushed screens opened
        and parsed the file 40 times over). This process's own writes are seen at once (:meth:`_save`);
        another's (``quizbox password``) within RECHECK_SECONDS."""
        now = time.monotonic()
        cached = self._cache
        if cached is not None and now - cached[2] < RECHECK_SECONDS:
            return dict(cached[1])
        try:
            stat = self.path.stat()
        except OSError:
            self._cache = None
            return {}
        key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        if cached is not None and cached[0] == key:
            self._cache = (key, cached[1], now)
            return dict(cached[1])
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        data = data if isinstance(data, dict) else {}
        self._cache = (key, data, now)
        return dict(data)

    def _hash(self) -> str | None:
        value = self._data().get("hash")
        return value if isinstance(value, str) and value else None

    def _save(self, data: dict[str, Any]) -> None:
        write_private(self.path, json.dumps(data) + "\n")
        self._cache = None  # read again at the next look

    @property
    def generation(self) -> int:
        value = self._data().get("generation", 0)
        return value if isinstance(value, int) else 0

    def revoke(self) -> None:
        """Log every session out (logout, a new password): the stamp every session holds changes."""
        data = self._data()
        if data:
            data["generation"] = self.generation + 1
            self._save(data)

    def trust(self) -> str:
        """A new token for the device that just logged in (kept as a hash; at most 8 devices)."""
        token = secrets.token_urlsafe(24)
        data = self._data()
        devices = [d for d in data.get("devices", []) if isinstance(d, str)][-7:]
        data["devices"] = [*devices, hashlib.sha256(token.encode()).hexdigest()]
        self._save(data)
        return token

    def trusted(self, token: str | None) -> bool:
        if not token:
            return False
        digest = hashlib.sha256(token.encode()).hexdigest()
        return any(hmac.compare_digest(digest, d) for d in self._data().get("devices", []) if isinstance(d, str))

    @property
    def is_set(self) -> bool:
        return self._hash() is not None

    def check(self, password: str) -> bool:
        stored = self._hash()
        return stored is not None and check_password_hash(stored, password)

    def set_password(self, password: str) -> None:
        hashed = generate_password_hash(password, self.method)
        data = self._data()
        data.update({"user": "admin", "hash": hashed, "generation": self.generation + 1})
        self._save(data)
        (self.instance / SETUP_FILE).unlink(missing_ok=True)

    def stamp(self) -> str:
        """A token that changes with the password and the generation: a session holds it, so a new
        password or a logout logs every session out."""
        stored = f"{self._hash() or ''}:{self.generation}"
        return hmac.new(b"quizbox-session", stored.encode(), "sha256").hexdigest()[:32]

    def setup_code(self) -> str:
        """The first-run code (made once, kept until the password is set)."""
        return self._code(SETUP_FILE)

    def _code(self, name: str, fresh: bool = False) -> str:
        """The code kept in the instance file ``name`` (0600), made when missing or ``fresh``."""
        path = self.instance / name
        if path.exists() and not fresh:
            code = path.read_text(encoding="utf-8").strip()
            if code:
                return code
        code = "-".join(secrets.token_hex(2) for _ in range(3))
        write_private(path, code + "\n")
        return code

    def box_code(self) -> str:
        """The box's own login code (made once; a new one after each login that used it)."""
        return self._code(BOX_CODE_FILE)

    def new_box_code(self) -> str:
        return self._code(BOX_CODE_FILE, fresh=True)

    def box_code_ok(self, given: str | None) -> bool:
        """``given`` is the box code as typed (case, spaces and dashes do not matter); empty: no."""
        bare = "".join(ch for ch in (given or "").lower() if ch.isalnum())
        return bool(bare) and hmac.compare_digest(bare.encode(), self.box_code().replace("-", "").encode())

    def setup_code_ok(self, given: str) -> bool:
        """The code as typed: case, spaces and the dashes between its groups do not matter ("ab12 cd34
        ef56" is "ab12-cd34-ef56")."""
        def bare(code: str) -> bytes:
            return "".join(ch for ch in code.lower() if ch.isalnum()).encode()

        return hmac.compare_digest(bare(given), bare(self.setup_code()))
