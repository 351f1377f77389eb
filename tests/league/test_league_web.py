"""The league box's page: the table, the CSV and the one-time join endpoint (bad input refused, said why)."""

from __future__ import annotations

from pathlib import Path

from appliance.infra.league_store import LeagueStore
from appliance.infra.store import Store
from appliance.league.joincode import check_answer, new_code, parse_code, secret_hash
from web.league import create_league_app

CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"


class Service:
    def __init__(self, store: LeagueStore) -> None:
        self.league = store
        self.made: list[str] = []

    def table(self) -> list[dict[str, object]]:
        return [{"place": 1, "team": "<Owls>", "box": "pub-a", "points": 100, "nights": 1, "wins": 1}]

    def results(self) -> list[dict[str, object]]:
        return [{"result_id": "r1", "box": "pub-a", "plan": "w1", "places": {"Owls": 1, "Bats": 2},
                 "points": {"Owls": 3, "Bats": 1}}]

    def redeem(self, box: str, secret: str) -> str:
        self.league.redeem(box, secret_hash(secret))
        self.made.append(box)
        return "pw-" + box


def test_the_page_the_csv_and_a_join_code_that_works_once(tmp_path: Path) -> None:
    league = LeagueStore(Store(tmp_path / "l.db"))
    service = Service(league)
    client = create_league_app(service, "league.example", 8883, CA).test_client()
    page = client.get("/").get_data(as_text=True)
    assert "&lt;Owls&gt;" in page and "<Owls>" not in page
    assert client.get("/results.csv").data.startswith(b"\xef\xbb\xbfresult_id,")
    code = new_code("http://league.example", "pub-a", CA)
    league.add_member("pub-a", secret_hash(code.secret))
    parsed = parse_code(code.text())
    answer = client.post("/league/join", json={"box": parsed.box, "secret": parsed.secret})
    assert answer.status_code == 200 and check_answer(parsed, answer.get_json())["password"] == "pw-pub-a"
    again = client.post("/league/join", json={"box": parsed.box, "secret": parsed.secret})
    assert again.status_code == 403 and "used already" in again.get_json()["error"]
    assert client.post("/league/join", data="x").status_code == 400
    assert service.made == ["pub-a"]


def test_a_damaged_code_or_a_foreign_ca_is_refused() -> None:
    import pytest

    from appliance.league.payloads import LeagueError

    code = new_code("https://league.example", "pub-a", CA)
    with pytest.raises(LeagueError, match="starts with QBL1-"):
        parse_code("hello")
    with pytest.raises(LeagueError, match="damaged"):
        parse_code(code.text()[:-6])
    assert parse_code(" " + code.text()[:20] + "\n" + code.text()[20:]) == code  # line breaks ignored
    with pytest.raises(LeagueError, match="not the one in the join code"):
        check_answer(code, {"host": "h", "port": 1, "password": "p", "ca": CA.replace("MIIB", "MIIC")})
