"""What a person may ask for: shapes, sizes, difficulties and variants, checked in one place.

The New puzzle form, the booklet form, the solver page, the pool and the command line
all ask for these; each check here has the one message a person sees, whichever asked.
Pure Python: no Flask, no database.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from engine import ADJACENCIES, DIFFICULTIES, LEVELS, SHAPES, ShapeSpec, range_text, smallest_size

from .engine_words import LEVEL_NEEDS_SIZE, LEVEL_TOO_HARD_FOR_SHAPE
from .messages import ENGLISH, N_, Name, Refusal, Sentence, Words


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


class Listed(tuple[str, ...]):
    """A parameter of a refusal that is a list ("Hidato and Hex", "5, 6, 9 and 10"): joined
    with the reader's "and", its ``Name`` items said in the reader's language."""


class Choices(Sentence):
    """A refusal whose parameters may be ``Listed``."""

    def say(self, words: Words = ENGLISH) -> str:
        params = {key: joined([words.gettext(item) if isinstance(item, Name) else item for item in value], words)
                  if isinstance(value, Listed) else words.gettext(value) if isinstance(value, Name) else value
                  for key, value in self.params.items()}
        text = words.gettext(self.msgid) % params
        return text[:1].upper() + text[1:]


def joined(items: Sequence[str], words: Words = ENGLISH) -> str:
    """Items as a sentence lists them: "Hidato", "Hidato and Hex", "5, 6, 9 and 10"."""
    if len(items) < 2:
        return "".join(items)
    return words.gettext(N_("%(first)s and %(last)s")) % {"first": ", ".join(items[:-1]), "last": items[-1]}


def variants_taking(spec: ShapeSpec) -> list[Variant]:
    """The variants this shape can be played in (the engine's facts: the adjacencies it takes)."""
    return [variant for variant in VARIANTS.values() if spec.takes(variant.adjacency)]


def check_takes(spec: ShapeSpec, size: int, variant: Variant) -> None:
    """A Refusal in plain words when the shape cannot be played in this variant, or not at this size."""
    if not spec.takes(variant.adjacency):
        raise Choices(N_("the %(shape)s shape is for %(variants)s only, not %(variant)s: choose another shape "
                         "or another variant."), shape=Name(spec.name),
                      variants=Listed(Name(v.label) for v in variants_taking(spec)), variant=Name(variant.label))
    sizes = spec.sizes(variant.adjacency)
    if size not in sizes:
        raise Choices(N_("with %(variant)s, the %(shape)s shape comes in sizes %(sizes)s only, not %(size)s."),
                      variant=Name(variant.label), shape=Name(spec.name), sizes=Listed(str(n) for n in sizes),
                      size=size)


def parse_options(form: Any) -> Options:
    """A form's shape, size, difficulty and variant; a Refusal with a message for the person
    when the shape, size, variant and level do not go together."""
    spec = check_shape((form.get("shape") or "").strip().lower())
    size = check_size(spec, form.get("size"))
    variant = check_variant(form.get("variant"))
    check_takes(spec, size, variant)
    options = Options(spec.name, size, check_difficulty(form.get("difficulty")), variant.key)
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



def daily_options(day: date) -> list[tuple[Options, int]]:
    """The options and seed of the puzzle of the day, best first: the same for everyone on a date."""
    seed = int(day.strftime("%Y%m%d"))
    candidates = [name for name in DAILY_SHAPES if name in SHAPES] or sorted(SHAPES)
    random.Random(seed).shuffle(candidates)
    return [(Options(name, SHAPES[name].default_size, "medium", "hidato"), seed) for name in candidates]
