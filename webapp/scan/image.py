"""Opening a picture safely: refused by its bytes and by its pixel count before it is
decoded, decoded only from the formats a phone or a screenshot gives, turned upright by
its EXIF orientation, and refused with a plain sentence when it is cut short.

Pillow reads only a file's header in ``Image.open``: the width and height are checked
against ``MAX_PIXELS`` before ``load()`` decodes anything, so a decompression bomb (a
small file that says it holds a gigapixel) costs nothing.  Pillow's own bomb check
(a warning past ``Image.MAX_IMAGE_PIXELS``, an error past twice that) is turned into the
same refusal inside this module, never let out as a raw warning.

A JPEG is decoded at a reduced scale when it is far larger than the reader needs
(``draft``: the decoder skips the fine detail, several times faster): the cells are cut
from a picture of about ``CROP_SIDE`` pixels on its long side, and the board is looked for
in a grey copy of about ``WORK_SIDE``.
"""

from __future__ import annotations

import io
import re
import struct
import warnings
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from ..core.messages import N_
from . import MAX_BYTES, MAX_PIXELS, ImageTooLarge, NotAnImage

WORK_SIDE = 1600  # the long side of the grey picture the board is looked for in
CROP_SIDE = 3000  # the long side (at least, when the picture has it) the cells are cut from
# What a phone, a camera or a screenshot gives; other formats Pillow knows (TIFF, PSD,
# ICO...) are refused unread: fewer decoders, fewer surprises.
FORMATS = ("JPEG", "PNG", "WEBP", "GIF", "BMP", "AVIF", "HEIF")

NOT_AN_IMAGE = N_("This file is not a picture that can be read: send a photo or a screenshot (JPEG, PNG or WebP).")
HEIC = N_("HEIC pictures cannot be read here: send the photo as JPEG (on an iPhone, Settings, Camera, "
          "Formats, Most Compatible), or take a screenshot of it.")
TRUNCATED = N_("This picture is cut short (the file ends before the picture does): send it again.")
EMPTY = N_("The file is empty: choose a photo or a screenshot of the puzzle.")
TOO_MANY_BYTES = N_("This file is %(size)s MB; pictures of up to %(limit)s MB can be read.")
TOO_MANY_PIXELS = N_("This picture has %(megapixels)s megapixels; pictures of up to %(limit)s megapixels can be "
                     "read.")


@dataclass(frozen=True)
class Picture:
    """A picture as shown (EXIF orientation applied), ready for the reader."""

    colour: np.ndarray  # BGR uint8, the cells are cut from it (about CROP_SIDE on its long side, or less)
    work: np.ndarray  # grey uint8, about WORK_SIDE on its long side: the board is looked for in it
    width: int  # the picture's size as shown, in pixels of the original
    height: int

    @property
    def work_scale(self) -> float:
        """Pixels of ``colour`` per pixel of ``work``."""
        return self.colour.shape[1] / self.work.shape[1]


