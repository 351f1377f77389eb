"""The one admin account: a password hash in the instance folder, and the one-time code of the first run.

Hashing is werkzeug's (scrypt), a kept library already in the dependencies. The first-run page is the
weak moment on a pub's Wi-Fi (anyone on the network could set the password first), so it asks for a
setup code that only the person who started the box can read: printed by ``quizbox web`` and kept in
the instance folder (mode 0600) until the password is set.
"""

from __future__ import annotations

import hmac
import json
import secrets
from pathlib import Path

from werkzeug.security import check_password_hash, generate_password_hash

from web.settings import write_private

ACCOUNT_FILE = "admin.json"
SETUP_FILE = "setup-code"


class Account:
    def __init__(self, instance: Path, method: str = "scrypt") -> None:
        self.instance = instance
        self.method = method
        self.path = instance / ACCOUNT_FILE

    def _hash(self) -> str | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        value = data.get("hash") if isinstance(data, dict) else None
        return value if isinstance(value, str) and value else None

    @property
    def is_set(self) -> bool:
        return self._hash() is not None

    def check(self, password: str) -> bool:
        stored = self._hash()
        return stored is not None and check_password_hash(stored, password)

    def set_password(self, password: str) -> None:
        hashed = generate_password_hash(password, self.method)
        write_private(self.path, json.dumps({"user": "admin", "hash": hashed}) + "\n")
        (self.instance / SETUP_FILE).unlink(missing_ok=True)

    def stamp(self) -> str:
        """A token that changes with the password: a session holds it, so a new password logs every
        other session out."""
        stored = self._hash() or ""
        return hmac.new(b"quizbox-session", stored.encode(), "sha256").hexdigest()[:32]

    def setup_code(self) -> str:
        """The first-run code (made once, kept until the password is set)."""
        path = self.instance / SETUP_FILE
        if path.exists():
            code = path.read_text(encoding="utf-8").strip()
            if code:
                return code
        code = "-".join(secrets.token_hex(2) for _ in range(3))
        write_private(path, code + "\n")
        return code

    def setup_code_ok(self, given: str) -> bool:
        """The code as typed: case, spaces and the dashes between its groups do not matter ("ab12 cd34
        ef56" is "ab12-cd34-ef56")."""
        def bare(code: str) -> bytes:
            return "".join(ch for ch in code.lower() if ch.isalnum()).encode()

        return hmac.compare_digest(bare(given), bare(self.setup_code()))
