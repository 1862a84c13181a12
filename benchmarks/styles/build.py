"""Builds the styles development set (``STYLE-NNN.txt`` + ``.ann``) from its annotated sources in ``markup/``.

A source note is plain text in which each PHI mention is written ``[[covered text|TYPE]]`` (a MEDDOCAN type, see
``anonimed.schema``); everything else is copied as it is.  The build writes the note without the brackets and its BRAT
annotations with exact offsets, so offsets are never typed by hand.

    python benchmarks/styles/build.py          # rebuild every note of markup/ into benchmarks/styles/
    python benchmarks/styles/build.py --check  # fail if a built note differs from its source
    python benchmarks/styles/build.py --counts # print the README's table of notes and mentions per style and type

``--folder`` builds, checks or counts another set written the same way (its notes in the folder, their sources in its
``markup/``), e.g. the held-out set: ``python benchmarks/styles/build.py --folder benchmarks/styles-holdout --check``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from anonimed.document import Document, Span
from anonimed.formats.brat import format_ann, read_brat
from anonimed.schema import LABELS, canonical_label

HERE = Path(__file__).resolve().parent
STYLES = ("narrativa", "catala", "radiologia", "primaria", "cabeceras")
NAME = re.compile(r"^(?P<style>[a-z]+)-(?P<number>\d{3,})$")  # three digits, four once a style passes 999
MENTION = re.compile(r"\[\[(?P<covered>[^\[\]|]+)\|(?P<label>[A-Z_]+)\]\]")


class MarkupError(ValueError):
    """A source note that cannot be built: names the file and the problem."""


def parse_markup(source: str, name: str = "<markup>") -> Document:
    """The note written by ``source`` and its spans."""
    pieces: list[str] = []
    spans: list[Span] = []
    length = 0
    position = 0
    for match in MENTION.finditer(source):
        pieces.append(source[position : match.start()])
        length += match.start() - position
        covered = match["covered"]
        if covered != covered.strip():
            raise MarkupError(f"{name}: mention {covered!r} starts or ends with white space")
        try:
            label = canonical_label(match["label"])
        except ValueError as error:
            raise MarkupError(f"{name}: {error}") from None
        spans.append(Span(length, length + len(covered), label))
        pieces.append(covered)
        length += len(covered)
        position = match.end()
    pieces.append(source[position:])
    text = "".join(pieces)
    for leftover in ("[[", "]]"):
        if leftover in text:
            raise MarkupError(f"{name}: unbalanced or malformed mention near {text[text.index(leftover) :][:40]!r}")
    return Document(name, text, spans)


def check_name(path: Path) -> None:
    match = NAME.match(path.stem)
    if match is None or match["style"] not in STYLES:
        raise MarkupError(
            f"{path}: a note's name is STYLE-NNN (three digits or more) with STYLE one of {', '.join(STYLES)}"
        )


def build(markup_dir: Path = HERE / "markup", out_dir: Path = HERE, check: bool = False) -> list[str]:
    """Builds (or with ``check`` compares) every note; returns the problems found."""
    problems: list[str] = []
    for source in sorted(markup_dir.glob("*.txt")):
        try:
            check_name(source)
            document = parse_markup(source.read_text(encoding="utf-8"), source.name)
        except MarkupError as error:
            problems.append(str(error))
            continue
        outputs = {out_dir / source.name: document.text, out_dir / f"{source.stem}.ann": format_ann(document)}
        for path, content in outputs.items():
            if check:
                if not path.is_file() or path.read_text(encoding="utf-8") != content:
                    problems.append(f"{path.name}: out of date with markup/{source.name}")
            else:
                path.write_text(content, encoding="utf-8")
    return problems


def counts_table(notes_dir: Path = HERE) -> str:
    """A markdown table of the built notes: notes and mentions of each type per style (types that occur only)."""
    notes: Counter[str] = Counter()
    mentions: Counter[tuple[str, str]] = Counter()
    for path in sorted(notes_dir.glob("*.txt")):
        style = path.stem.split("-")[0]
        notes[style] += 1
        for span in read_brat(path).spans:
            mentions[style, span.label] += 1
    styles = [style for style in STYLES if notes[style]]
    labels = [label for label in LABELS if any(mentions[style, label] for style in styles)]
    rows = [["notes", *(str(notes[style]) for style in styles), str(sum(notes.values()))]]
    for label in labels:
        per_style = [mentions[style, label] for style in styles]
        rows.append([label, *(str(count) for count in per_style), str(sum(per_style))])
    rows.append(["all mentions", *(str(sum(mentions[style, label] for label in labels)) for style in styles)])
    rows[-1].append(str(sum(mentions.values())))
    header = ["", *styles, "total"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare the built notes with their sources")
    parser.add_argument("--counts", action="store_true", help="print the table of notes and mentions per style")
    parser.add_argument(
        "--folder",
        type=Path,
        default=HERE,
        help="the set to build: its notes go in the folder, their sources are in its markup/ (default: this set)",
    )
    arguments = parser.parse_args()
    folder: Path = arguments.folder
    if not (folder / "markup").is_dir():
        parser.error(f"{folder}: no markup/ folder of source notes")
    if arguments.counts:
        print(counts_table(folder))
        return 0
    problems = build(markup_dir=folder / "markup", out_dir=folder, check=arguments.check)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
