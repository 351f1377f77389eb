"""The admin page and the phone handsets: a Flask app (``create_app``) served by waitress (``serve``).

Settings come from :mod:`web.settings` defaults, the box's TOML config (box id, broker, data folder, web
host and port) and the instance folder ``<data_dir>/web`` (secret key, admin password, ``web.cfg``).
``test_config`` overrides all of them; it may carry ``QUIZBOX_CONFIG`` (a :class:`appliance.infra.config.Config`),
``LINK`` (an :class:`web.link.ApplianceLink`), ``PHONE_FACTORY`` and ``STORE``.
"""

from __future__ import annotations

import argparse
import logging
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect  # type: ignore[import-untyped]

from appliance.edge.mqtt import Connection
from appliance.infra.config import Config, load_config
from web import boxsettings, restore
from web.account import Account
from web.link import ApplianceLink, MqttLink
from web.phones import Phones, mqtt_factory
from web.push import PushHub
from web.services import KEY, Services
from web.settings import DEFAULTS, secret_key
from web.throttle import RateLimit, limiter

log = logging.getLogger(__name__)

csrf = CSRFProtect()


def broker_connection(config: Config) -> Connection:
    """Where the web process finds the appliance's broker: the configured one, else the box's own on
    this machine at the configured port."""
    b = config.broker
    return Connection(b.host or "127.0.0.1", b.port, b.username, b.password, b.tls, b.ca_file, b.keepalive)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    overrides = dict(test_config or {})
    config: Config = overrides.pop("QUIZBOX_CONFIG", None) or load_config()
    instance = Path(overrides.pop("INSTANCE_PATH", config.data_path / "web"))
    instance.mkdir(parents=True, exist_ok=True)
    app = Flask(__name__, instance_path=str(instance), instance_relative_config=True)
    app.config.update(DEFAULTS)
    app.config.from_pyfile("web.cfg", silent=True)
    boxsettings.use(app, config)  # the Settings page's values (phone places, answer time, the box's name)
    app.config["SECRET_KEY"] = secret_key(instance)
    app.config["QUIZBOX_BOX"] = config.box.id
    app.config["WEB_HOST"], app.config["WEB_PORT"] = config.web.host, config.web.port
    link = overrides.pop("LINK", None)
    factory = overrides.pop("PHONE_FACTORY", None)
    store = overrides.pop("STORE", None)
    app.config.update(overrides)

    app.config["QUIZBOX_DATA"] = str(config.data_path)
    if store is None:  # a damaged database still gives an admin page, which offers the good copy (web/restore.py)
        store = restore.open_store(app, config.data_path / "quizbox.db")
    if link is None:
        link = MqttLink(config.box.id, broker_connection(config)).start(wait=None)
    push = PushHub(app.config["SECRET_KEY"], keepalive=float(app.config["PUSH_KEEPALIVE_SECONDS"]))
    phones = Phones(
        config.box.id,
        factory or mqtt_factory(broker_connection(config)),
        max_phones=int(app.config["MAX_PHONES"]),
        idle_seconds=float(app.config["PHONE_IDLE_SECONDS"]),
        forget_seconds=float(app.config["PHONE_FORGET_SECONDS"]),
        per_address=int(app.config["PHONES_PER_ADDRESS"]),
        seated=lambda handset_id: _seated(link, handset_id),
        on_change=push.notify,
        streaming=push.streaming,
    )
    app.extensions[KEY] = Services(
        box=config.box.id,
        store=store,
        link=link,
        phones=phones,
        account=Account(instance, str(app.config["PASSWORD_METHOD"])),
        joins=RateLimit(int(app.config["JOINS_PER_ADDRESS"]), 600.0),
        push=push,
    )
    from web import media

    media.install(app, config)
    csrf.init_app(app)
    limiter.init_app(app)  # the admin page's login throttles (web/throttle.py)

    from web import auth, decks, games, handsets, league_join, league_plans, live, night, pages, phone, tv

    for module in (auth, boxsettings, decks, games, handsets, league_join, league_plans, live, night, phone,
                   restore, tv):
        app.register_blueprint(module.bp)
    # a phone's changed screen goes out on its stream
    push.render = lambda handset_id: phone.pushed_panel(app, handset_id)
    pages.install(app)
    restore.install(app)
    from web.decks_seed import seed_shipped

    seed_shipped(store)
    return app


def _seated(link: ApplianceLink, handset_id: str) -> bool:
    """Whether a handset is seated in the game, as the public board says."""
    board = link.board() or {}
    players = board.get("players") if isinstance(board, dict) else None
    return any(isinstance(p, dict) and p.get("handset") == handset_id and p.get("seated") for p in players or [])


def serve(args: argparse.Namespace) -> None:
    """``quizbox web``: the app under waitress (never Flask's development server), with the connection
    bounds of web/connections.py."""
    from web.connections import guarded_server

    config = load_config(getattr(args, "config", None))
    app = create_app({"QUIZBOX_CONFIG": config})
    account: Account = app.extensions[KEY].account
    if not account.is_set:
        print(f"quizbox web: first run: open http://<this box>:{config.web.port}/setup and type the setup code "
              f"{account.setup_code()} (also in {account.instance}/setup-code)", flush=True)
    print(f"quizbox web: admin page on http://{config.web.host}:{config.web.port}/", flush=True)
    server = guarded_server(app, config.web.host, config.web.port)
    logging.basicConfig()  # as waitress.serve does, so its warnings and ours reach the journal
    server.print_listen("quizbox web: serving on http://{}:{}")
    server.run()


class ServerThread:
    """waitress in a background thread on ``host:port`` (the demo and the browser tests)."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0) -> None:
        from web.connections import guarded_server

        self.app = app
        self.server = guarded_server(app, host, port)
        self.port: int = self.server.effective_port
        self.url = f"http://{host}:{self.port}"
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="waitress", daemon=True)

    def _run(self) -> None:
        try:
            self.server.run()
        except OSError:  # stop() closed a socket the loop's select() was watching (as webtest's server allows)
            if not self._stopping:
                raise

    def start(self) -> ServerThread:
        self._thread.start()
        return self

    def stop(self) -> None:
        # close every channel and the listener from here: the loop ends when its map is empty (as
        # webtest's StopableWSGIServer does), then the worker threads stop
        self._stopping = True
        while self.server._map:
            for channel in list(self.server._map.values()):
                channel.handle_close()
        self._thread.join(timeout=5)
        self.server.task_dispatcher.shutdown()
        services: Services = self.app.extensions[KEY]
        if services.push is not None:
            services.push.stop()
        services.phones.close()
