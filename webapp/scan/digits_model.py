"""The OCR model that reads a cell's number: PP-OCRv4's text recogniser, run by ONNX Runtime.

The model file ships inside the ``rapidocr_onnxruntime`` wheel (nothing is downloaded);
only its recogniser is loaded, once per process on first use, without rapidocr's text
detector and direction classifier, which a cell does not need.  The recogniser reads a
line of text 48 pixels high and gives, every 8 pixels along it, a probability for each
of its 6,623 characters (Chinese, Latin, digits...) and CTC's blank.

Its answer is read for digits only: the probabilities of a digit's look-alikes (O and o
for 0, l, I and | for 1, S for 5, B for 8, full-width and circled digits) count for
that digit, everything else is "not a digit".  The best path through those twelve
classes (blank, 0..9, other) gives the text and each character's probability.
"""

from __future__ import annotations

import os
import threading
import unicodedata
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

HEIGHT = 48  # the recogniser's input height; its output has one step per 8 pixels of width
STEP = 8
MODEL_FILE = "models/ch_PP-OCRv4_rec_infer.onnx"
# Characters the model may give for a digit printed in a font it finds unusual; the
# Unicode digits (full-width, circled ①, parenthesised ⑴) are found by their digit value.
LOOKALIKES = {"O": 0, "o": 0, "D": 0, "Q": 0, "l": 1, "I": 1, "|": 1, "i": 1, "!": 1, "S": 5, "s": 5, "B": 8,
              "Z": 2, "z": 2, "q": 9, "g": 9, "b": 6, "G": 6}
# Threads: two cores, shared; more threads than cores only wait on each other.
THREADS = max(1, min(2, os.cpu_count() or 1))
BATCH = 16  # lines per inference: larger batches pad more and gain nothing here
CROSSES = frozenset("xX×✕✖╳")  # a cross in a cell marks a hole (our solver page's "x")


@dataclass(frozen=True)
class Line:
    """What the model read in one prepared line: digits and how sure it is of each."""

    text: str  # digits only
    chars: tuple[float, ...]  # each digit's probability (its best step)
    other: float  # the largest probability of a non-digit character at any step
    cross: float = 0.0  # how sure the line is one cross and nothing else (a hole's mark)
    # Each digit's runner-up where it was read surest: (digit, its probability), for the
    # values a doubtful cell may hold instead (a blurred 8 read as 0 has 8 second).
    seconds: tuple[tuple[int, float], ...] = ()
    # The class probabilities per step (steps, 13) the text was read from, for weighing
    # other texts against it (``likelihood``); None for a line made by hand.
    steps: np.ndarray | None = field(default=None, compare=False, repr=False)


