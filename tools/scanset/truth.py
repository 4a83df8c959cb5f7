"""The ground truth of each picture, and the manifest of the set.

For a picture ``NAME.jpg`` (or .png, .webp):

- ``NAME.txt``: the puzzle as printed, in our notation, always with ``# adjacency:``: what
  ``read_picture`` must return by default (the givens only);
- ``NAME.entries.txt`` when a player has written numbers in: the givens and the player's
  numbers, what ``read_picture(..., entries=True)`` must return; the manifest lists which
  cells are the player's.

``manifest.json`` lists every picture with its category, how it was made and what the
reader may take as the same board (``hex_turns``: a flat-top drawing, any of the board's
six turns).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from engine import Cell, Puzzle, format_puzzle

from .plan import Spec


def notation(puzzle: Puzzle, picture: str) -> str:
    """The puzzle's text with its adjacency always said, and the picture it belongs to."""
    text = format_puzzle(puzzle)
    if not text.startswith("# adjacency:"):
        text = f"# adjacency: {puzzle.board.adjacency}\n" + text
    return f"# picture: {picture}\n" + text


def entry(spec: Spec, file: str, puzzle: Puzzle, entries: dict[Cell, int], width: int, height: int,
          size: int) -> dict[str, Any]:
    """The manifest's line for one picture."""
    stem = spec.name
    record: dict[str, Any] = {
        "name": stem,
        "file": file,
        "category": spec.category,
        "kind": spec.kind,
        "layout": spec.layout,
        "truth": f"{stem}.txt",
        "adjacency": puzzle.board.adjacency,
        "cells": puzzle.board.size,
        "givens": len(puzzle.givens),
        "hex_turns": spec.hex_turns,
        "width": width,
        "height": height,
        "bytes": size,
    }
    if entries:
        record["entries_truth"] = f"{stem}.entries.txt"
        record["entries"] = [[r, c, v] for (r, c), v in sorted(entries.items())]
    if spec.board is not None:
        record["board"] = asdict(spec.board)
    if spec.theme is not None:
        record["theme"] = {k: v for k, v in asdict(spec.theme).items()}
    if spec.shot is not None:
        record["photo"] = spec.shot.describe()
    if spec.kind in ("ours", "booklet", "print"):
        record["dpi"] = spec.dpi
    if spec.booklet is not None:
        record["booklet"] = {**asdict(spec.booklet), "page": spec.page}
    return record


def write_manifest(folder: Path, seed: int, records: list[dict[str, Any]]) -> None:
    """manifest.json, stable byte for byte (sorted keys, fixed indentation)."""
    data = {"seed": seed, "pictures": records}
    (folder / "manifest.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
