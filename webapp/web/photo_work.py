"""What the photo reader's child process runs (``budget.run_with_budget``): the puzzle read
from the picture, and the picture itself at a size for the web page that shows it.

No Flask and no database here: the child is forked from the small server process that
has only the engine loaded, and OpenCV, the OCR model and Pillow load in the child, for
one picture, under its time and memory budget (``photo.py``), then go with it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from ..scan import MAX_PIXELS, Reading, read_picture

WEB_SIDE = 1600  # the longest side of the picture the result page shows, in pixels
WEB_QUALITY = 80


def read_photo(data: bytes, adjacency: str | None, entries: bool,
               progress: Callable[[str], None]) -> tuple[Reading, bytes]:
    """The reading of a picture (ScanError when there is none) and the picture for the page."""
    reading = read_picture(data, adjacency=adjacency, entries=entries, progress=progress)
    return reading, web_picture(data)


def web_picture(data: bytes) -> bytes:
    """The picture as shown (its EXIF orientation applied, as the reader applies it), its
    longest side at most WEB_SIDE pixels, as a JPEG (a transparent screenshot on white);
    b"" if it cannot be made (the page then shows the reading without the picture: the
    picture was already read, so nothing here may fail the job)."""
    from PIL import Image, ImageOps  # in the child only

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS  # the reader refused larger pictures before decoding
    try:
        with Image.open(io.BytesIO(data)) as opened:
            opened.draft("RGB", (WEB_SIDE, WEB_SIDE))  # a JPEG is decoded at a smaller scale: quicker
            try:
                shown = ImageOps.exif_transpose(opened)
            except Exception:  # noqa: BLE001 - broken EXIF: as stored, as the reader takes it
                shown = opened.copy()
            shown.thumbnail((WEB_SIDE, WEB_SIDE), Image.Resampling.LANCZOS)
            if shown.mode in ("RGBA", "LA") or (shown.mode == "P" and "transparency" in shown.info):
                rgba = shown.convert("RGBA")
                shown = Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba)
            out = io.BytesIO()
            shown.convert("RGB").save(out, "JPEG", quality=WEB_QUALITY, optimize=True, progressive=True)
            return out.getvalue()
    except Exception:  # noqa: BLE001 - whatever Pillow makes of a file OpenCV could read
        return b""
