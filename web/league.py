"""The league box's web page (docs/league.md): the season table, the results as CSV, and the endpoint a
member box redeems its one-time join code at (``POST /league/join``)."""

from __future__ import annotations

from typing import Any, Protocol

from flask import Flask, Response, jsonify, render_template_string, request

from appliance.edge.accounts import AccountsError
from appliance.infra.league_store import Refused
from appliance.league.export import season_csv
from appliance.league.payloads import LeagueError

PAGE = """<!doctype html><meta charset="utf-8"><title>League table</title>
<h1>League table</h1><p><a href="/results.csv">Season results (CSV)</a></p>
<table><tr><th>Place</th><th>Team</th><th>Home</th><th>Points</th><th>Nights</th><th>Won</th></tr>
{% for r in rows %}<tr><td>{{ r.place }}</td><td>{{ r.team }}</td><td>{{ r.box }}</td><td>{{ r.points }}</td>
<td>{{ r.nights }}</td><td>{{ r.wins }}</td></tr>{% endfor %}</table>"""


class Service(Protocol):
    def table(self) -> list[dict[str, Any]]: ...

    def results(self) -> list[dict[str, Any]]: ...

    def redeem(self, box: str, secret: str) -> str: ...


def create_league_app(service: Service, broker_host: str, tls_port: int, ca_pem: str) -> Flask:
    from web.settings import DEFAULTS

    app = Flask("quizbox-league")
    # the connection bounds the admin page has (web/connections.py), for guarded_server
    app.config.update({k: DEFAULTS[k] for k in ("THREADS", "CONNECTION_LIMIT", "CONNECTIONS_PER_ADDRESS",
                                                "HEADER_TIMEOUT", "CHANNEL_TIMEOUT", "CLEANUP_INTERVAL")})

    @app.get("/")
    def table() -> str:
        return render_template_string(PAGE, rows=service.table())

    @app.get("/results.csv")
    def results() -> Response:
        return Response(season_csv(service.results()), mimetype="text/csv",
                        headers={"Content-Disposition": "attachment; filename=league-season.csv"})

    @app.post("/league/join")
    def join() -> tuple[Response, int]:
        data = request.get_json(silent=True)
        if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("box", "secret")):
            return jsonify({"error": "send JSON with the join code's box and secret"}), 400
        try:
            password = service.redeem(data["box"], data["secret"])
        except (Refused, LeagueError) as exc:
            return jsonify({"error": str(exc)}), 403
        except AccountsError as exc:
            return jsonify({"error": f"the league's broker could not make the account, try again: {exc}"}), 503
        return jsonify({"host": broker_host, "port": tls_port, "password": password, "ca": ca_pem}), 200

    return app
