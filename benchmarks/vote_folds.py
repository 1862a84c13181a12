"""The default model's votes re-checked on two folds of the styles development set (issue 20, item 4).

    .venv/bin/python benchmarks/vote_folds.py [--votes scripts/default-votes.json ...] [--work runs/vote-folds]
        [--resume] [--out benchmarks/results/vote-folds.json]

Why: the shipped vote was tuned on MEDDOCAN dev with members that had not learnt it; since then the CRF member has
learnt the styles set, and a vote tuned on notes its members have learnt says little.  Here the styles set
(``benchmarks/styles``) is cut in two by the number in each note's name (odd: half A, even: half B); for each half a
CRF is trained as the shipped CRF's recipe without dev and the other half (MEDDOCAN train, the invented training notes
of ``anonimed synth --notes 600 --seed 0``, that half; ``anonimed train --model crf --seed 13``, no augmentation, to
keep it to some 20 minutes a half), and each candidate vote is scored on the *other* half with that CRF and the
shipped BiLSTM-CRF members (which never learnt the styles set).  A candidate wins only if it wins on both halves.

Candidates: ``shipped`` (the default model's ``balanced`` vote) and JSON files of vote settings by name (as
``anonimed train --model ensemble --votes`` reads them); every vote of a file is scored, under its name.  Figures per fold:
PHI character recall and precision, strict span F1, and the identifying mentions that survive ``deidentify``
verbatim, from ``styles_eval.measure`` (an ensemble folder votes ``balanced`` in both).

Work folders: ``WORK/halves/{A,B}`` (links to the notes), ``WORK/synth``, ``WORK/crf-{A,B}`` (a CRF that learnt that
half; kept with ``--resume``), ``WORK/ensemble-{A,B}-NAME`` (links to the members and the candidate's votes).
Writes the JSON atomically and prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from anonimed.detect.ensemble import Vote
from anonimed.formats.brat import read_brat_dir
from anonimed.models import DEFAULT_MODEL_DIR
from anonimed.train.ensemble import read_votes
from styles_eval import STYLES_DIR, measure  # a sibling script: benchmarks/ is the script's folder

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
HALVES = ("A", "B")
NEURAL_MEMBERS = ("neural", "neural2")


def half_of(name: str) -> str:
    """A for an odd note number (``catala-017``), B for an even one."""
    number = re.search(r"-(\d+)$", name)
    if number is None:
        raise ValueError(f"{name}: a styles note is named STYLE-NNN")
    return "A" if int(number.group(1)) % 2 else "B"


def split_halves(work: Path) -> dict[str, Path]:
    folders = {half: work / "halves" / half for half in HALVES}
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    for text in sorted(STYLES_DIR.glob("*.txt")):
        for suffix in (".txt", ".ann"):
            (folders[half_of(text.stem)] / (text.stem + suffix)).symlink_to(text.with_suffix(suffix).resolve())
    return folders


def run(command: list[str]) -> None:
    print("$", " ".join(command), file=sys.stderr, flush=True)
    subprocess.run(command, check=True)


def train_crf(half: Path, synth: Path, out: Path, resume: bool) -> None:
    if resume and (out / "model.json").is_file():
        return
    anonimed = str(Path(sys.executable).parent / "anonimed")
    train = [str(SHARED / "data" / "meddocan" / "train" / "brat"), str(synth), str(half)]
    run([anonimed, "train", "--model", "crf", "--train", *train, "--seed", "13", "--out", str(out)])


def candidate_votes(names: list[str]) -> dict[str, dict[str, Any]]:
    """The votes to score by name: ``shipped`` (the default model's balanced vote) or every vote of a file."""
    shipped = json.loads((DEFAULT_MODEL_DIR / "model.json").read_text(encoding="utf-8"))
    candidates = {}
    for name in names:
        if name == "shipped":
            candidates[name] = shipped["votes"]["balanced"]
        else:
            base = {vote_name: Vote.from_dict(settings) for vote_name, settings in shipped["votes"].items()}
            votes = read_votes(name, [member["name"] for member in shipped["members"]], base)
            candidates.update({vote_name: vote.to_dict() for vote_name, vote in votes.items()})
    return candidates


def ensemble_folder(work: Path, half: str, crf: Path, name: str, vote: dict[str, Any]) -> Path:
    """An ensemble of ``crf`` and the shipped networks voting ``vote`` (links, no copies)."""
    folder = work / f"ensemble-{half}-{name}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "crf").symlink_to(crf.resolve())
    for member in NEURAL_MEMBERS:
        (folder / member).symlink_to((DEFAULT_MODEL_DIR / member).resolve())
    manifest = json.loads((DEFAULT_MODEL_DIR / "model.json").read_text(encoding="utf-8"))
    manifest["votes"] = {"balanced": vote}
    manifest["default_vote"] = "balanced"
    for key in ("training", "tuned_model", "dev_scores"):
        manifest.pop(key, None)
    (folder / "model.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return folder


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| vote | scored on | char R | char P | strict F1 | survive verbatim |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for result in results:
        f = result["figures"]
        lines.append(
            f"| {result['vote']} | half {result['scored_on']} | {f['character_recall']:.4f} | "
            f"{f['character_precision']:.4f} | {f['strict_f1']:.4f} | "
            f"{f['survived_verbatim']}/{f['identifying_mentions']} ({f['survival']:.1%}) |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--votes", nargs="+", default=["shipped", str(ROOT / "scripts" / "default-votes.json")])
    parser.add_argument("--work", type=Path, default=ROOT / "runs" / "vote-folds")
    parser.add_argument("--resume", action="store_true", help="keep the CRFs and training notes already made")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "vote-folds.json")
    arguments = parser.parse_args()
    if not (SHARED / "data" / "meddocan" / "train" / "brat").is_dir():
        raise SystemExit(f"MEDDOCAN train not found under {SHARED} (set ANONIMED_SHARED)")
    candidates = candidate_votes(arguments.votes)
    work = arguments.work
    halves = split_halves(work)
    synth = work / "synth"
    if not (arguments.resume and synth.is_dir()):
        shutil.rmtree(synth, ignore_errors=True)
        run([str(Path(sys.executable).parent / "anonimed"), "synth", str(synth), "--notes", "600", "--seed", "0"])
    results = []
    for learnt, other in (("A", "B"), ("B", "A")):
        crf = work / f"crf-{learnt}"
        train_crf(halves[learnt], synth, crf, arguments.resume)
        notes = read_brat_dir(halves[other])
        for name, vote in candidates.items():
            folder = ensemble_folder(work, learnt, crf, name, vote)
            measured = measure(str(folder), notes)
            results.append({"vote": name, "settings": vote, "scored_on": other, "figures": measured["styles"]["all"]})
            print(table(results[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    report = {"notes": {half: len(list(folder.glob("*.txt"))) for half, folder in halves.items()}, "results": results}
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    partial = arguments.out.with_suffix(".json.partial")
    partial.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    partial.replace(arguments.out)
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
