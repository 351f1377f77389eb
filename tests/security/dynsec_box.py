"""The box's broker for tests: a real mosquitto with the dynamic security plugin, set up as the installer
and the appliance do (appliance/edge/accounts.py); :class:`MemoryAccounts` for the pairing rules' own tests."""
from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass

from appliance.edge.accounts import BrokerAccounts, Dynsec, MemoryAccounts, PahoTransport
from appliance.edge.broker import MosquittoBroker
from appliance.edge.pairing import Pairing
from tests.conftest import _need_mosquitto

__all__ = ["DynsecBox", "MemoryAccounts", "dynsec_box"]


@dataclass
class DynsecBox:
    broker: MosquittoBroker
    accounts: BrokerAccounts
    pairing: Pairing
    passwords: dict[str, str]


@contextlib.contextmanager
def dynsec_box(box: str, settle: float = 0.0, extra_config: str = "", port: int | None = None) -> Iterator[DynsecBox]:
    """``settle``: the pairing's SETTLE (0 here: the tests that pair handsets for other ends would each
    wait 12 s; the settle rule's own tests set it, tests/security/test_wifi_guest.py)."""
    _need_mosquitto()
    passwords = {"appliance": secrets.token_urlsafe(18), "web": secrets.token_urlsafe(18)}
    # as root, "user root" keeps mosquitto able to save its file in the temporary folder
    with MosquittoBroker(port=port, admin=("appliance", passwords["appliance"]), box=box,
                         extra_config="user root\n" + extra_config) as broker:
        transport = PahoTransport("127.0.0.1", broker.port, "appliance", passwords["appliance"])
        try:
            accounts = BrokerAccounts(box, Dynsec(transport))
            accounts.setup(web_password=passwords["web"])  # what the installer's --sync-accounts does
            pairing = Pairing(accounts, settle=settle)
            pairing.ensure_service_account()  # what the appliance does at every start
            yield DynsecBox(broker, accounts, pairing, passwords)
        finally:
            transport.close()
