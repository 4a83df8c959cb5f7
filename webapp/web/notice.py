"""What the status line says after an action: a message, its kind and the cells it is about."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Cell


@dataclass
class Notice:
    """A message for the status line, and the cells it is about (a hint's)."""

    text: str
    kind: str = "info"  # info, hint, check, error (not taken), problem (taken, breaks a rule), solved, revealed
    cells: list[Cell] = field(default_factory=list)
