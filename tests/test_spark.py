"""De-identification on Apache Spark (``anonimed.spark`` and ``anonimed deidentify --engine spark``): the same output
as the Python API and the local engine (byte for byte with the same key), fail-closed rows, the model loaded once
per executor process, Parquet and JSONL written back in their own form.

One SparkSession on ``local[2]`` for the module.  Without Java or pyspark the Spark tests skip, saying why, unless
``ANONIMED_REQUIRE_SPARK=1`` (CI), which turns the skip into a failure.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from anonimed.cli import main
from anonimed.deidentify import Deidentifier
from anonimed.document import Document, Span
from anonimed.spark import (
    NULL_TEXT,
    DeidentifyOptions,
    deidentify_options,
    deidentify_rows,
    executor_builds,
    failure,
)

REQUIRED = os.environ.get("ANONIMED_REQUIRE_SPARK") == "1"
KEY = b"clave-de-prueba-spark"

NOTES = {
    "n1": "Paciente: Ernesto Rivera Bueno, 67 años. Ingresa el 03/03/2019 en el Hospital La Paz (Madrid).",
    "n2": "Nombre: María Soler Pardo.\nNHC: 4456321.\nTel: 912 345 678.\nRemitida por el Dr. Ramón Gil.",
    "n3": "Sin hallazgos relevantes. Control en 6 meses.",
    "n4": "Pacient: Jordi Puig i Ferrer, veí de Girona, ingressa el 2 de maig de 2020. Correu: jpuig@example.com",
    "n5": "Ernesto Rivera Bueno acude de nuevo el 10/04/2019; su esposa, Lucía Martín, le acompaña.",
}


def _missing_spark() -> str | None:
    """Why Spark cannot run here, or None."""
    for module in ("pyspark", "pandas", "pyarrow"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install .[spark])"
    java = shutil.which("java") or (
        os.environ.get("JAVA_HOME") and shutil.which("java", path=str(Path(os.environ["JAVA_HOME"]) / "bin"))
    )
    if not java:
        return "Java is not installed (Spark needs Java 17: bash scripts/system-deps.sh as root)"
    return None


@pytest.fixture(scope="module")
def spark() -> Iterator:
    reason = _missing_spark()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"ANONIMED_REQUIRE_SPARK=1 but {reason}", pytrace=False)
        pytest.skip(f"Spark tests skipped: {reason}")
    from anonimed.spark import spark_session

    session = spark_session(
        "local[2]",
        **{
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.shuffle.partitions": "2",
            "spark.driver.memory": "1g",
        },
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def local_deidentifier() -> Deidentifier:
    """What the Python API gives with the same key: what every Spark result must equal."""
    return Deidentifier(key=KEY)


def _notes_frame(spark, notes: dict[str, str | None], partitions: int = 2):
    rows = list(notes.items())
    return spark.createDataFrame(spark.sparkContext.parallelize(rows, partitions), "id string, text string")


# --- Without Spark: the row function every task runs ----------------------------------------------------------


class _Failing:
    """A Deidentifier whose detector breaks on notes that mention FALLO, with PHI in its message."""

    def __init__(self, inner: Deidentifier) -> None:
        self.inner = inner

    def deidentify(self, document: Document, patient: str | None = None):
        if "FALLO" in document.text:
            raise KeyError(document.text)  # the message quotes the note: it must not reach the error column
        return self.inner.deidentify(document, patient=patient)


def test_rows_fail_closed_without_quoting_the_note(monkeypatch, local_deidentifier) -> None:
    options = deidentify_options(key=KEY)
    monkeypatch.setattr("anonimed.spark._cached", lambda options, build: _Failing(local_deidentifier))
    pd = pytest.importorskip("pandas")
    texts = ["Paciente: Ernesto Rivera. FALLO", NOTES["n1"], None, float("nan"), pd.NA]
    rows = list(deidentify_rows(options, texts, ["a", 1.0, "c", "d", "e"]))
    assert rows[0][0] is None and rows[0][2] is None
    assert rows[0][1].startswith("KeyError in ") and "Ernesto" not in rows[0][1]
    assert rows[1][0] == local_deidentifier.deidentify(Document("1", NOTES["n1"])).text  # pandas' 1.0 is note "1"
    assert rows[2] == rows[3] == rows[4] == (None, NULL_TEXT, None)


def test_failure_names_type_and_place_only() -> None:
    try:
        int("Ernesto Rivera")
    except ValueError as error:
        described = failure(error)
    assert described.startswith("ValueError in ") and "Ernesto" not in described


def test_options_are_checked_on_the_driver_and_hashable(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        deidentify_options(operators=["no-such-operator"])
    key_file = tmp_path / "key"
    key_file.write_bytes(KEY + b"\n")
    options = deidentify_options(operators=["FECHAS=mask:keep"], key=key_file, settings={"sex": "swap"})
    assert options.key == KEY and options.seed is None
    assert hash(options) == hash(deidentify_options(operators=["FECHAS=mask:keep"], key=KEY, settings={"sex": "swap"}))
    assert KEY.decode() not in repr(options)
    # Neither key nor seed: one seed for the whole run, drawn on the driver (every executor gets the same one).
    assert deidentify_options().seed is not None


def test_local_only_options_are_refused_with_spark(tmp_path: Path, capsys) -> None:
    notes = tmp_path / "in"
    notes.mkdir()
    (notes / "a.txt").write_text("Nota.", encoding="utf-8")
    assert main(["deidentify", str(notes), str(tmp_path / "out"), "--engine", "spark", "--audit", "x"]) == 2
    assert "--audit needs --engine local" in capsys.readouterr().err
    assert main(["deidentify", str(notes), str(tmp_path / "out"), "--master", "local[1]"]) == 2
    assert "--master needs --engine spark" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


# --- On Spark -------------------------------------------------------------------------------------------------


def test_deidentify_dataframe_equals_the_python_api(spark, local_deidentifier) -> None:
    from anonimed.spark import deidentify_dataframe

    notes = {**NOTES, "vacía": None}
    out = deidentify_dataframe(_notes_frame(spark, notes, 3), key=KEY, spans_column="spans")
    assert out.columns == ["id", "text", "deidentified", "error", "spans"]
    rows = {row["id"]: row for row in out.collect()}
    for identifier, text in NOTES.items():
        expected = local_deidentifier.deidentify(Document(identifier, text))
        assert rows[identifier]["error"] is None
        assert rows[identifier]["deidentified"] == expected.text
        assert [(s["label"], s["input_start"], s["input_end"]) for s in rows[identifier]["spans"]] == [
            (r.input.label, r.input.start, r.input.end) for r in expected.replacements
        ]
    assert "Ernesto" not in rows["n1"]["deidentified"]
    assert (rows["vacía"]["deidentified"], rows["vacía"]["error"]) == (None, NULL_TEXT)


def test_in_place_with_seed_and_operators(spark) -> None:
    from anonimed.spark import deidentify_dataframe

    frame = _notes_frame(spark, {"n2": NOTES["n2"]}, 1)
    out = deidentify_dataframe(frame, output_column="text", operators=["tag"], seed=7).collect()
    expected = Deidentifier(operators=["tag"], seed=7).deidentify(Document("n2", NOTES["n2"])).text
    assert [row["text"] for row in out] == [expected]
    assert "<" in expected or "[" in expected  # tags, not surrogates


def test_detect_dataframe_gives_the_detectors_spans(spark) -> None:
    from anonimed.models import load_detector
    from anonimed.spark import detect_dataframe

    rows = {row["id"]: row for row in detect_dataframe(_notes_frame(spark, NOTES)).collect()}
    detector = load_detector()
    for identifier, text in NOTES.items():
        expected = sorted(detector.detect(Document(identifier, text)))
        got = [Span(s["start"], s["end"], s["label"]) for s in rows[identifier]["phi"]]
        assert got == expected and rows[identifier]["error"] is None


class _FailingOptions(DeidentifyOptions):
    """Options whose Deidentifier breaks on notes that mention FALLO (shipped to the workers by value)."""

    def deidentifier(self) -> Deidentifier:  # type: ignore[override]
        return _Failing(super().deidentifier())  # type: ignore[return-value]


def test_a_failing_row_gives_null_and_an_error_on_spark(spark) -> None:
    from pyspark import cloudpickle

    from anonimed.spark import deidentify_dataframe

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
    try:
        base = deidentify_options(key=KEY)
        options = _FailingOptions(base.model, base.vote, base.operators, base.settings, base.key, base.seed)
        frame = _notes_frame(spark, {"ok": NOTES["n1"], "bad": "Ernesto Rivera Bueno. FALLO"}, 2)
        rows = {row["id"]: row for row in deidentify_dataframe(frame, options=options).collect()}
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert rows["bad"]["deidentified"] is None
    assert rows["bad"]["error"].startswith("KeyError") and "Ernesto" not in rows["bad"]["error"]
    assert rows["ok"]["error"] is None and "Ernesto" not in rows["ok"]["deidentified"]


def test_model_loaded_once_per_executor_process(spark) -> None:
    import pandas as pd

    options = deidentify_options(key=KEY)

    def run(batches):
        for batch in batches:
            list(deidentify_rows(options, batch["text"].tolist(), batch["id"].tolist()))
            yield pd.DataFrame({"pid": [os.getpid()], "builds": [executor_builds(options)]})

    tasks = 6
    frame = _notes_frame(spark, {f"n{i}": NOTES["n3"] for i in range(tasks)}, tasks)
    rows = frame.mapInPandas(run, "pid long, builds long").collect()
    assert len(rows) == tasks
    assert all(row["builds"] == 1 for row in rows), rows  # never again for another row or task in that process
    assert len({row["pid"] for row in rows}) < tasks  # the workers were reused across tasks


def _write_notes(folder: Path) -> None:
    (folder / "sub").mkdir(parents=True)
    for index, (identifier, text) in enumerate(NOTES.items()):
        (folder / ("sub" if index % 2 else ".") / f"{identifier}.txt").write_text(text, encoding="utf-8")


def test_cli_folder_is_byte_identical_to_the_local_engine(spark, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    _write_notes(notes)
    (notes / "roto.txt").write_bytes(b"Paciente: \xff Ernesto")  # not UTF-8: fails in both engines
    key = tmp_path / "key"
    key.write_bytes(KEY)
    local, on_spark = tmp_path / "local", tmp_path / "spark"
    common = ["--key", str(key), "--operator", "NUMERO_TELEFONO=mask"]
    assert main(["deidentify", str(notes), str(local), *common]) == 1
    assert main(["deidentify", str(notes), str(on_spark), *common, "--engine", "spark", "--master", "local[2]"]) == 1
    files = sorted(p.relative_to(local) for p in local.rglob("*.txt"))
    assert len(files) == len(NOTES) and Path("sub/n2.txt") in files
    assert files == sorted(p.relative_to(on_spark) for p in on_spark.rglob("*.txt"))
    for relative in files:
        assert (on_spark / relative).read_bytes() == (local / relative).read_bytes(), relative


def test_cli_jsonl_keeps_its_form(spark, tmp_path: Path, local_deidentifier, capsys) -> None:
    source = tmp_path / "notes.jsonl"
    lines = [
        json.dumps({"id": "n1", "servicio": "urgencias", "text": NOTES["n1"], "n": 1}, ensure_ascii=False),
        "",
        "no es json: Ernesto Rivera",
        json.dumps({"text": NOTES["n2"], "id": 2}, ensure_ascii=False),
    ]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    key = tmp_path / "key"
    key.write_bytes(KEY)
    out = tmp_path / "out.jsonl"
    assert main(["deidentify", str(source), str(out), "--key", str(key), "--engine", "spark"]) == 1
    err = capsys.readouterr().err
    assert f"{source} line 3" in err and "Ernesto" not in err
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [list(r) for r in records] == [["id", "servicio", "text", "n"], ["text", "id"]]
    assert records[0]["text"] == local_deidentifier.deidentify(Document("n1", NOTES["n1"])).text
    assert records[1]["text"] == local_deidentifier.deidentify(Document("2", NOTES["n2"])).text
    assert records[0]["servicio"] == "urgencias" and records[1]["id"] == 2


def test_cli_parquet_keeps_its_form(spark, tmp_path: Path, local_deidentifier) -> None:
    import pandas as pd

    source = tmp_path / "notes.parquet"
    table = pd.DataFrame({"id": list(NOTES), "text": list(NOTES.values()), "año": [2019, 2020, 2021, 2022, 2023]})
    table.to_parquet(source)
    key = tmp_path / "key"
    key.write_bytes(KEY)
    out = tmp_path / "out.parquet"
    assert main(["deidentify", str(source), str(out), "--key", str(key), "--engine", "spark"]) == 0
    result = pd.read_parquet(out)
    assert list(result.columns) == ["id", "text", "año"]
    assert list(result["id"]) == list(NOTES)  # in the input's order, though spread over the executors
    assert list(result["año"]) == [2019, 2020, 2021, 2022, 2023]
    for identifier, text in zip(result["id"], result["text"]):
        assert text == local_deidentifier.deidentify(Document(identifier, NOTES[identifier])).text
    assert main(["deidentify", str(source), str(out), "--key", str(key), "--engine", "spark"]) == 2  # exists
