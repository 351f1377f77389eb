"""The box's health on the admin page, and the page that puts the store's last good copy back.

The appliance writes ``<data_dir>/health.json`` (appliance/infra/health.py): its optional parts that fail
(the TV, sound, buttons, mDNS) and what its start-up check found after a power cut. The live page shows
both. When the database cannot be opened at all, the admin page still starts (on an empty stand-in
store) and sends the quizmaster here: the good copy is put in place now when the box is not running, or
on its next start when it is (the quiz program holds the file open).
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from appliance.box import recovery
from appliance.errors import QuizboxError
from appliance.infra import health
from appliance.infra.store import Store, StoreError
from web.services import services

bp = Blueprint("restore", __name__, url_prefix="/restore")

OPEN_WHEN_DAMAGED = frozenset({"static", "auth.login", "auth.setup", "auth.logout", "restore.page",
                               "restore.restore"})


def data_path() -> Path | None:
    folder = current_app.config.get("QUIZBOX_DATA")
    return Path(folder) if folder else None


def db_path() -> Path | None:
    folder = data_path()
    return None if folder is None else folder / "quizbox.db"


def box_health() -> dict[str, Any]:
    """``{"problems": [sentences], "recovery": sentence}`` from the appliance's health file."""
    folder = data_path()
    data = health.read(folder) if folder is not None else None
    problems = health.problem_lines(data)
    damaged = current_app.config.get("STORE_DAMAGED")
    if damaged:
        problems.insert(0, f"The admin page cannot read the database: {damaged}")
    report = (data or {}).get("recovery")
    text = report.get("text", "") if isinstance(report, dict) and report.get("found") else ""
    return {"problems": problems, "recovery": str(text)}


def open_store(app: Flask, path: Path) -> Store:
    """The store for the admin page; a database that cannot be opened gives an empty stand-in and the
    reason in ``STORE_DAMAGED`` (every admin page then leads to the restore page)."""
    try:
        store = Store(path)
    except StoreError as exc:
        app.config["STORE_DAMAGED"] = str(exc)
        return Store(":memory:")
    app.config["STORE_DAMAGED"] = ""
    app.config["STORE_INODE"] = _inode(path)
    return store


def _inode(path: Path) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def install(app: Flask) -> None:
    @app.before_request
    def follow_the_store() -> BaseResponse | None:
        path = db_path()
        if path is None or "STORE_INODE" not in app.config and not app.config.get("STORE_DAMAGED"):
            return None  # a test's own store
        inode = _inode(path)
        if inode is not None and inode != app.config.get("STORE_INODE"):
            # the appliance put its good copy in place (or the file came back): read the new file
            services().store = open_store(app, path)
        if app.config.get("STORE_DAMAGED") and request.endpoint not in OPEN_WHEN_DAMAGED \
                and (request.blueprint or "") != "phone":
            return redirect(url_for("restore.page"))
        return None


def _copy_facts(path: Path) -> dict[str, Any] | None:
    good = recovery.good_copy_of(path)
    try:
        logs = recovery.read_logs(good)
    except sqlite3.Error:
        return None
    running = [g for g in logs.games.values() if g["status"] == "running"]
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(logs.copied_at)) if logs.copied_at else "?"
    return {"when": when, "games": len(logs.games), "running": running[0]["game"] if running else ""}


@bp.get("/")
def page() -> str:
    path = db_path()
    facts = _copy_facts(path) if path is not None else None
    return render_template("restore.html", damaged=current_app.config.get("STORE_DAMAGED", ""),
                           health=box_health(), copy=facts,
                           requested=path is not None and path.with_name(recovery.RESTORE_REQUEST).exists())


@bp.post("/")
def restore() -> BaseResponse:
    path = db_path()
    if path is None:
        flash("This admin page has no data folder to restore.")
        return redirect(url_for("restore.page"))
    if services().link.appliance_online():
        path.with_name(recovery.RESTORE_REQUEST).write_text("asked on the admin page\n", encoding="utf-8")
        flash("The box goes back to its last good copy when the quiz program starts again: restart the box now.")
        return redirect(url_for("restore.page"))
    try:
        aside = recovery.restore_now(path)
    except (QuizboxError, sqlite3.Error, OSError) as exc:
        flash(f"Could not restore: {exc}")
        return redirect(url_for("restore.page"))
    services().store = open_store(current_app._get_current_object(), path)  # type: ignore[attr-defined]
    flash(f"The last good copy is back{f'; the damaged files are kept as {aside}' if aside else ''}. "
          "Start the box again.")
    return redirect(url_for("restore.page"))