def load(data: bytes) -> Picture:
    """The picture in ``data``, or a ScanError saying why not."""
    if not data:
        raise NotAnImage(EMPTY)
    if len(data) > MAX_BYTES:
        raise ImageTooLarge(TOO_MANY_BYTES, size=_megabytes(len(data)), limit=MAX_BYTES // (1024 * 1024))
    image = _opened(data)
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise _too_many_pixels(width * height)
    if width < 1 or height < 1:
        raise NotAnImage(NOT_AN_IMAGE)
    rgb = _decoded(image)
    colour = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    del rgb
    shown_w, shown_h = _shown_size(image, width, height)
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    return Picture(colour=colour, work=_shrunk(grey, WORK_SIDE), width=shown_w, height=shown_h)


def _opened(data: bytes) -> Image.Image:
    """The picture's header read; nothing decoded yet."""
    with warnings.catch_warnings():
        # Pillow's bomb check warns past MAX_IMAGE_PIXELS: an error here, refused below.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            return Image.open(io.BytesIO(data), formats=_formats())
        except (Image.DecompressionBombWarning, Image.DecompressionBombError) as bomb:
            # "Image size (200000000 pixels) exceeds limit of ...": the count is in the words.
            found = re.search(r"\((\d+) pixels\)", str(bomb))
            raise _too_many_pixels(int(found.group(1)) if found else 2 * MAX_PIXELS) from None
        except UnidentifiedImageError:
            raise NotAnImage(HEIC if _is_heic(data) else NOT_AN_IMAGE) from None
        except (OSError, SyntaxError, ValueError, EOFError, struct.error):
            raise NotAnImage(NOT_AN_IMAGE) from None


def _formats() -> list[str]:
    """The formats of FORMATS this Pillow can open (AVIF and HEIF need their plugins)."""
    Image.init()
    return [name for name in FORMATS if name in Image.OPEN]


def _is_heic(data: bytes) -> bool:
    """An ISO media file whose brand is HEIC/HEIF (an iPhone's photos)."""
    return data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1")


def _decoded(image: Image.Image) -> np.ndarray:
    """The pixels as RGB uint8, upright, at about CROP_SIDE (a JPEG decoded at a reduced
    scale when it is much larger); a truncated file is refused."""
    width, height = image.size
    if image.format == "JPEG" and max(width, height) > CROP_SIDE:
        short = round(CROP_SIDE * min(width, height) / max(width, height))
        image.draft("RGB", (short, short))  # the largest 1/2^k scale still at least this size
    # WeasyPrint sets Pillow's LOAD_TRUNCATED_IMAGES for the whole process when it is
    # imported (the site's booklets): a truncated photo would then be read as a grey half.
    # Pictures are read in a child of their own or in `hidato scan`, so the flag is ours here.
    truncated_allowed = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image.load()
            upright = _upright(image)
            factor = max(upright.size) // CROP_SIDE
            if factor >= 2:  # a huge PNG: smaller before it is copied and converted
                upright = upright.reduce(factor)
            rgb = _rgb(upright)
        except (OSError, SyntaxError, ValueError, EOFError, struct.error, Image.DecompressionBombWarning,
                Image.DecompressionBombError):
            # "image file is truncated", "broken data stream", a corrupt chunk...
            raise NotAnImage(TRUNCATED) from None
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = truncated_allowed
    return np.asarray(rgb)


def _upright(image: Image.Image) -> Image.Image:
    """Turned as its EXIF orientation says; a picture with broken EXIF stays as stored."""
    try:
        return ImageOps.exif_transpose(image)
    except (OSError, SyntaxError, ValueError, KeyError, TypeError, struct.error):
        return image


def _rgb(image: Image.Image) -> Image.Image:
    """RGB, a transparent screenshot laid on white (not on black)."""
    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("RGB")
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        # 16-bit grey: scaled to 8 bits, not clipped to white.
        values = np.asarray(image, dtype=np.float32)
        top = max(1.0, float(values.max()))
        return Image.fromarray(np.clip(values * (255.0 / top), 0, 255).astype(np.uint8)).convert("RGB")
    return image.convert("RGB")


def _shown_size(image: Image.Image, width: int, height: int) -> tuple[int, int]:
    """The original's size as shown: width and height swap when EXIF turns it a quarter."""
    try:
        orientation = image.getexif().get(0x0112, 1)
    except (OSError, SyntaxError, ValueError, KeyError, TypeError, struct.error):
        orientation = 1
    return (height, width) if orientation in (5, 6, 7, 8) else (width, height)


def _shrunk(grey: np.ndarray, side: int) -> np.ndarray:
    """``grey`` with its long side at most ``side`` (area averaging: no aliasing)."""
    h, w = grey.shape
    scale = side / max(h, w)
    if scale >= 1:
        return grey
    return cv2.resize(grey, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def _too_many_pixels(pixels: int) -> ImageTooLarge:
    return ImageTooLarge(TOO_MANY_PIXELS, megapixels=round(pixels / 1_000_000), limit=MAX_PIXELS // 1_000_000)


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}"
