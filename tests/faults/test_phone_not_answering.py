"""A phone handset says "the box is not answering" when the box's heartbeat is stale (issue 17), and its
panel refreshes when that changes, though no prompt did."""

from __future__ import annotations

from flask import Flask

from tests.web.conftest import app, link, phone_clients, post, services, store  # noqa: F401 (fixtures)
from tests.web.fakes import FakeLink


def test_a_phone_says_the_box_is_not_answering(app: Flask, link: FakeLink) -> None:  # noqa: F811
    client = app.test_client()
    assert post(client, "/join", {"name": "Ann"}, page="/join").status_code == 302
    [handset_id] = list(services(app).phones._phones)  # noqa: SLF001
    assert services(app).phones.get(handset_id) is not None
    assert "connected" in client.get("/phone/panel").get_data(as_text=True)  # its own link is up
    version = client.get("/phone/panel").get_data(as_text=True).split('data-version="')[1].split('"')[0]
    assert client.get(f"/phone/panel?v={version}").status_code == 204
    link.online = False  # the heartbeat went stale
    page = client.get(f"/phone/panel?v={version}")
    assert page.status_code == 200 and "the box is not answering" in page.get_data(as_text=True)
    link.online = True
    again = client.get("/phone/panel").get_data(as_text=True)
    assert "the box is not answering" not in again
