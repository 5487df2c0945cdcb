"""The benchmark runner.

``python -m bench all`` runs every scenario in one process, so figures that are
compared (a scenario against the ``http-ceiling``) come from the same run on the
same machine. ``--quick`` shrinks each scenario for a smoke run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time

SCENARIOS: dict[str, str] = {
    "http-ceiling": "bench.http_ceiling",
    "score-entry": "bench.score_entry",
    "transcripts": "bench.transcripts",
    "transcript-import": "bench.transcript_import",
    "archive-import": "bench.archive_import",
    "chouette": "bench.chouette_sessions",
    "soak": "bench.soak",
    "ratings": "bench.ratings",
    "pairing": "bench.pairing",
    "bracket-pages": "bench.bracket_pages",
    "odds": "bench.odds",
    "analysis": "bench.analysis",
    "championship": "bench.championship",
    "embedded": "bench.embedded",
    "hostile": "bench.hostile",
    "live-viewers": "bench.live_viewers",
}


def _available() -> dict[str, str]:
    found = {}
    for name, module in SCENARIOS.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:
                continue
            raise
        found[name] = module
    return found


def main(argv: list[str] | None = None) -> int:
    available = _available()
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("scenario", choices=[*available, "all"], help="what to measure")
    parser.add_argument("--json", action="store_true", help="one JSON object per scenario")
    parser.add_argument("--quick", action="store_true", help="a small, fast run")
    args, rest = parser.parse_known_args(argv)  # the rest: the scenario's own options
    if rest and args.scenario == "all":
        parser.error(f"options for one scenario only: {' '.join(rest)}")

    names = list(available) if args.scenario == "all" else [args.scenario]
    results: dict[str, dict] = {}
    for name in names:
        module = importlib.import_module(available[name])
        started = time.perf_counter()
        context = {"results": results, "argv": rest}
        result = module.run(quick=args.quick, context=context)
        result.setdefault("wall_seconds", round(time.perf_counter() - started, 2))
        results[name] = result
        if args.json:
            print(json.dumps({"scenario": name, **result}), flush=True)
        else:
            print(f"== {name}", flush=True)
            for key, value in result.items():
                print(f"  {key}: {value}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
