"""The box's broker for tests: a real mosquitto with the dynamic security plugin, set up as the installer
and the appliance do (appliance/edge/accounts.py), and a :class:`MemoryAccounts` for the pairing rules'
own tests (the same interface as BrokerAccounts, kept in a set)."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

from appliance.edge.accounts import APPLIANCE_USER, BrokerAccounts, Dynsec, PahoTransport, is_handset_account
from appliance.edge.broker import MosquittoBroker
from appliance.edge.pairing import Pairing
from tests.conftest import _need_mosquitto


@dataclass
class DynsecBox:
    broker: MosquittoBroker
    accounts: BrokerAccounts
    pairing: Pairing
    passwords: dict[str, str]


@contextlib.contextmanager
def dynsec_box(box: str) -> Iterator[DynsecBox]:
    _need_mosquitto()
    passwords = {"appliance": secrets.token_urlsafe(18), "web": secrets.token_urlsafe(18)}
    # as root, "user root" keeps mosquitto able to save its file in the temporary folder
    with MosquittoBroker(admin=("appliance", passwords["appliance"]), box=box, extra_config="user root\n") as broker:
        transport = PahoTransport("127.0.0.1", broker.port, "appliance", passwords["appliance"])
        try:
            accounts = BrokerAccounts(box, Dynsec(transport))
            accounts.setup(web_password=passwords["web"])  # what the installer's --sync-accounts does
            pairing = Pairing(accounts)
            pairing.ensure_service_account()  # what the appliance does at every start
            yield DynsecBox(broker, accounts, pairing, passwords)
        finally:
            transport.close()


@dataclass
class MemoryAccounts:
    """Handset accounts in a set, for the pairing rules' tests that need no broker."""

    appliance_user: str = APPLIANCE_USER
    made: dict[str, str] = field(default_factory=dict)

    def setup(self, web_password: str | None = None) -> list[str]:
        return sorted(self.made)

    def has(self, handset: str) -> bool:
        return handset in self.made

    def add_handset(self, handset: str, secret: str) -> None:
        assert is_handset_account(handset)
        self.made[handset] = secret

    def remove_handset(self, handset: str) -> bool:
        return self.made.pop(handset, None) is not None
