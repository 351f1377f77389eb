"""Throttles for the admin page's logins (Flask-Limiter) and for phone joins.

Logins (and the first-run setup code) are limited by Flask-Limiter, counting only failed tries
(``deduct_when``), in two ways at once:

* per address (or, for a device the quizmaster logged in from before, per device): stacked windows that
  work as a backoff, :data:`PER_CLIENT`: 5 tries a minute, 15 in 15 minutes, 40 a day;
* per account, from every address together, :data:`PER_ACCOUNT`, so many addresses cannot guess faster;
  a device the quizmaster logged in from before (its ``quizbox_device`` cookie names a token the account
  remembers, web/account.py) is exempt: nobody else's failures lock the quizmaster's own device out;
  so is a login carrying the box's own code (read at the box, never on the network), the way in from a
  new device that guests on many addresses cannot close (issue 32).

A success does not clear the counts: a guesser who also knows one password of the past gains nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from flask import Response, request
from flask_limiter import Limiter

from web.ratelimit import RateLimit as RateLimit  # re-exported: the phone joins' limit

Clock = Callable[[], float]

DEVICE_COOKIE = "quizbox_device"
PER_CLIENT = "5 per minute;15 per 15 minutes;40 per day"
PER_ACCOUNT = "30 per minute;200 per hour"


def _device_trusted() -> bool:
    from web.services import services

    return services().account.trusted(request.cookies.get(DEVICE_COOKIE))


def _box_code_given() -> bool:
    """The login carries the box's own code (read at the box, web/account.py BOX_CODE_FILE): the way in
    that guests on many addresses cannot close by filling the account-wide cap (issue 32)."""
    from web.services import services

    return services().account.box_code_ok(request.form.get("box_code"))


def _exempt_from_the_account_cap() -> bool:
    return _device_trusted() or _box_code_given()


def client_key() -> str:
    """Whose tries these are: the quizmaster's own device by its cookie, anyone else by address."""
    if _device_trusted():
        return "device:" + str(request.cookies.get(DEVICE_COOKIE))
    return "address:" + (request.remote_addr or "?")


def _failed(response: Response) -> bool:
    return response.status_code in (400, 401)


limiter = Limiter(key_func=client_key, storage_uri="memory://", headers_enabled=True, strategy="fixed-window")

# the decorators the login and setup views carry
per_client = limiter.limit(PER_CLIENT, key_func=client_key, methods=["POST"], deduct_when=_failed)
per_account = limiter.shared_limit(PER_ACCOUNT, scope="admin-account", key_func=lambda: "admin",
                                   methods=["POST"], deduct_when=_failed, exempt_when=_exempt_from_the_account_cap)


def retry_after() -> float:
    """Seconds until the limit the current request hit lets it try again."""
    limit = getattr(request, "view_rate_limit", None) or limiter.current_limit
    if limit is None:
        return 60.0
    return max(1.0, float(limit.reset_at) - time.time())
