"""The box's media: a deck's pictures and sounds, each stored once by its content's hash.

A file is ``<data_dir>/media/<sha256 of its bytes>.<ext>`` (``ext`` png, ogg, mp3 or wav); a card names it
by that file name, its *reference* (:data:`REF_PATTERN`), so the board and the phones carry a short name,
never the bytes. A file is written to a temporary name, synced, then renamed, so a power cut leaves no
half file under a reference. Files are never changed and never removed by the box: a deck deleted or a
database put back from its good copy (docs/reliability.md) still finds every picture it names. The total
is capped (:attr:`MediaStore.cap`); a put that would pass it is refused before anything is written.

The shipped decks' media are read-only files in the package (``appliance/data/media``): a reference is
looked for in the box's folder first, then there.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from appliance.errors import QuizboxError

REF_PATTERN = re.compile(r"[0-9a-f]{64}\.(png|ogg|mp3|wav)")
"""A media reference: the sha256 of the file's bytes and its kind."""
DEFAULT_CAP = 500 * 1024 * 1024
"""The default total of the box's media, in bytes (the config's ``box.media_cap_mb``)."""


class MediaError(QuizboxError):
    """A media file that cannot be stored (the cap, a disk error); nothing of the put was kept."""


def ref_for(data: bytes, ext: str) -> str:
    """The reference a file's bytes are stored under."""
    return f"{hashlib.sha256(data).hexdigest()}.{ext}"


def shipped_folder() -> Path:
    """The package's read-only media of the shipped decks."""
    return Path(str(resources.files("appliance") / "data" / "media"))


class MediaStore:
    """Media files by reference under ``folder`` (created on the first put), ``cap`` bytes in all."""

    def __init__(self, folder: str | os.PathLike[str], cap: int = DEFAULT_CAP,
                 shipped: Path | None = None) -> None:
        self.folder = Path(folder)
        self.cap = cap
        self.shipped = shipped if shipped is not None else shipped_folder()

    def path(self, ref: str) -> Path | None:
        """The file of a reference, or None when the box has no such file (or ``ref`` is not one)."""
        if not REF_PATTERN.fullmatch(ref):
            return None
        for folder in (self.folder, self.shipped):
            candidate = folder / ref
            if candidate.is_file():
                return candidate
        return None

    def has(self, ref: str) -> bool:
        return self.path(ref) is not None

    def read(self, ref: str) -> bytes | None:
        """The bytes of a reference, or None when there is no such file."""
        path = self.path(ref)
        return path.read_bytes() if path is not None else None

    def total(self) -> int:
        """Bytes the box's own media take (the shipped ones are not counted)."""
        if not self.folder.is_dir():
            return 0
        return sum(p.stat().st_size for p in self.folder.iterdir() if REF_PATTERN.fullmatch(p.name))

    def put_all(self, files: Mapping[str, bytes]) -> list[str]:
        """Store every ``ref: bytes`` the box does not have yet, or none of them: the cap is checked first,
        a failure midway removes what this call wrote. Returns the references written (new files)."""
        for ref, data in files.items():
            if not REF_PATTERN.fullmatch(ref) or ref_for(data, ref.rsplit(".", 1)[1]) != ref:
                raise ValueError(f"{ref!r} is not the reference of its bytes")
        new = {ref: data for ref, data in files.items() if not self.has(ref)}
        adding = sum(len(d) for d in new.values())
        used = self.total()
        if used + adding > self.cap:
            raise MediaError(f"the box's media would take {_mb(used + adding)}, more than its cap of "
                             f"{_mb(self.cap)} ({_mb(used)} used now)")
        written: list[str] = []
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            for ref, data in new.items():
                _write(self.folder / ref, data)
                written.append(ref)
        except OSError as exc:
            self.remove(written)
            raise MediaError(f"cannot write the media to {self.folder}: {exc}") from None
        return written

    def remove(self, refs: list[str]) -> None:
        """Take back files a failed import wrote (nothing else removes media)."""
        for ref in refs:
            if REF_PATTERN.fullmatch(ref):
                (self.folder / ref).unlink(missing_ok=True)


def _write(target: Path, data: bytes) -> None:
    temp = target.with_name(f".{target.name}.part")
    with open(temp, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, target)


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"
