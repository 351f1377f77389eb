"""Settings: the box's name, join approval, answer time, phone places, sound, the TV's resolution (the
list :data:`appliance.infra.settings.SETTINGS`) and the admin password, set on the admin page.

The values are stored in ``<data_dir>/settings.json`` (appliance/infra/settings.py), which the quiz program
reads when it starts; what the admin page uses itself (the box's name on its pages, phone places, the
answer time of a new game) takes effect at once. A bad value is refused with the setting's name and what
it takes; the form keeps what was typed and nothing is stored.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from appliance.errors import ConfigError
from appliance.infra import settings as box_settings
from appliance.infra.config import Config
from web.services import services

bp = Blueprint("settings", __name__, url_prefix="/settings")

CONFIG_KEY = "BOX_CONFIG"


def current() -> Config:
    config: Config = current_app.config[CONFIG_KEY]
    return config


def use(app: Any, config: Config) -> None:
    """Make ``config`` the admin page's: its name on the pages, phone places and the answer time."""
    app.config[CONFIG_KEY] = config
    app.config["QUIZBOX_NAME"] = config.box.name
    app.config["MAX_PHONES"] = config.web.phones
    app.config["ANSWER_SECONDS"] = config.game.answer_seconds


def answer_seconds() -> int:
    """The answer time a game or night round gets when its own is left blank (0: none)."""
    return int(current_app.config.get("ANSWER_SECONDS") or 0)


@bp.route("/", methods=["GET", "POST"])
def index() -> str | BaseResponse | tuple[str, int]:
    error = None
    config = current()
    values = {s.key: s.show(config) for s in box_settings.SETTINGS}
    if request.method == "POST":
        values |= {k: str(request.form[k]) for k in values if k in request.form}
        try:
            updated = box_settings.save(config.data_path, request.form, config)
        except (ConfigError, OSError) as exc:
            error = f"Nothing was saved. {exc}"
        else:
            use(current_app, updated)
            services().phones.max_phones = updated.web.phones
            flash("Settings saved. The phone places, the answer time and the name on these pages apply now; "
                  "the TV's name, join approval, sound and resolution when the box next starts.")
            return redirect(url_for("settings.index"))
    phones = services().phones
    return render_template("settings/index.html", settings=box_settings.SETTINGS, values=values, error=error,
                           phone_warnings=phones.warnings(), phones_used=len(phones),
                           stored=str(box_settings.path_for(config.data_path))), (400 if error else 200)
