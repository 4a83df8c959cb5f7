"""A plain reader of cell crops, standing in for ``digits.py`` (the digits engineer's)
until it lands: the same interface, ``read_cells(crops, most)``, so the merge changes
one import in ``reader.py``.

Each crop's ink is found (darker than the crop's paper), the lines left at its edges and
a ring around the number are dropped, the rest is cut to its box, and the crops with ink
go to the OCR model's recogniser (PP-OCRv4 in ``rapidocr_onnxruntime``, through ONNX
Runtime) in one batch.  Its output is read for digits only: at each step the blank and
the ten digits (ASCII and full-width) compete, anything else counts against the reading.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

HEIGHT = 48  # the recogniser's input height
WIDEST = 4  # a crop's box at most this many times as wide as high


@dataclass(frozen=True)
class DigitReading:
    """What one cell shows."""

    value: int | None  # None: empty
    confidence: float  # 0..1
    kind: Literal["empty", "printed", "written"]


_lock = threading.Lock()
_model: Any = None


def _recogniser() -> Any:
    """The recogniser's ONNX session and the columns of its output that are digits
    (loaded once: about 0.1 s)."""
    global _model
    with _lock:
        if _model is None:
            import rapidocr_onnxruntime
            from rapidocr_onnxruntime.ch_ppocr_rec import TextRecognizer
            from rapidocr_onnxruntime.utils import read_yaml

            root = Path(rapidocr_onnxruntime.__file__).parent
            config = read_yaml(str(root / "config.yaml"))["Rec"]
            config["model_path"] = str(root / config["model_path"])
            recogniser = TextRecognizer(config)
            characters = recogniser.postprocess_op.character
            ascii_digits = [characters.index(str(d)) for d in range(10)]
            wide = [characters.index(chr(0xFF10 + d)) if chr(0xFF10 + d) in characters else ascii_digits[d]
                    for d in range(10)]
            _model = (recogniser.session, np.array(ascii_digits), np.array(wide))
    return _model


def read_cells(crops: list[np.ndarray], most: int | None) -> list[DigitReading]:
    """What each crop (BGR uint8, one cell, straightened) shows; ``most``: the board's N."""
    prepared = [_prepared(crop) for crop in crops]
    readings: list[DigitReading | None] = [None] * len(crops)
    inked = []
    for i, item in enumerate(prepared):
        if item is None:
            readings[i] = DigitReading(None, 0.95, "empty")
        else:
            inked.append(i)
    if inked:
        texts = _recognise([prepared[i][0] for i in inked])  # type: ignore[index]
        # The recogniser is touchy about the white around a lone digit: those it could
        # not read are tried once more with a wider margin.
        again = [k for k, (text, _) in enumerate(texts) if not text]
        if again:
            wider = [_prepared(crops[inked[k]], 0.25) for k in again]
            retried = _recognise([w[0] for w in wider if w is not None])
            for k, result in zip([k for k, w in zip(again, wider, strict=True) if w is not None], retried, strict=True):
                texts[k] = result
        for i, (text, confidence) in zip(inked, texts, strict=True):
            kind: Literal["printed", "written"] = "written" if prepared[i][1] else "printed"  # type: ignore[index]
            value = int(text) if text else None
            if value is None or value < 1 or (most is not None and value > most):
                readings[i] = DigitReading(value if value else None, min(confidence, 0.3) if text else 0.2, kind)
            else:
                readings[i] = DigitReading(value, confidence, kind)
    return [r if r is not None else DigitReading(None, 0.0, "empty") for r in readings]


