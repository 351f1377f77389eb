"""A card's picture and sound checked from their bytes (docs/decks.md, "Pictures and sounds").

Pictures: PNG, JPEG or WebP, decoded by Pillow with its decompression-bomb guard turned into a refusal (and
a tighter pixel cap of our own, read from the header before anything is decoded), the whole image loaded
(a truncated file is refused), then re-encoded for the TV: at most 1920x1080 (scaled down, never up, the
shape kept), RGB or RGBA, as PNG. PNG decodes in pygame everywhere, and the same picture re-encoded gives the
same bytes, so an exported deck imported again keeps its references.

Sounds: OGG (Vorbis), MP3 or WAV, kept as they are. Their kind and length are read from the header by
mutagen (pure Python, no audio device needed: the admin page runs where pygame's mixer may have no
device; decoding the whole clip with pygame's loader would also hold it in memory on every import). The
kind must match the file's extension and the length must be within :data:`MAX_AUDIO_SECONDS`.

Each check returns the bytes to store and the reference's extension, or raises :class:`MediaProblem`
whose message says what is wrong with the file (the caller names the card and the file).
"""

from __future__ import annotations

import io
import warnings

import mutagen
from PIL import Image, UnidentifiedImageError

from appliance.decks.limits import AUDIO_EXTENSIONS, IMAGE_EXTENSIONS

MAX_IMAGE_BYTES = 10 * 1024 * 1024
"""Most bytes of one picture file as given."""
MAX_IMAGE_PIXELS = 40_000_000
"""Most pixels of a picture (width x height) before it is decoded (a 8000 x 5000 photo passes)."""
MAX_IMAGE_SIDE = 10_000
"""Longest side of a picture in pixels."""
TV_SIZE = (1920, 1080)
"""A picture is scaled down to fit inside this (the board's largest mode); never up."""
MAX_STORED_IMAGE_BYTES = 8 * 1024 * 1024
"""Most bytes of a picture once re-encoded (a very noisy full-HD picture can pass it: it is refused)."""
MAX_AUDIO_BYTES = 5 * 1024 * 1024
"""Most bytes of one sound file."""
MAX_AUDIO_SECONDS = 60.0
"""Longest sound, in seconds."""



class MediaProblem(ValueError):
    """What is wrong with one media file (its message names no file: the caller does)."""


def extension(name: str) -> str:
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


def check_image(data: bytes, name: str) -> tuple[bytes, str]:
    """The picture re-encoded for the TV (PNG bytes) and ``"png"``; raises :class:`MediaProblem`."""
    wanted = IMAGE_EXTENSIONS.get(extension(name))
    if wanted is None:
        raise MediaProblem(f"a picture must be .png, .jpg, .jpeg or .webp, not {name!r}")
    if len(data) > MAX_IMAGE_BYTES:
        raise MediaProblem(f"the picture is too big: {len(data)} bytes, at most {MAX_IMAGE_BYTES}")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=[wanted])
            width, height = image.size
            if width * height > MAX_IMAGE_PIXELS or max(width, height) > MAX_IMAGE_SIDE:
                raise MediaProblem(f"the picture is {width} x {height} pixels: at most {MAX_IMAGE_PIXELS} pixels "
                                   f"and {MAX_IMAGE_SIDE} on a side")
            image.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise MediaProblem(f"refused as a decompression bomb ({exc})") from None
        except UnidentifiedImageError:
            raise MediaProblem(f"not a {wanted} picture (the file's content is not one)") from None
        except (OSError, SyntaxError, ValueError) as exc:
            if isinstance(exc, MediaProblem):
                raise
            raise MediaProblem(f"the picture cannot be read: {exc} (is the file cut short?)") from None
    return _for_tv(image), "png"


def _for_tv(image: Image.Image) -> bytes:
    has_alpha = image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
    converted = image.convert("RGBA" if has_alpha else "RGB")
    if converted.width > TV_SIZE[0] or converted.height > TV_SIZE[1]:
        converted.thumbnail(TV_SIZE, Image.Resampling.LANCZOS)  # the shape kept, never stretched
    out = io.BytesIO()
    converted.save(out, format="PNG", optimize=False)
    encoded = out.getvalue()
    if len(encoded) > MAX_STORED_IMAGE_BYTES:
        raise MediaProblem(f"the picture takes {len(encoded)} bytes once made ready for the TV, at most "
                           f"{MAX_STORED_IMAGE_BYTES}: use a smaller or simpler picture")
    return encoded


def check_audio(data: bytes, name: str) -> tuple[bytes, str, float]:
    """The sound's bytes (kept as given), its extension and its length in seconds; raises :class:`MediaProblem`."""
    ext = extension(name)
    wanted = AUDIO_EXTENSIONS.get(ext)
    if wanted is None:
        raise MediaProblem(f"a sound must be .ogg, .mp3 or .wav, not {name!r}")
    if len(data) > MAX_AUDIO_BYTES:
        raise MediaProblem(f"the sound is too big: {len(data)} bytes, at most {MAX_AUDIO_BYTES}")
    try:
        found = mutagen.File(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - mutagen raises its own errors and plain ones on a broken file
        raise MediaProblem(f"not a readable {ext.upper()} sound: {exc}") from None
    kind = type(found).__name__ if found is not None else None
    if kind != wanted:
        what = f"it holds {kind}" if kind else "no sound format was recognised in it"
        raise MediaProblem(f"not a {ext.upper()} sound ({what})")
    length = float(getattr(found.info, "length", 0.0) or 0.0)
    if not 0 < length <= MAX_AUDIO_SECONDS:
        raise MediaProblem(f"the sound lasts {length:.1f} s: it must last more than 0 and at most "
                           f"{MAX_AUDIO_SECONDS:.0f} s")
    return data, ext, length
