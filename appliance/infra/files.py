"""A file written whole or not at all: a power cut leaves the old file or the new one, never half of one."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_whole(path: Path, text: str, mode: int) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it (made with ``mode``, fsynced, renamed
    over the old one); on any failure the temporary file is removed and the old file is untouched."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
