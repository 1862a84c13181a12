"""Ensemble model folders: member model folders side by side, and the votes that combine them.

``model.json`` holds ``kind: "ensemble"``, ``format_version``, ``members`` (each ``{"name", "folder"}`` for a
model folder inside this one, or ``{"name": PATTERNS}`` for the built-in pattern recognizers), ``votes`` (named
:class:`~anonimed.detect.ensemble.Vote` settings, e.g. ``balanced`` and ``recall``), ``default_vote``,
``propagate`` (whether the other mentions of what the vote found are added: :mod:`anonimed.detect.propagate`), and
how it was made (``training``, ``dev_scores``; a release refit keeps the tuned ensemble's under ``tuned_model``).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from anonimed.detect.base import Detector
from anonimed.detect.ensemble import EnsembleDetector, Vote
from anonimed.detect.propagate import Propagator
from anonimed.formats.errors import FormatError
from anonimed.formats.textio import write_text_atomic
from anonimed.models.folder import read_manifest

KIND = "ensemble"
FORMAT_VERSION = 1
PATTERNS = "patterns"


def write_ensemble(
    directory: str | Path,
    member_folders: Mapping[str, Path | None],
    votes: Mapping[str, Vote],
    default_vote: str,
    about: Mapping[str, Any],
    propagate: bool = True,
) -> None:
    """Copy each member folder into ``directory/NAME`` (``None``: the built-in patterns) and write ``model.json``.

    The folder is built beside ``directory`` and then put in its place, replacing what was there: a failure
    leaves the old folder (or none), never half of a new one.
    """
    if default_vote not in votes:
        raise ValueError(f"default vote {default_vote!r} is not among the votes {', '.join(votes)}")
    directory = Path(directory)
    building = directory.with_name(directory.name + ".building")
    if building.exists():
        shutil.rmtree(building)
    building.mkdir(parents=True)
    members = []
    for name, folder in member_folders.items():
        if folder is None:
            members.append({"name": name})
            continue
        shutil.copytree(folder, building / name)
        members.append({"name": name, "folder": name})
    manifest = {
        "kind": KIND,
        "format_version": FORMAT_VERSION,
        "members": members,
        "votes": {key: vote.to_dict() for key, vote in votes.items()},
        "default_vote": default_vote,
        "propagate": propagate,
        **about,
    }
    write_text_atomic(building / "model.json", json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    if directory.exists():
        shutil.rmtree(directory)
    building.rename(directory)


def load_ensemble(
    directory: str | Path, load_member: Callable[[Path, str], Detector], patterns: Detector, vote: str | None = None
) -> Detector:
    """The ensemble of a folder, its members loaded by ``load_member(folder, name)``; ``vote`` names a setting."""

    def build(manifest: dict[str, Any], path: Path) -> Detector:
        if manifest.get("format_version") != FORMAT_VERSION:
            raise FormatError(
                path, f"ensemble format {manifest.get('format_version')!r}; this anonimed reads {FORMAT_VERSION}"
            )
        votes = manifest["votes"]
        chosen = vote or manifest["default_vote"]
        if chosen not in votes:
            raise FormatError(path, f"has no vote setting {chosen!r}; it has {', '.join(votes)}")
        members = [
            load_member(Path(directory) / member["folder"], member["name"]) if "folder" in member else patterns
            for member in manifest["members"]
        ]
        ensemble = EnsembleDetector(members, Vote.from_dict(votes[chosen]))
        return Propagator(ensemble) if manifest.get("propagate", False) else ensemble

    return read_manifest(directory, build)


def vote_names(directory: str | Path) -> list[str]:
    """The vote settings of an ensemble folder (none for a folder of another kind)."""

    def names(values: dict[str, Any], path: Path) -> list[str]:
        return list(values["votes"]) if values.get("kind") == KIND else []

    return read_manifest(directory, names)


def folder_kind(directory: str | Path) -> str:
    """The ``kind`` that a model folder's ``model.json`` declares."""

    def kind(values: dict[str, Any], path: Path) -> str:
        if not isinstance(values.get("kind"), str):
            raise FormatError(path, "says no model kind")
        return values["kind"]

    return read_manifest(directory, kind)
