"""docs/img/handset-*.png are what the handset draws today (regenerate: python -m tests.firmware.doc_images)."""

from __future__ import annotations

import pytest

from tests.firmware.doc_images import DOCS_IMG, SHOTS, render_all


@pytest.fixture(scope="module")
def rendered() -> dict[str, bytes]:
    return render_all()


@pytest.mark.parametrize("name", sorted(SHOTS))
def test_doc_image_is_current(name: str, rendered: dict[str, bytes]) -> None:
    path = DOCS_IMG / (name + ".png")
    assert path.exists(), f"{path} missing: python -m tests.firmware.doc_images"
    assert path.read_bytes() == rendered[name], f"{path} is stale: python -m tests.firmware.doc_images"


def test_docs_show_every_doc_image() -> None:
    text = (DOCS_IMG.parent / "hardware.md").read_text()
    for name in SHOTS:
        assert f"img/{name}.png" in text, name