class Recogniser:
    """The ONNX session and the digit classes of its output."""

    def __init__(self, path: Path | None = None, threads: int = THREADS) -> None:
        import numpy as np
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(path or model_path()), options, providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name
        characters = self.session.get_modelmeta().custom_metadata_map["character"].splitlines()
        classes = ["blank", *characters, " "]  # the model's output order
        # Columns of the output that count for each digit.
        self.digit_columns: list[list[int]] = [[] for _ in range(10)]
        for column, char in enumerate(classes):
            digit = _digit_of(char)
            if digit is not None:
                self.digit_columns[digit].append(column)
        self.size = len(classes)
        # Output columns -> blank, 0..9, other, a cross (which also counts as other).
        self.fold = np.zeros((self.size, 13), np.float32)
        self.fold[:, 11] = 1.0
        # Blank, and the space the model reads in the white a batch pads short lines with.
        for column in (0, self.size - 1):
            self.fold[column] = 0.0
            self.fold[column, 0] = 1.0
        for digit, columns in enumerate(self.digit_columns):
            for column in columns:
                self.fold[column] = 0.0
                self.fold[column, digit + 1] = 1.0
        for column, char in enumerate(classes):
            if char in CROSSES:
                self.fold[column, 12] = 1.0
        self.lock = threading.Lock()

    def run(self, batch: np.ndarray) -> np.ndarray:
        """Class probabilities per step, (lines, steps, 13: blank, 0..9, other, cross), for a batch
        of lines (lines, 3, 48, width) scaled to -1..1."""
        with self.lock:  # one inference at a time: its threads already use both cores
            out = self.session.run(None, {self.input: batch})[0]
        result: np.ndarray = out @ self.fold
        return result

    def read(self, lines: list[np.ndarray]) -> list[Line]:
        """Read prepared lines (grey uint8, 48 pixels high, dark digits on white)."""
        import numpy as np

        order = sorted(range(len(lines)), key=lambda i: lines[i].shape[1])
        found: dict[int, Line] = {}
        for start in range(0, len(order), BATCH):
            chunk = order[start:start + BATCH]
            width = max(lines[i].shape[1] for i in chunk)
            width = -(-width // STEP) * STEP
            batch = np.ones((len(chunk), 3, HEIGHT, width), np.float32)  # white beyond each line
            for row, i in enumerate(chunk):
                line = lines[i].astype(np.float32) / 127.5 - 1.0
                batch[row, :, :, :line.shape[1]] = line
            for row, probabilities in zip(chunk, self.run(batch), strict=True):
                found[row] = best_path(probabilities)
        return [found[i] for i in range(len(lines))]


def best_path(probabilities: np.ndarray) -> Line:
    """CTC's best path through (steps, 13) class probabilities: repeated classes merge,
    blanks separate; "other" characters are left out but remembered, and a line that
    holds a cross and nothing else is one (its probability in ``cross``)."""
    import numpy as np

    best = probabilities[:, :12].argmax(axis=1)
    text, chars, at = [], [], []
    previous = -1
    for step, cls in enumerate(best.tolist()):
        p = float(probabilities[step, cls])
        if cls != previous and 1 <= cls <= 10:
            text.append(str(cls - 1))
            chars.append(p)
            at.append(step)
        elif cls == previous and 1 <= cls <= 10 and p > chars[-1]:
            chars[-1], at[-1] = p, step
        previous = cls
    seconds = []
    for step, char in zip(at, text, strict=True):
        digits = probabilities[step, 1:11].copy()
        digits[int(char)] = -1.0
        runner = int(digits.argmax())
        seconds.append((runner, float(digits[runner])))
    cross = 0.0
    others = np.flatnonzero(best == 11)
    if not text and len(others):
        # Most "other" steps are a cross (a batch's padding may add a stray step or two).
        crossed = probabilities[others, 12]
        if (crossed > 0.5).mean() >= 0.5:
            cross = float(crossed.max())
    return Line("".join(text), tuple(chars), float(probabilities[:, 11].max()), cross, tuple(seconds),
                probabilities)


def likelihood(line: Line, text: str) -> float:
    """How likely the model found ``text`` (digits) in the line: CTC's sum over every
    path of steps that spells it (blanks between and around, each digit held one step or
    more, a blank between two equal digits).  Unlike the best path, it weighs a digit the
    model saw faintly at a step it gave to a blank (a blurred 112 read 12, a faint 1
    between its two others)."""
    steps = line.steps
    if steps is None or not text:
        return 0.0
    labels = [0]
    for char in text:
        labels += [int(char) + 1, 0]
    size = len(labels)
    alpha = [0.0] * size
    alpha[0] = float(steps[0, 0])
    alpha[1] = float(steps[0, labels[1]])
    for t in range(1, len(steps)):
        row = steps[t]
        new = [0.0] * size
        for s in range(size):
            total = alpha[s] + (alpha[s - 1] if s >= 1 else 0.0)
            if s >= 2 and labels[s] != 0 and labels[s] != labels[s - 2]:
                total += alpha[s - 2]
            new[s] = total * float(row[labels[s]])
        alpha = new
    return alpha[-1] + alpha[-2]


def _digit_of(char: str) -> int | None:
    """The digit a character of the model's alphabet stands for, if any."""
    if char in LOOKALIKES:
        return LOOKALIKES[char]
    if len(char) == 1:
        try:
            return unicodedata.digit(char)
        except ValueError:
            return None
    return None


def model_path() -> Path:
    """The recogniser's file inside the installed rapidocr_onnxruntime wheel, found
    without importing the package (its import loads OpenCV and all three models' code)."""
    spec = find_spec("rapidocr_onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("rapidocr_onnxruntime is not installed (make install installs it)")
    return Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE


_recogniser: Recogniser | None = None
_loading = threading.Lock()


def recogniser() -> Recogniser:
    """The process's recogniser, loaded on first use."""
    global _recogniser
    with _loading:
        if _recogniser is None:
            _recogniser = Recogniser()
        return _recogniser
