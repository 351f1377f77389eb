"""The root side of a league join asked on the admin page (quizbox-league-join.service runs
``configure.py --join-league-request``): the request is checked again (it is from the less trusted admin
page), the same join_with_code joins at the real league page, the broker restarts only after a join, the
request is gone after one try, and the outcome's words are in the result file. A temporary folder stands in
for / (the bridge, the CA, the request and the result at their installed paths under it)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from appliance.infra.league_store import LeagueStore
from appliance.league.joincode import new_code, secret_hash
from tests.deploy.tools import load_configure
from tests.league.test_league_web import CA
from tests.web.test_league_join_form import league_page  # noqa: F401  (the league box's real page)

configure = load_configure()


class Broker:
    """Stands in for ``systemctl restart mosquitto.service``: counts the restarts, says what it is told."""

    def __init__(self, why: str = "") -> None:
        self.restarts, self.why = 0, why

    def __call__(self) -> str:
        self.restarts += 1
        return self.why


@pytest.fixture
def root(tmp_path: Path) -> Path:
    configure.configure(tmp_path, "pub-a", "Pub A")
    return tmp_path


def result_file(root: Path) -> dict[str, object]:
    data = json.loads((root / configure.LEAGUE_RESULT).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_a_request_joins_with_the_installers_code_and_restarts_the_broker_once(
        root: Path, league_page: tuple[str, LeagueStore]) -> None:  # noqa: F811
    url, store = league_page
    code = new_code(url, "pub-a", CA)
    store.add_member("pub-a", secret_hash(code.secret))
    asked = configure.write_join_request(root, " 127.0.0.1:8884 ", code.text())
    request = root / configure.LEAGUE_REQUEST
    assert request.stat().st_mode & 0o777 == 0o600
    assert request.parent.stat().st_mode & 0o777 == 0o700
    broker = Broker()

    result = configure.join_from_request(root, restart=broker)

    assert result["state"] == "ok" and result["request"] == asked
    assert broker.restarts == 1 and not request.exists()
    bridge = (root / configure.LEAGUE_DROPIN).read_text(encoding="utf-8")
    assert "address 127.0.0.1:8884" in bridge and "remote_password pw-pub-a" in bridge
    assert (root / configure.LEAGUE_CA).read_text(encoding="utf-8") == CA
    saved = result_file(root)
    assert saved["request"] == asked and saved["state"] == "ok"
    assert "joined the league at 127.0.0.1:8884 as pub-a" in saved["words"]  # type: ignore[operator]
    assert "mosquitto restarted: the bridge to the league is up" in saved["words"]  # type: ignore[operator]
    assert (root / configure.LEAGUE_RESULT).stat().st_mode & 0o777 == 0o644
    assert configure.read_join_result(root) == saved

    # the same code again: the league's refusal in its words, no restart, the bridge as it was
    again = configure.write_join_request(root, "127.0.0.1:8884", code.text())
    refused = configure.join_from_request(root, restart=broker)
    assert refused["state"] == "refused" and refused["request"] == again
    assert "used already" in refused["words"][0]
    assert broker.restarts == 1 and not request.exists()
    assert (root / configure.LEAGUE_DROPIN).read_text(encoding="utf-8") == bridge


def test_a_broker_that_does_not_restart_is_said(root: Path, league_page: tuple[str, LeagueStore]) -> None:  # noqa: F811
    url, store = league_page
    code = new_code(url, "pub-a", CA)
    store.add_member("pub-a", secret_hash(code.secret))
    configure.write_join_request(root, "127.0.0.1:8884", code.text())
    result = configure.join_from_request(root, restart=Broker("Job for mosquitto.service failed"))
    assert result["state"] == "restart-failed"
    assert ("the bridge is written, but mosquitto did not restart (Job for mosquitto.service failed): "
            "sudo systemctl restart mosquitto") in result["words"]


GOOD_CODE = "QBL1-" + "A" * 40


@pytest.mark.parametrize(("raw", "words"), [
    (b"address=x code=y", "the join request is not JSON"),
    (b"\xff\xfe", "the join request is not JSON"),
    (json.dumps(["127.0.0.1", GOOD_CODE]).encode(), "the join request is not {request, address, code}"),
    (json.dumps({"request": "ab", "address": "127.0.0.1", "code": GOOD_CODE, "root": "/"}).encode(),
     "the join request is not {request, address, code}"),
    (json.dumps({"request": "ab", "address": "127.0.0.1\nconnection evil", "code": GOOD_CODE}).encode(),
     "the join request's address is not 1-260 printable characters"),
    (json.dumps({"request": "ab", "address": "127.0.0.1", "code": 7}).encode(),
     "the join request's code is not 1-2000 printable characters"),
    (json.dumps({"request": "$(reboot)", "address": "127.0.0.1", "code": GOOD_CODE}).encode(),
     "the join request's id is not hexadecimal"),
    (json.dumps({"request": "ab", "address": "league.example.com;reboot", "code": GOOD_CODE}).encode(),
     "is not a host name or address"),
    (json.dumps({"request": "ab", "address": "127.0.0.1", "code": "QBL1-not-a-code"}).encode(), "damaged"),
    (b" " * 5000, "the join request is longer than 4096 bytes"),
])
def test_a_malformed_request_is_refused_with_words_and_writes_nothing(root: Path, raw: bytes, words: str) -> None:
    request = root / configure.LEAGUE_REQUEST
    request.parent.mkdir(parents=True)
    request.write_bytes(raw)
    broker = Broker()
    result = configure.join_from_request(root, restart=broker)
    assert result["state"] == "refused", result
    assert words in result["words"][0]
    assert result_file(root)["words"] == result["words"]
    assert broker.restarts == 0 and not request.exists()
    assert not (root / configure.LEAGUE_DROPIN).exists() and not (root / configure.LEAGUE_CA).exists()


def test_a_request_that_is_a_link_is_not_followed(root: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"request": "ab", "address": "127.0.0.1", "code": GOOD_CODE}))
    request = root / configure.LEAGUE_REQUEST
    request.parent.mkdir(parents=True)
    os.symlink(secret, request)
    result = configure.join_from_request(root, restart=Broker())
    assert result["state"] == "refused" and "cannot be read" in result["words"][0]
    assert not os.path.lexists(request) and secret.exists()
    assert not (root / configure.LEAGUE_DROPIN).exists()


def test_the_units_command_says_the_outcome_and_succeeds_on_a_refusal(
        root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert configure.main(["--root", str(root), "--join-league-request"]) == 0
    assert capsys.readouterr().out == f"configure: no join request at /{configure.LEAGUE_REQUEST}\n"
    assert not (root / configure.LEAGUE_RESULT).exists()
    request = root / configure.LEAGUE_REQUEST
    request.parent.mkdir(parents=True)
    request.write_text("{}")
    assert configure.main(["--root", str(root), "--join-league-request"]) == 0
    assert "configure: league join refused: the join request is not {request, address, code}" in capsys.readouterr().out
    assert not request.exists()


def test_a_join_that_fails_unexpectedly_tells_the_page_and_fails_the_unit(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> list[str]:
        raise KeyError("port")

    monkeypatch.setattr(configure, "join_with_code", broken)
    asked = configure.write_join_request(root, "127.0.0.1", GOOD_CODE)
    with pytest.raises(KeyError):
        configure.join_from_request(root, restart=Broker())
    saved = result_file(root)
    assert saved["request"] == asked and saved["state"] == "failed"
    assert "the join failed unexpectedly (KeyError: 'port')" in saved["words"][0]  # type: ignore[index]
    assert not (root / configure.LEAGUE_REQUEST).exists()