def _prepared(crop: np.ndarray, margin: float = 0.08) -> tuple[np.ndarray, bool] | None:
    """The number's ink cut to its box, dark on white (grey, HEIGHT high), and whether
    the ink is coloured (a player's pen); None when the cell holds no number."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    size = grey.shape[0]
    paper = float(np.percentile(grey, 90))
    darkest = float(np.percentile(grey, 1))
    if paper - darkest < 40:
        return None
    ink = (grey < paper - 0.45 * (paper - darkest)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    keep = np.zeros(count, dtype=bool)
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        touches = x == 0 or y == 0 or x + w >= size or y + h >= size
        ring = w > 0.6 * size and h > 0.6 * size and area < 0.25 * w * h
        if area < 0.002 * size * size or ring or (touches and (w > 0.5 * size or h > 0.5 * size)):
            continue
        if touches and area < 0.01 * size * size:
            continue
        keep[label] = True
    mask = keep[labels]
    if mask.sum() < 0.01 * size * size:
        return None
    ys, xs = np.nonzero(mask)
    top, bottom, left, right = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    if bottom - top < 0.15 * size:
        return None
    clean = np.where(mask, grey, 255).astype(np.float32)
    clean = np.clip((clean - darkest) / max(1.0, paper - darkest) * 255, 0, 255).astype(np.uint8)
    box = clean[top:bottom, left:right]
    pad = max(2, round(margin * (bottom - top)))
    box = cv2.copyMakeBorder(box, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    h, w = box.shape
    width = min(WIDEST * HEIGHT, max(1, round(w * HEIGHT / h)))
    box = cv2.resize(box, (width, HEIGHT), interpolation=cv2.INTER_AREA)
    if width < HEIGHT:  # the recogniser needs some width: a single digit centred in a square
        side = (HEIGHT - width) // 2
        box = cv2.copyMakeBorder(box, 0, 0, side, HEIGHT - width - side, cv2.BORDER_CONSTANT, value=255)
    # The ink's colour at the core of its strokes (their blurred edges take the cell's colour).
    core = grey < darkest + 0.3 * (paper - darkest)
    core &= mask
    if not core.any():
        core = mask
    # Chroma (not HSV saturation, which dark noise makes high): a blue or red pen, not black ink.
    chroma = crop.max(axis=2).astype(np.int16) - crop.min(axis=2).astype(np.int16)
    coloured = float(np.median(chroma[core])) > 80
    return box, coloured


def _recognise(boxes: list[np.ndarray]) -> list[tuple[str, float]]:
    """Digits read in each box, with a confidence: one batch per width class."""
    session, ascii_digits, wide = _recogniser()
    results: list[tuple[str, float]] = [("", 0.0)] * len(boxes)
    order = sorted(range(len(boxes)), key=lambda i: boxes[i].shape[1])
    for start in range(0, len(order), 32):
        chunk = order[start:start + 32]
        width = max(boxes[i].shape[1] for i in chunk)
        width = max(width, HEIGHT)
        batch = np.ones((len(chunk), 3, HEIGHT, width), dtype=np.float32)
        for row, i in enumerate(chunk):
            box = boxes[i].astype(np.float32) / 127.5 - 1.0
            batch[row, :, :, :box.shape[1]] = box
        probabilities = session(batch)[0]
        for row, i in enumerate(chunk):
            results[i] = _decoded(probabilities[row], ascii_digits, wide)
    return results


def _decoded(steps: np.ndarray, ascii_digits: np.ndarray, wide: np.ndarray) -> tuple[str, float]:
    """Greedy CTC over the blank, ten digits and "anything else"."""
    blank = steps[:, 0]
    digits = steps[:, ascii_digits] + np.where(wide != ascii_digits, steps[:, wide], 0.0)
    other = np.clip(1.0 - blank - digits.sum(axis=1), 0.0, 1.0)
    text = ""
    confidence = 1.0
    previous = -1
    for t in range(len(steps)):
        choices = np.concatenate([[blank[t]], digits[t], [other[t]]])
        best = int(np.argmax(choices))
        if best == 0:
            previous = -1
            continue
        if best == 11:  # not a digit: the reading is doubtful
            confidence = min(confidence, 1.0 - float(other[t]))
            previous = -1
            continue
        if best != previous:
            text += str(best - 1)
            confidence = min(confidence, float(choices[best]))
        previous = best
    return text, confidence if text else 0.0
