"""One-time join codes (docs/league.md "Setting up a chain").

The league box makes a code for a named member box: ``QBL1-`` and base64url JSON of the league's web
address, the box id, a one-time secret and the SHA-256 of the league's CA certificate. The member box
sends box and secret to the league's web page once (``POST /league/join``) and gets back its league
account's password, the league broker's address and the CA, which it checks against the hash in the
code: a code copied by someone else after it was used gets nothing, and a web page that is not the
league's cannot hand out another CA. The league stores only the secret's hash.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from appliance.league.payloads import LeagueError, check_id

PREFIX = "QBL1-"


@dataclass(frozen=True)
class JoinCode:
    url: str
    box: str
    secret: str
    ca_sha256: str

    def text(self) -> str:
        data = {"url": self.url, "box": self.box, "secret": self.secret, "ca": self.ca_sha256}
        return PREFIX + base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def ca_hash(ca_pem: str) -> str:
    return hashlib.sha256(ca_pem.strip().encode()).hexdigest()


def new_code(url: str, box: str, ca_pem: str) -> JoinCode:
    check_id(box, "a member box id")
    if not url.startswith(("http://", "https://")):
        raise LeagueError(f"the league's web address must start with http:// or https://, got {url!r}")
    return JoinCode(url.rstrip("/"), box, secrets.token_urlsafe(18), ca_hash(ca_pem))


def parse_code(text: str) -> JoinCode:
    """The code as typed or pasted (spaces and line breaks ignored); :class:`LeagueError` says what is wrong."""
    raw = "".join(text.split())
    if not raw.startswith(PREFIX):
        raise LeagueError(f"a league join code starts with {PREFIX}: check you copied all of it")
    body = raw[len(PREFIX):]
    try:
        data: Any = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (ValueError, UnicodeDecodeError):
        raise LeagueError("the join code is damaged (copy it again from the league's page)") from None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("url", "box", "secret", "ca")):
        raise LeagueError("the join code is damaged (copy it again from the league's page)")
    code = JoinCode(data["url"], check_id(data["box"], "the join code's box"), data["secret"], data["ca"])
    if not code.url.startswith(("http://", "https://")) or len(code.ca_sha256) != 64:
        raise LeagueError("the join code is damaged (copy it again from the league's page)")
    return code


def check_answer(code: JoinCode, answer: object) -> dict[str, Any]:
    """The league's answer to a redeemed code: host, port, password, ca; refused unless the CA is the one
    the code names."""
    if not isinstance(answer, dict) or not isinstance(answer.get("ca"), str):
        raise LeagueError(f"the league did not accept the code: {str(answer)[:200]}")
    if ca_hash(answer["ca"]) != code.ca_sha256:
        raise LeagueError("the league's page sent a CA that is not the one in the join code: not joined")
    if not isinstance(answer.get("host"), str) or not isinstance(answer.get("port"), int) \
            or not isinstance(answer.get("password"), str):
        raise LeagueError("the league's answer lacks its broker's host, port or this box's password")
    return answer
