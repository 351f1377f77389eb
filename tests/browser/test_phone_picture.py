"""A phone shows the picture on the TV (issue 34): a team sharing one phone still sees it. Real chromium
against the real Flask server (waitress); the test plays the appliance's part (the board, the prompt)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from appliance.infra.media import MediaStore, ref_for
from firmware import protocol
from tests.board.test_pictures import dots_picture
from tests.browser.conftest import PhoneBox, _expect, join_phone

PICTURE = dots_picture(count=12, seed=3)
REF = ref_for(PICTURE, "png")


def test_a_seated_phone_shows_the_picture_and_a_stranger_cannot_fetch_it(phone_box: PhoneBox, browser: Any,
                                                                       tmp_path: Path) -> None:
    MediaStore(tmp_path / "data" / "media").put_all({REF: PICTURE})  # what the deck's import stored
    page = join_phone(browser, phone_box.url, "Ann", width=390)
    (handset,) = phone_box.services.phones._phones  # noqa: SLF001
    link = phone_box.services.link
    link.board_state = {**link.board(), "scene": "playing", "game": "confident",  # type: ignore[attr-defined]
                        "players": [{"name": "Ann", "handset": handset, "seated": True, "online": True}],
                        "media": {"image": REF}}
    prompt = {"v": 1, "id": "q1", "kind": "range", "title": "Question 1", "text": "How many red dots?",
              "unit": "dots"}
    phone_box.clients.latest(handset).deliver(protocol.prompt_topic("phonetest", handset),
                                              json.dumps(prompt).encode())
    picture = page.locator("img.card-picture")
    _expect()(picture).to_be_visible()
    page.wait_for_function("() => { const i = document.querySelector('img.card-picture');"
                           " return i && i.complete && i.naturalWidth > 0; }")
    size = page.evaluate("() => { const i = document.querySelector('img.card-picture');"
                         " return [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width]; }")
    assert size[:2] == [800, 600] and 0 < size[2] <= 390  # the whole picture, fitted to the phone
    phone_box.shot(page, "phone-picture")
    other = ref_for(b"another file", "png")
    MediaStore(tmp_path / "data" / "media").put_all({other: b"another file"})
    assert page.request.get(phone_box.url + f"/phone/picture/{other}").status == 404  # only the TV's picture
    stranger = browser.new_context().new_page()
    assert stranger.goto(phone_box.url + f"/phone/picture/{REF}").status == 404  # not seated: no picture
    stranger.context.close()
    page.context.close()
