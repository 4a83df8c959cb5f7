"""Digit reader benchmark: accuracy and speed of ``webapp.scan.digits.read_cells`` on cell crops.

Crops come from boards drawn by ``tests/digit_crops.py`` (DejaVu and Liberation fonts in
every weight, handwriting from stroke fonts, fills, circles, notes, border remnants,
rotation, blur, noise, JPEG) and, with ``--pictures DIR``, from the test set's pictures
cut along their known cells (``--pictures`` reads ``*.json`` files beside the pictures:
see ``picture_crops``).  It prints:

- per kind of cell (printed, circled, typed by a player, handwritten, empty, pencil notes):
  how many crops, numbers right, printed/written told right, and the confusions;
- upside-down boards: how often ``orientation_score`` prefers the upright crops, and the
  mean confidence of both;
- speed: the model's load, ms per crop (empty and with a number), and a board of 300
  cells holding 100 givens, read in one call.

    .venv/bin/python bench/digits_bench.py --boards 60
    .venv/bin/python bench/digits_bench.py --boards 60 --failures test-results/digits
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from webapp.scan.digits import DigitReading, orientation_score, read_cells  # noqa: E402

from digit_crops import Truth, board_crops, random_style  # noqa: E402


def accuracy(boards: int, seed: int, failures: Path | None) -> tuple[int, int]:
    """Read ``boards`` random boards; print the table; return (numbers right, numbers)."""
    rng = random.Random(seed)
    counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])  # crops, value right, kind right
    confusions: collections.Counter[tuple[int | None, int | None]] = collections.Counter()
    bad: list[tuple[np.ndarray, Truth, DigitReading]] = []
    for _ in range(boards):
        most = rng.choice((25, 49, 64, 100, 144, 200, 300, 500))
        crops, truths, most = board_crops(rng, cells=40, most=most, written=rng.choice((0.0, 0.15, 0.3)),
                                          givens=rng.uniform(0.2, 0.45), notes=0.2)
        for crop, truth, reading in zip(crops, truths, read_cells(crops, most), strict=True):
            row = counts[truth.what]
            row[0] += 1
            row[1] += reading.value == truth.value
            row[2] += reading.kind == truth.kind
            if reading.value != truth.value or reading.kind != truth.kind:
                confusions[(truth.value, reading.value)] += reading.value != truth.value
                bad.append((crop, truth, reading))
    print(f"{'cells':<10}{'crops':>7}{'value right':>13}{'kind right':>12}")
    for what in ("printed", "circle", "written", "hand", "blank", "note"):
        n, right, kind = counts[what]
        if n:
            print(f"{what:<10}{n:>7}{right / n:>12.1%}{kind / n:>12.1%}")
    numbers = sum(counts[w][0] for w in ("printed", "circle", "written", "hand"))
    right = sum(counts[w][1] for w in ("printed", "circle", "written", "hand"))
    print(f"numbers: {right}/{numbers} right ({right / max(numbers, 1):.2%})")
    wrong = [f"{t}->{r}" + (f" x{k}" if k > 1 else "") for (t, r), k in confusions.most_common() if k]
    print("confusions (truth -> read):", ", ".join(wrong[:40]) or "none")
    if failures is not None:
        _write_failures(failures, bad)
    return right, numbers


def _write_failures(folder: Path, bad: list[tuple[np.ndarray, Truth, DigitReading]]) -> None:
    """Each misread crop as a picture named after what it is and what was read."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    for k, (crop, truth, reading) in enumerate(bad):
        name = f"{k:03d}-{truth.what}-{truth.value}-read-{reading.value}-{reading.kind}-{reading.confidence:.2f}.png"
        cv2.imwrite(str(folder / name), crop)
    print(f"{len(bad)} failures written to {folder}")


def upside_down(boards: int, seed: int) -> None:
    """Does ``orientation_score`` prefer each board's upright crops to the same turned over?"""
    rng = random.Random(seed + 1)
    upright_scores, turned_scores, wins = [], [], 0
    for _ in range(boards):
        style = random_style(rng)
        state = rng.getstate()
        crops, _, most = board_crops(rng, cells=12, most=100, givens=0.8, style=style)
        rng.setstate(state)
        turned, _, _ = board_crops(rng, cells=12, most=100, givens=0.8, style=style, upside_down=True)
        up, down = orientation_score(crops, most), orientation_score(turned, most)
        upright_scores.append(up)
        turned_scores.append(down)
        wins += up > down
    print(f"upside down: upright preferred on {wins}/{boards} boards of 12 cells (~10 numbers); "
          f"mean score upright {statistics.mean(upright_scores):.3f}, upside down {statistics.mean(turned_scores):.3f}")


def speed(seed: int) -> None:
    """The model's load, ms per crop, and a 300-cell board holding 100 givens."""
    from webapp.scan import digits_model

    rng = random.Random(seed + 2)
    started = time.perf_counter()
    digits_model.recogniser()
    print(f"model loaded in {time.perf_counter() - started:.2f} s")
    crops, truths, most = board_crops(rng, cells=300, most=300, givens=1 / 3, notes=0.05)
    given = sum(t.value is not None for t in truths)
    times = []
    for _ in range(3):
        started = time.perf_counter()
        read_cells(crops, most)
        times.append(time.perf_counter() - started)
    empty = [c for c, t in zip(crops, truths, strict=True) if t.value is None]
    numbered = [c for c, t in zip(crops, truths, strict=True) if t.value is not None]
    started = time.perf_counter()
    read_cells(empty, most)
    per_empty = (time.perf_counter() - started) / len(empty) * 1000
    started = time.perf_counter()
    read_cells(numbered, most)
    per_number = (time.perf_counter() - started) / len(numbered) * 1000
    print(f"board of 300 cells with {given} givens: median {statistics.median(times) * 1000:.0f} ms "
          f"({statistics.median(times) / 300 * 1000:.2f} ms a crop); empty crop {per_empty:.2f} ms, "
          f"crop with a number {per_number:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=60, help="random boards of 40 cells (default 60)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--failures", type=Path, help="write the misread crops to this folder")
    parser.add_argument("--no-speed", action="store_true")
    args = parser.parse_args()
    accuracy(args.boards, args.seed, args.failures)
    upside_down(max(10, args.boards // 3), args.seed)
    if not args.no_speed:
        speed(args.seed)


if __name__ == "__main__":
    main()
