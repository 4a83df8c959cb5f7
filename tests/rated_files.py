"""The puzzles rated by Denis Berthier's CSP-Rules (tests/data/rated, copied with their
sources from the project's shared folder): published ones and some we generated."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from engine import Grid, Puzzle, parse_puzzle

RATED = Path(__file__).parent / "data" / "rated"


@dataclass(frozen=True)
class Rated:
    """One rated puzzle: its name, Berthier's whip length (None: beyond whips), the level
    our generator was asked for when it made it (None for published puzzles)."""

    name: str
    folder: str
    whip: int | None
    generated_as: str | None

    def load(self) -> tuple[Puzzle, Grid]:
        path = RATED / self.folder / f"{self.name}.txt"
        solution = parse_puzzle((RATED / self.folder / f"{self.name}.solution.txt").read_text())
        return parse_puzzle(path.read_text()), dict(solution.givens)


def rated_puzzles() -> list[Rated]:
    found = []
    for folder in ("published", "generated"):
        with open(RATED / folder / "ratings.tsv", newline="") as table:
            for row in csv.DictReader(table, delimiter="\t"):
                length = row["whip_length"]
                whip = None if length.startswith(">") else int(length)
                found.append(Rated(row["puzzle"], folder, whip, row.get("generated_as")))
    return found
