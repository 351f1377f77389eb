"""appliance.edge.pairing without a broker: the password hashes are mosquitto_passwd's, the ACL is the
installer's (plus the pairing account), the files keep the group mosquitto reads them as, and every bad
pairing request or acceptance is refused with nothing written."""

from __future__ import annotations

import grp
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from appliance.edge.pairing import (
    MAX_PENDING,
    PAIRING_USER,
    Accounts,
    Pairing,
    PairingError,
    format_passwd,
    hash_password,
    pair_code,
    parse_passwd,
    render_acl,
    request_payload,
    verify_password,
)
from firmware import protocol
from tests.deploy.tools import REPO, load_configure

BOX = "pub"
SECRET = "s3cret-of-handset-one"


def test_a_hash_made_by_mosquitto_passwd_verifies_and_ours_has_its_format(tmp_path: Path) -> None:
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        if os.environ.get("CI") == "true":
            pytest.fail("mosquitto_passwd is missing: CI installs mosquitto")
        pytest.skip("mosquitto_passwd is missing")
    path = tmp_path / "passwd"
    subprocess.run([tool, "-c", "-b", str(path), "h1", SECRET], check=True, capture_output=True)
    theirs = parse_passwd(path.read_text())["h1"]
    assert theirs.startswith("$7$") and verify_password(SECRET, theirs) and not verify_password("other", theirs)
    ours = hash_password(SECRET)
    assert ours.split("$")[1:3] == theirs.split("$")[1:3]  # $7$, the same iteration count
    assert verify_password(SECRET, ours) and not verify_password(SECRET + "x", ours)
    assert not verify_password(SECRET, "$9$nonsense") and not verify_password(SECRET, "$7$x$y$z")


def test_the_acl_is_the_installers_plus_the_pairing_account() -> None:
    configure = load_configure()
    template = Path(REPO, "deploy", "acl.template").read_text()
    theirs = configure.render_acl(template, BOX, "appliance", ["h1", "esp32-a1b2c3"])
    ours = render_acl(BOX, ["h1", "esp32-a1b2c3"])
    start = ours.index("# A handset without an account yet")
    block = ours[start: ours.index("\n\n", start) + 2]
    assert block.endswith(f"user {PAIRING_USER}\ntopic write quizbox/{BOX}/pairing/+\n\n")
    assert ours.replace(block, "") == theirs


def test_service_and_phone_names_never_get_handset_rights() -> None:
    for name in ("appliance", "web", PAIRING_USER, "phone-abcd2345", "a/b", "+", ""):
        with pytest.raises(PairingError):
            render_acl(BOX, [name])


def test_files_are_written_once_kept_in_step_and_keep_their_group(tmp_path: Path) -> None:
    reloads: list[int] = []
    accounts = Accounts(BOX, tmp_path, reload=lambda: reloads.append(1))
    accounts.set_password("appliance", "app-password")
    assert reloads == [1]
    group = grp.getgrnam("nogroup").gr_gid if os.geteuid() == 0 else os.getegid()
    for path in (accounts.passwd, accounts.acl):
        os.chown(path, -1, group)
    accounts.set_password("appliance", "app-password")  # nothing new: nothing written, no reload
    assert reloads == [1]
    accounts.set_password("h1", SECRET)
    assert reloads == [1, 1]
    for path in (accounts.passwd, accounts.acl):
        assert path.stat().st_gid == group and path.stat().st_mode & 0o777 == 0o640
    assert accounts.handsets() == ["h1"] and "user h1\n" in accounts.acl.read_text()
    assert accounts.remove("h1") and not accounts.remove("h1")
    assert accounts.handsets() == [] and "user h1\n" not in accounts.acl.read_text()
    assert format_passwd(parse_passwd(accounts.passwd.read_text())) == accounts.passwd.read_text()


@pytest.fixture
def pairing(tmp_path: Path) -> Pairing:
    made = Pairing(Accounts(BOX, tmp_path))
    made.ensure_service_account()
    return made


@pytest.mark.parametrize(("handset", "payload", "reason"), [
    ("h1", b"{not json", "not JSON"),
    ("h1", b'{"v": 2, "secret": "0123456789abcdefgh"}', "version"),
    ("h1", request_payload("h2", SECRET), "does not match"),
    ("h1", request_payload("h1", "short"), "secret must be"),
    ("h1", request_payload("h1", "x" * 65), "secret must be"),
    ("h1", request_payload("h1", "with a space in it!"), "secret must be"),
    ("h1", request_payload("h1", SECRET, "N" * (protocol.MAX_NAME + 1)), "bad name"),
    ("web", request_payload("web", SECRET), "cannot be paired"),
    (PAIRING_USER, request_payload(PAIRING_USER, SECRET), "cannot be paired"),
    ("phone-abcd2345", request_payload("phone-abcd2345", SECRET), "cannot be paired"),
])
def test_bad_requests_are_refused_and_remembered_nowhere(
    pairing: Pairing, handset: str, payload: bytes, reason: str
) -> None:
    with pytest.raises((PairingError, protocol.ProtocolError), match=reason):
        pairing.request(handset, payload)
    assert pairing.requests() == {}


def test_the_first_request_stands_and_a_paired_id_is_not_paired_again(pairing: Pairing) -> None:
    first = pairing.request("h1", request_payload("h1", SECRET, "Ann"))
    assert first.code == pair_code(SECRET) and pairing.requests() == {"h1": {"code": first.code, "name": "Ann"}}
    assert pairing.request("h1", request_payload("h1", SECRET)) == first  # it asks again while it waits
    with pytest.raises(PairingError, match="another secret"):
        pairing.request("h1", request_payload("h1", "a-copycat-secret-value"))
    passwd = pairing.accounts.passwd.read_text()
    with pytest.raises(PairingError, match="another code"):
        pairing.accept("h1", code="0000" if first.code != "0000" else "1111")
    assert pairing.accounts.passwd.read_text() == passwd  # a wrong code writes nothing
    assert pairing.accept("h1", code=first.code) is True
    assert verify_password(SECRET, pairing.accounts.read()["h1"]) and pairing.may_speak("h1")
    with pytest.raises(PairingError, match="already has an account"):
        pairing.request("h1", request_payload("h1", "a-copycat-secret-value"))
    assert verify_password(SECRET, pairing.accounts.read()["h1"])
    assert pairing.remove("h1") and not pairing.may_speak("h1")


def test_accepting_needs_a_request_but_phones_need_none(pairing: Pairing) -> None:
    with pytest.raises(PairingError, match="has not asked"):
        pairing.accept("h9")
    assert pairing.accept("phone-abcd2345") is False and pairing.may_speak("phone-abcd2345")
    assert not pairing.may_speak("h9") and not pairing.may_speak(PAIRING_USER) and not pairing.may_speak("web")


def test_waiting_requests_are_bounded(pairing: Pairing) -> None:
    for i in range(MAX_PENDING + 3):
        pairing.request(f"h{i}", request_payload(f"h{i}", f"{SECRET}-{i}"))
    assert list(pairing.requests()) == [f"h{i}" for i in range(3, MAX_PENDING + 3)]


def test_a_damaged_password_file_lets_no_handset_speak(pairing: Pairing) -> None:
    pairing.request("h1", request_payload("h1", SECRET))
    pairing.accept("h1")
    assert pairing.may_speak("h1")
    pairing.accounts.passwd.write_text("this line is not user:hash\n")
    assert not pairing.may_speak("h1") and pairing.may_speak("phone-abcd2345")
