"""What a person may ask for: shapes, sizes, difficulties and variants, checked in one place.

The New puzzle form, the booklet form, the solver page, the pool and the command line
all ask for these; each check here has the one message a person sees, whichever asked.
Pure Python: no Flask, no database.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date
from typing import Any

from engine import ADJACENCIES, DIFFICULTIES, SHAPES, ShapeSpec
from engine.levels import LEVELS, range_text, smallest_size

from .engine_words import LEVEL_NEEDS_SIZE, LEVEL_TOO_HARD_FOR_SHAPE
from .messages import N_, Name, Refusal, Sentence


@dataclass(frozen=True)
class Variant:
    """A way to play: its name, its adjacency, and the rule in words (English: the web layer's
    ``names`` and the paper layer's words say them in the reader's language)."""

    key: str
    label: str
    adjacency: str
    neighbours: int
    touching: str  # how consecutive numbers touch, for the rules


VARIANTS: dict[str, Variant] = {
    "hidato": Variant("hidato", "Hidato", "king", 8, "across a side or a corner"),
    "numbrix": Variant("numbrix", "Numbrix", "rook", 4, "across a side, not a corner"),
    "hex": Variant("hex", "Hex", "hex", 6, "across one of the six sides"),
}
VARIANT_OF_ADJACENCY = {variant.adjacency: variant for variant in VARIANTS.values()}
# Shapes tried, in this order, for the puzzle of the day (the first the engine knows wins).
DAILY_SHAPES = ("diamond", "rectangle", "ring", "cross", "heart", "triangle")


def variant_of(adjacency: str) -> Variant:
    """The variant played with this adjacency."""
    return VARIANT_OF_ADJACENCY.get(adjacency, VARIANTS["hidato"])


@dataclass(frozen=True)
class Options:
    """A kind of generated puzzle: shape, size, difficulty and variant."""

    shape: str
    size: int
    difficulty: str
    variant: str

    @property
    def adjacency(self) -> str:
        return VARIANTS[self.variant].adjacency


def _shown(value: str) -> str:
    return repr(value[:40])


def check_shape(name: str) -> ShapeSpec:
    """The named shape; ValueError with the choices otherwise."""
    spec = SHAPES.get(name)
    if spec is None:
        raise Refusal(N_("Unknown shape %(shape)s: choose one of %(choices)s"), shape=_shown(name),
                      choices=", ".join(SHAPES))
    return spec


def check_size(spec: ShapeSpec, raw: str | int | None) -> int:
    """A size for the shape, its usual one when none is given; ValueError naming the range."""
    if raw is None or raw == "":
        return spec.default_size
    text = str(raw).strip()
    if not (text.isascii() and text.isdigit() and len(text) < 6):
        raise Refusal(N_("Size must be a whole number from %(low)s to %(high)s"), low=spec.min_size,
                      high=spec.max_size)
    size = int(text)
    if not spec.min_size <= size <= spec.max_size:
        raise Refusal(N_("Size for %(shape)s must be from %(low)s to %(high)s, not %(size)s"), shape=Name(spec.name),
                      low=spec.min_size, high=spec.max_size, size=size)
    return size


def check_difficulty(raw: str | None) -> str:
    """A difficulty the generator knows (medium when none is given)."""
    level = (raw or "medium").strip().lower()
    if level not in DIFFICULTIES:
        raise Refusal(N_("Unknown difficulty %(level)s: choose one of %(choices)s"), level=_shown(level),
                      choices=", ".join(DIFFICULTIES))
    return level


def check_variant(raw: str | None) -> Variant:
    """A variant by its key (Hidato when none is given)."""
    key = (raw or "hidato").strip().lower()
    if key not in VARIANTS:
        *first, last = [v.label for v in VARIANTS.values()]
        raise Refusal(N_("Unknown variant %(variant)s: choose %(first)s or %(last)s"), variant=_shown(key),
                      first=", ".join(first), last=last)
    return VARIANTS[key]


def check_adjacency(raw: str | None) -> str:
    """An adjacency by its engine name (king when none is given)."""
    name = (raw or "king").strip().lower()
    if name not in ADJACENCIES:
        raise Refusal(N_("Unknown adjacency %(adjacency)s: choose king, rook or hex"), adjacency=_shown(name))
    return name


def parse_options(form: Any) -> Options:
    """A form's shape, size, difficulty and variant; ValueError (a Refusal, but the engine's reason
    a level can't be reached is English) with a message for the person."""
    spec = check_shape((form.get("shape") or "").strip().lower())
    options = Options(spec.name, check_size(spec, form.get("size")), check_difficulty(form.get("difficulty")),
                      check_variant(form.get("variant")).key)
    check_reachable(options)
    return options


def check_reachable(options: Options) -> None:
    """A Refusal saying why, when the level cannot be made on this shape and size."""
    refusal = unreachable_refusal(options.shape, options.size, options.adjacency, options.difficulty)
    if refusal is not None:
        raise refusal


def unreachable_refusal(shape: str, size: int, adjacency: str, level: str) -> Refusal | None:
    """Why ``level`` cannot be made on this shape and size, in words any language can say
    (the engine's ``unreachable`` facts: the level's range, the smallest size that makes it)."""
    known, smallest = smallest_size(shape, adjacency, level)
    if not known or (smallest is not None and size >= smallest):
        return None
    # The engine's facts in the words engine_words says them with (the variant by its name).
    names = {"level": Name(level), "range": range_text(LEVELS[level]), "shape": Name(shape),
             "adjacency": Name(variant_of(adjacency).label)}
    if smallest is None:
        return Sentence(LEVEL_TOO_HARD_FOR_SHAPE, **names)
    return Sentence(LEVEL_NEEDS_SIZE, smallest=smallest, **names)


# The adjacencies' names, said inside refusals (the shapes' and levels' are in web/names.py).
ADJACENCY_NAMES = (N_("king"), N_("rook"), N_("hex"))


def daily_options(day: date) -> list[tuple[Options, int]]:
    """The options and seed of the puzzle of the day, best first: the same for everyone on a date."""
    seed = int(day.strftime("%Y%m%d"))
    candidates = [name for name in DAILY_SHAPES if name in SHAPES] or sorted(SHAPES)
    random.Random(seed).shuffle(candidates)
    return [(Options(name, SHAPES[name].default_size, "medium", "hidato"), seed) for name in candidates]
