"""The league's topics and who may use them on the league's broker (rules.md The league 5).

Standard library only: the installer (deploy/configure.py) renders a member's bridge from these.

A member box publishes its results under its own box id and reads only the league's plans, the acks of
its own results and the season table; the league's service reads and writes everything under
``league/``. The same topics exist on the member's own broker: its bridge carries them both ways.
"""

from __future__ import annotations

from typing import Any

PREFIX = "league/"
SERVICE_USER = "league"
MEMBER_ROLE_PREFIX = "league-member-"
SERVICE_ROLE = "league-service"


def result_topic(box: str, result_id: str) -> str:
    return f"league/result/{box}/{result_id}"


def ack_topic(box: str, result_id: str) -> str:
    return f"league/ack/{box}/{result_id}"


def plan_topic(plan_id: str) -> str:
    return f"league/plan/{plan_id}"


TABLE_TOPIC = "league/table"
RESULTS_FILTER = "league/result/+/+"

# (access, topic) as in appliance/edge/accounts.py RIGHTS; {box} is the member's box id
MEMBER_RIGHTS: tuple[tuple[str, str], ...] = (
    ("write", "league/result/{box}/#"),
    ("read", "league/plan/#"),
    ("read", "league/ack/{box}/#"),
    ("read", TABLE_TOPIC),
)
SERVICE_RIGHTS: tuple[tuple[str, str], ...] = (
    ("readwrite", "league/#"),
    ("readwrite", "$CONTROL/dynamic-security/#"),
)
# what a member box's own appliance does with these topics on its own broker
APPLIANCE_RIGHTS: tuple[tuple[str, str], ...] = (
    ("write", "league/result/{box}/#"),
    ("read", "league/plan/#"),
    ("read", "league/ack/{box}/#"),
    ("read", TABLE_TOPIC),
)


def acl_entries(rights: tuple[tuple[str, str], ...], box: str = "") -> list[dict[str, Any]]:
    """The dynamic security plugin's ACL entries for ``rights`` (reads are subscribePattern plus
    publishClientReceive, writes publishClientSend); the one translation, used by appliance.edge.accounts too."""
    out: list[dict[str, Any]] = []
    for access, pattern in rights:
        topic = pattern.format(box=box)
        if access in ("write", "readwrite"):
            out.append({"acltype": "publishClientSend", "topic": topic, "allow": True})
        if access in ("read", "readwrite"):
            out.append({"acltype": "subscribePattern", "topic": topic, "allow": True})
            out.append({"acltype": "publishClientReceive", "topic": topic, "allow": True})
    return out


def bridge_client_id(box: str) -> str:
    return f"league-{box}"


def member_commands(box: str, password: str) -> list[dict[str, Any]]:
    """Dynamic security commands giving member ``box`` its league account (user name = box id, only with
    client id :func:`bridge_client_id`) and its role; a second run replaces the password."""
    role = MEMBER_ROLE_PREFIX + box
    acls = acl_entries(MEMBER_RIGHTS, box)
    client = {"username": box, "password": password, "clientid": bridge_client_id(box), "roles": [{"rolename": role}]}
    return [{"command": "createRole", "rolename": role, "acls": acls},
            {"command": "modifyRole", "rolename": role, "acls": acls},
            {"command": "createClient", **client}, {"command": "modifyClient", **client}]
