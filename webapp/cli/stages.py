"""What a long ``hidato generate`` is doing, on standard error: the generator's stage.

The engine tells each step as it starts (``engine.Stage``, through ``progress``); this
turns it into words.  On a terminal one status line is rewritten in place (with the
count of puzzles when there are several) once a puzzle has taken a second, every second
(the time moves even while one step lasts), and erased when it is made; elsewhere (a
log, a pipe) a line is written for the step under way once a puzzle has taken
LINES_AFTER seconds, then one for each new step, so a quick run writes nothing.  A
small thread of its own keeps the time (the engine only calls at the start of a step).
Nothing goes to standard output, and nothing at all with ``--quiet``.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from engine import Stage

TERMINAL_AFTER = 1.0  # seconds before a terminal shows the status line
LINES_AFTER = 3.0  # seconds before a log gets a line per step
TICK = 0.5  # how often the clock thread looks
_WIDTH = 30  # the bar of puzzles made, in characters

STEPS = {
    "path": "finding a solution path",
    "givens": "removing givens",
    "rating": "rating the puzzle",
    "checking": "checking that the solution is unique",
}


def stage_text(stage: Stage) -> str:
    """``path 3 of 30: removing givens``: the attempt and its step, in English."""
    return f"path {stage.attempt} of {stage.attempts}: {STEPS[stage.name]}"


class StageReport:
    """The stage of each puzzle of a run of ``total`` puzzles, on ``stream`` (stderr)."""

    def __init__(self, total: int, quiet: bool = False, stream: TextIO | None = None):
        self.total = total
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = self.stream.isatty()
        self.done = 0  # puzzles made so far
        self.started = time.perf_counter()  # of the puzzle being made
        self.run_started = self.started
        self.stage: Stage | None = None  # the step under way
        self.told: Stage | None = None  # the step a log was last told of
        self.shown = False  # a status line is on the terminal now
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._clock: threading.Thread | None = None

    def start(self, number: int) -> None:
        """Puzzle ``number`` (from 1) is being made."""
        with self._lock:
            self.started = time.perf_counter()
            self.stage = self.told = None
        if not self.quiet and self._clock is None:
            self._clock = threading.Thread(target=self._tick, daemon=True, name="hidato-stage")
            self._clock.start()

    def __call__(self, stage: Stage) -> None:
        """The engine's ``progress``: a step of the current puzzle starts."""
        with self._lock:
            self.stage = stage
            self._show()

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            with self._lock:
                self._show()

    def _show(self) -> None:
        """Say the step under way, if it is time to (the lock held)."""
        if self.quiet or self.stage is None:
            return
        elapsed = time.perf_counter() - self.started
        if self.terminal:
            if elapsed >= TERMINAL_AFTER:
                self._status(f"{stage_text(self.stage)} ({elapsed:.0f} s)")
        elif elapsed >= LINES_AFTER and self.told != self.stage:
            which = f"puzzle {self.done + 1} of {self.total}: " if self.total > 1 else ""
            print(f"{which}{stage_text(self.stage)} ({elapsed:.0f} s)", file=self.stream, flush=True)
            self.told = self.stage

    def made(self) -> None:
        """The current puzzle is made: the bar moves on (when the run has taken a second)."""
        with self._lock:
            self.done += 1
            self.stage = None
            if self.quiet or not self.terminal:
                return
            if self.total > 1 and time.perf_counter() - self.run_started >= TERMINAL_AFTER:
                self._status("")
            else:
                self._clear()

    def _status(self, text: str) -> None:
        """The status line: the bar of puzzles made (several), then ``text``."""
        parts = []
        if self.total > 1:
            filled = _WIDTH * self.done // self.total
            parts.append(f"[{'#' * filled}{'.' * (_WIDTH - filled)}] {self.done}/{self.total}")
        if text:
            parts.append(text)
        # \r and "erase to the end of the line": a shorter text leaves nothing of a longer one.
        print(f"\r\033[K{' · '.join(parts)}", end="", file=self.stream, flush=True)
        self.shown = True

    def clear(self) -> None:
        """Erase the status line (before an error, or at the end); the clock stops."""
        with self._lock:
            self.stage = None
            self._clear()

    def close(self) -> None:
        """Stop the clock thread and erase the status line."""
        self._stop.set()
        if self._clock is not None:
            self._clock.join(timeout=1)
        self.clear()

    def _clear(self) -> None:
        if self.shown:
            print("\r\033[K", end="", file=self.stream, flush=True)
            self.shown = False
