"""Pictures for the reader's tests made by the test set's own generator (tools/scanset),
in the style of one of the set's pictures but with another puzzle and another shot: the
situation that picture shows, drawn afresh, so a test holds the reader to the situation
and not to one picture."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from scanset.camera import Shot  # noqa: E402
from scanset.own_style import Theme  # noqa: E402
from scanset.plan import BoardSpec, Spec, plan  # noqa: E402
from scanset.render import Picture, render  # noqa: E402

SEED = 27  # the set's seed: the styles of its pictures

__all__ = ["BoardSpec", "Picture", "Shot", "Spec", "Theme", "like", "picture"]


def like(original: str, **changes: Any) -> Spec:
    """The spec of the set's picture ``original`` with ``changes`` (a new ``name`` among them)."""
    spec = next(s for s in plan(SEED) if s.name == original)
    return replace(spec, **changes)


def picture(spec: Spec) -> Picture:
    """The picture of ``spec`` and what it shows."""
    return render(spec, SEED)
