"""What the blueprints share, kept on the app: the store, the appliance link, the phones, the account."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from flask import current_app

from appliance.infra.store import Store
from web.account import Account
from web.link import ApplianceLink
from web.phones import Phones
from web.push import PushHub
from web.ratelimit import RateLimit

KEY = "quizbox"


@dataclass
class Services:
    box: str
    store: Store
    link: ApplianceLink
    phones: Phones
    account: Account
    joins: RateLimit
    push: PushHub | None = None  # the phones' push streams (web/push.py); None: phones poll


def services() -> Services:
    return cast(Services, current_app.extensions[KEY])
