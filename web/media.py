"""The box's media store for the admin page and the phones: ``<data_dir>/media`` with the config's cap
(``box.media_cap_mb``), made once per app (appliance/infra/media.py)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from flask import Flask, current_app, request

from appliance.decks import MAX_ZIP_BYTES
from appliance.infra.config import Config
from appliance.infra.media import MediaStore

KEY = "quizbox-media"
UPLOAD_KEY = "DECK_UPLOAD_BYTES"
"""The app setting for the most bytes a deck import's request may carry (a zip with its media); every
other request keeps ``MAX_CONTENT_LENGTH``."""


def install(app: Flask, config: Config) -> None:
    """The media store, and the deck import's larger body limit: set before any other hook reads the form
    (the CSRF check does), so this runs first (installed before CSRFProtect)."""
    store = MediaStore(Path(config.data_path) / "media", config.box.media_cap_mb * 1024 * 1024)
    app.extensions[KEY] = store
    from appliance.board import use_media

    use_media(store.read)  # the Live page's picture of the TV draws a card's picture as the TV does
    app.config.setdefault(UPLOAD_KEY, MAX_ZIP_BYTES + 64 * 1024)

    @app.before_request
    def deck_upload_limit() -> None:
        if request.endpoint == "decks.import_deck" and request.method == "POST":
            request.max_content_length = int(app.config[UPLOAD_KEY])


def media_store() -> MediaStore:
    return cast(MediaStore, current_app.extensions[KEY])
