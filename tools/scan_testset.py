"""Make the photo reader's test set: pictures of puzzles with their ground truth (issue 27).

    .venv/bin/python tools/scan_testset.py                      # the committed set, tests/data/scan
    .venv/bin/python tools/scan_testset.py --out /tmp/scanset   # elsewhere
    .venv/bin/python tools/scan_testset.py --only hex,entries   # some categories (or names containing a word)
    .venv/bin/python tools/scan_testset.py --no-site            # without Chromium (no play/solver/print pictures)
    .venv/bin/python tools/scan_testset.py --check              # remake in a temporary folder, compare byte for byte
    .venv/bin/python tools/scan_testset.py --list               # what the set holds

Everything is drawn from ``--seed`` (27): the same command makes the same files (with the
same libraries and fonts, see tests/data/scan/README.md).  The modules doing the work are
in ``tools/scanset/``.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scanset.plan import CATEGORIES, Spec, plan  # noqa: E402
from scanset.render import render  # noqa: E402
from scanset.truth import entry, notation, write_manifest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "data" / "scan"
SITE_KINDS = ("play", "solver", "print")


def chosen(specs: list[Spec], only: str | None, site: bool) -> list[Spec]:
    """The specs ``--only`` and ``--no-site`` leave."""
    out = [s for s in specs if site or s.kind not in SITE_KINDS]
    if only:
        words = [w.strip() for w in only.split(",") if w.strip()]
        out = [s for s in out if any(w == s.category or w in s.name for w in words)]
    return out


def make_set(out: Path, seed: int, specs: list[Spec], quiet: bool = False) -> list[dict[str, Any]]:
    """Write the pictures of ``specs`` and their truth into ``out``; the manifest's records."""
    out.mkdir(parents=True, exist_ok=True)
    records = []
    site = None
    try:
        for i, spec in enumerate(specs, 1):
            started = time.perf_counter()
            if spec.kind in SITE_KINDS and site is None:
                from scanset.site_shots import Site

                site = Site(seed)
            picture = render(spec, seed, site)
            file = f"{spec.name}.{picture.ext}"
            (out / file).write_bytes(picture.data)
            (out / f"{spec.name}.txt").write_text(notation(picture.puzzle, file), encoding="utf-8")
            if picture.entries:
                from scanset.puzzles import with_entries

                (out / f"{spec.name}.entries.txt").write_text(
                    notation(with_entries(picture.puzzle, picture.entries), file), encoding="utf-8")
            records.append(entry(spec, file, picture.puzzle, picture.entries, picture.width, picture.height,
                                 len(picture.data)))
            if not quiet:
                print(f"{i:3d}/{len(specs)} {file:48s} {len(picture.data) // 1024:5d} KB "
                      f"{time.perf_counter() - started:5.1f} s", file=sys.stderr, flush=True)
    finally:
        if site is not None:
            site.close()
    return records


def merged(out: Path, seed: int, records: list[dict[str, Any]], order: list[Spec]) -> list[dict[str, Any]]:
    """The manifest's records: the ones just made over those already there, in the plan's order."""
    known: dict[str, dict[str, Any]] = {}
    manifest = out / "manifest.json"
    if manifest.exists():
        old = json.loads(manifest.read_text(encoding="utf-8"))
        if old.get("seed") == seed:
            known = {r["name"]: r for r in old["pictures"]}
    known.update({r["name"]: r for r in records})
    return [known[s.name] for s in order if s.name in known]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"where to write (default {DEFAULT_OUT})")
    parser.add_argument("--seed", type=int, default=27, help="the set's seed (default 27)")
    parser.add_argument("--only", help=f"categories ({', '.join(CATEGORIES)}) or words of names, comma-separated")
    parser.add_argument("--no-site", action="store_true", help="leave out the pictures that need Chromium")
    parser.add_argument("--check", action="store_true", help="remake the set elsewhere and compare with --out")
    parser.add_argument("--list", action="store_true", help="list the pictures and stop")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    specs = chosen(plan(args.seed), args.only, not args.no_site)
    if args.list:
        for spec in specs:
            print(f"{spec.category:12s} {spec.name:44s} {spec.kind:8s} {spec.board.label if spec.board else ''}")
        print(f"{len(specs)} pictures", file=sys.stderr)
        return 0
    if args.check:
        with tempfile.TemporaryDirectory() as folder:
            make_set(Path(folder), args.seed, specs, args.quiet)
            names = sorted(p.name for p in Path(folder).iterdir())
            _match, mismatch, errors = filecmp.cmpfiles(args.out, folder, names, shallow=False)
            for name in mismatch + errors:
                print(f"differs: {name}", file=sys.stderr)
            print(f"{len(names) - len(mismatch) - len(errors)} of {len(names)} files identical")
            return 1 if mismatch or errors else 0
    records = make_set(args.out, args.seed, specs, args.quiet)
    write_manifest(args.out, args.seed, merged(args.out, args.seed, records, plan(args.seed)))
    total = sum(p.stat().st_size for p in args.out.iterdir() if p.is_file())
    print(f"{len(records)} pictures written to {args.out} ({total / 1e6:.1f} MB in the folder)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
