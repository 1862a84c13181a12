"""docs/architecture.md stays true: every module of the package has its line there."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_names() -> list[str]:
    names = []
    for path in sorted((ROOT / "src" / "anonimed").rglob("*.py")):
        parts = path.relative_to(ROOT / "src").with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def listed(module: str, doc: str) -> bool:
    """Named in full (`anonimed.x.y`), or as `.y` in a row of its package (`anonimed.cli.predict`, `.deidentify`)."""
    if f"`{module}`" in doc:
        return True
    package, _, last = module.rpartition(".")
    return any(f"`{package}." in line and f"`.{last}`" in line for line in doc.splitlines())


def test_every_module_is_in_the_architecture_page() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [module for module in module_names() if not listed(module, doc)]
    assert not missing, f"add a line to docs/architecture.md for: {', '.join(missing)}"
