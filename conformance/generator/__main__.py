"""Write the conformance vectors (``--check``: regenerate in a scratch directory and compare instead).

.venv/bin/python -m conformance.generator           # or: make conformance-generate
.venv/bin/python -m conformance.generator --check   # part of make generate-check
"""

from __future__ import annotations

import argparse
import filecmp
import json
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Final

from splendor.v1 import engine_service_pb2
from splendor_client.conformance.vectors import FORMAT, MANIFEST, Json

from engine_service.api import METHODS

from .engine import Engine
from .games import game_record
from .paths import RULESETS
from .plain import plain_cases, ruleset_games
from .recorder import CaseFile
from .refusals import refusal_cases
from .sealed import sealed_cases

VECTORS: Final = Path(__file__).resolve().parent.parent
GENERATED: Final = ("calls", "games", MANIFEST)  # what the generator owns in the vectors' directory
SEED_STEP: Final = 1000  # each ruleset's games are dealt from seeds of their own


def generate(out: Path) -> Json:
    """Write every file under ``out``; returns the manifest."""
    engine = Engine()
    calls: dict[str, CaseFile] = {}
    games: dict[str, list[Json]] = {}
    catalog = CaseFile(engine)
    catalog.answered("catalog", "GetCatalog", engine_service_pb2.GetCatalogRequest())
    calls["calls/catalog.json"] = catalog
    for index, (ruleset, modules) in enumerate(RULESETS):
        cases = CaseFile(engine)
        played = ruleset_games(engine, ruleset, modules, SEED_STEP * (index + 1))
        plain_cases(cases, ruleset, played)
        refusal_cases(cases, ruleset, played)
        sealed_cases(cases, ruleset, played.main[0])
        calls[f"calls/{ruleset}.json"] = cases
        games[f"games/{ruleset}.json"] = [game_record(engine, game) for game in played.main]
    documents = {name: file.document() for name, file in calls.items()}
    for name, document in documents.items():
        _write(out / name, _calls_text(document))
    for name, records in games.items():
        _write(out / name, '{"games":[\n' + ",\n".join(map(_compact, records)) + "\n]}\n")
    manifest = {
        "format": FORMAT,
        "contract": engine_service_pb2.DESCRIPTOR.package,
        "files": {"calls": list(documents), "games": list(games)},
        "counts": _counts(documents, games),
    }
    _write(out / MANIFEST, json.dumps(manifest, indent=2) + "\n")
    return manifest


def _counts(documents: dict[str, Json], games: dict[str, list[Json]]) -> Json:
    steps = [step for document in documents.values() for case in document["cases"] for step in case["steps"]]
    by_method = Counter(step["method"] for step in steps)
    missing = [method.name for method in METHODS if method.name not in by_method]
    if missing:
        raise AssertionError(f"no case calls {', '.join(missing)}")
    return {
        "cases": sum(len(document["cases"]) for document in documents.values()),
        "calls": len(steps),
        "refusals": sum("error" in step for step in steps),
        "engineSpecificCases": sum(
            bool(case.get("engineSpecific")) for document in documents.values() for case in document["cases"]
        ),
        "games": sum(map(len, games.values())),
        "gameActions": sum(len(game["actions"]) for records in games.values() for game in records),
        "callsByMethod": {method.name: by_method[method.name] for method in METHODS},
    }


def _compact(value: Json) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _calls_text(document: Json) -> str:
    """One state, then one case, per line: small diffs when the engine's answers change."""
    states = ",\n".join(f"{json.dumps(name)}:{_compact(state)}" for name, state in document["states"].items())
    cases = ",\n".join(map(_compact, document["cases"]))
    return '{"states":{\n' + states + '\n},\n"cases":[\n' + cases + "\n]}\n"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _files(root: Path) -> set[Path]:
    return {
        path.relative_to(root)
        for name in GENERATED
        for path in [root / name, *(root / name).rglob("*")]
        if path.is_file()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--check", action="store_true", help="fail if the committed vectors differ from a fresh generation"
    )
    parser.add_argument("--out", type=Path, default=VECTORS, help="the vectors' directory (default: conformance/)")
    args = parser.parse_args()
    out: Path = args.out
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch)
        manifest = generate(fresh)
        counts = manifest["counts"]
        if args.check:
            stale = sorted(
                str(path)
                for path in _files(fresh) | _files(out)
                if not (out / path).is_file()
                or not (fresh / path).is_file()
                or not filecmp.cmp(out / path, fresh / path, shallow=False)
            )
            if stale:
                print("the conformance vectors are out of date; run `make conformance-generate`:", *stale, sep="\n  ")
                return 1
            print(f"conformance vectors are up to date ({counts['calls']} calls, {counts['games']} games)")
            return 0
        for name in GENERATED:
            target = out / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
        shutil.copytree(fresh, out, dirs_exist_ok=True)
    size = sum((out / path).stat().st_size for path in _files(out))
    what = f"{counts['calls']} calls in {counts['cases']} cases and {counts['games']} games"
    print(f"wrote {what} to {out} ({size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
