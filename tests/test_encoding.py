"""The search's encoding: its at-most-one clauses are pysat's own, written out."""

from __future__ import annotations

import random

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from engine.encoding import _PAIRWISE_UP_TO, _exactly_one


def _pysat_exactly_one(lits: list[int], pool: IDPool) -> list[list[int]]:
    if len(lits) == 1:
        return [lits]
    kind = EncType.pairwise if len(lits) <= _PAIRWISE_UP_TO else EncType.seqcounter
    return [lits, *CardEnc.atmost(lits, 1, vpool=pool, encoding=kind).clauses]


def test_exactly_one_is_pysats_encoding_clause_for_clause() -> None:
    rng = random.Random(28)
    first = 400
    pool = IDPool(start_from=first + 1)
    top = first
    for _ in range(300):
        size = rng.randint(1, 40)
        lits = rng.sample(range(1, first + 1), size)
        expected = _pysat_exactly_one(lits, pool)
        clauses: list[list[int]] = []
        top = _exactly_one(lits, top, clauses)
        assert clauses == expected
        assert top == pool.top  # the extra variables numbered as pysat numbers them
