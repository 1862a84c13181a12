"""De-identification and detection on Apache Spark: a text column of a DataFrame, or the notes ``anonimed deidentify
--engine spark`` reads (a folder of ``.txt``, a Parquet or a JSONL file).

>>> from anonimed.spark import deidentify_dataframe, spark_session
>>> spark = spark_session("local[2]")  # doctest: +SKIP
>>> notes = spark.createDataFrame([("n1", "Paciente: Ernesto Rivera.")], "id string, text string")  # doctest: +SKIP
>>> deidentify_dataframe(notes, key=b"secret").select("id", "deidentified", "error").show()  # doctest: +SKIP

Why it is built this way:

- The work runs in ``mapInPandas``: each Python worker gets a partition as pandas batches and de-identifies them with
  the ordinary :class:`~anonimed.deidentify.Deidentifier`, so a Spark run gives exactly what the Python API gives.
- The model is loaded once per executor Python process, not per row or per task: the Deidentifier (or detector) is
  kept in a module-level cache keyed by the options (:class:`DeidentifyOptions`), and Spark reuses its Python
  workers between tasks.  Loading the shipped model takes about a second and 350 MB; a note, 0.1–0.2 s of one core.
- Fail-closed, row by row: a row that fails gets null in the output column and the failure in the error column,
  never its original text.  The error names the exception type and where it was raised, not its message: a
  message may quote the note (``invalid literal for int(): 'Ernesto'``).  A model that cannot be loaded fails the
  job, so that nothing is written at all.
- Consistent pseudonyms across partitions: the key (or seed) is read on the driver and travels with the task, so
  every executor derives the same surrogates.  With neither, the driver draws one random seed for the whole run (each
  executor drawing its own would make a run's output depend on which executor a note landed on).
- Nothing logs note text.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anonimed.deidentify import BatchSummary, Deidentifier, load_model
from anonimed.deidentify.batch import _refuse_overwrite, _sources
from anonimed.detect.base import Detector
from anonimed.document import Document
from anonimed.formats.textio import atomic_writer, read_text, write_text_atomic
from anonimed.transform import build_config, load_settings, read_key

if TYPE_CHECKING:
    import pandas as pd
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

DEFAULT_MASTER = "local[*]"
OUTPUT_COLUMN = "deidentified"
DETECT_COLUMN = "phi"
ERROR_COLUMN = "error"
SPANS_COLUMN = "spans"
DEFAULT_DOCUMENT_ID = "text"  # what Deidentifier.deidentify(text) calls a note that has no id
NULL_TEXT = "the text is null"
# The spans of a de-identified note, as the CLI's audit has them: no original text.
REPLACEMENT_TYPE = (
    "array<struct<label: string, input_start: int, input_end: int, output_start: int, output_end: int, "
    "operator: string>>"
)
PHI_TYPE = "array<struct<start: int, end: int, label: string, score: double>>"


@dataclass(frozen=True)
class DeidentifyOptions:
    """What a Spark task needs to rebuild the driver's :class:`~anonimed.deidentify.Deidentifier` on an executor:
    plain, hashable data (it keys the executor's cache and is pickled into every task).

    ``operators``: CLI-style specs (``"FECHAS=mask:keep"``), applied after ``settings`` (the mapping of a YAML/TOML
    configuration file: default, operators, sex, kinship), as ``anonimed deidentify`` does.  ``key``: the secret
    itself.  Build it with :func:`deidentify_options`, which checks the options on the driver.
    """

    model: str | None = None
    vote: str | None = None
    operators: tuple[str, ...] = ()
    settings: str = "{}"  # JSON: a mapping is not hashable
    key: bytes | None = field(default=None, repr=False)
    seed: int | None = None

    def deidentifier(self) -> Deidentifier:
        config = build_config(self.operators, json.loads(self.settings), self.key)
        return Deidentifier(model=load_model(self.model, self.vote), operators=config, key=self.key, seed=self.seed)


def deidentify_options(
    model: str | Path | None = None,
    operators: Mapping[str, Any] | str | Path | Iterable[str] | None = None,
    key: bytes | str | Path | None = None,
    seed: int | None = None,
    vote: str | None = None,
    settings: Mapping[str, Any] | None = None,
) -> DeidentifyOptions:
    """The options of :class:`anonimed.Deidentifier` (``operators``: a settings mapping, the path of a YAML/TOML/JSON
    file, or CLI-style specs), made ready to ship to executors and checked here, so that a bad operator fails on the
    driver before any task starts.  ``settings`` (a file's mapping) may come with specs, as in the CLI.

    ``key`` is read now (a key file need not exist on the executors).  Without key or seed, one random seed is drawn
    for the whole run: surrogates are then per note, as with the Python API, whatever executor a note lands on.
    """
    specs: tuple[str, ...] = ()
    merged: dict[str, Any] = dict(settings or {})
    if isinstance(operators, Mapping):
        merged.update(operators)
    elif isinstance(operators, Path) or (
        isinstance(operators, str) and Path(operators).suffix in (".yaml", ".yml", ".toml", ".json")
    ):
        merged.update(load_settings(operators))
    elif isinstance(operators, str):
        specs = (operators,)
    elif operators is not None:
        specs = tuple(str(spec) for spec in operators)
    secret = read_key(key) if key is not None else None
    if secret is None and seed is None:
        seed = secrets.randbits(63)
    try:
        settings_json = json.dumps(merged, sort_keys=True)
    except TypeError as error:
        raise ValueError(f"operator settings must be plain data (JSON): {error}") from None
    build_config(specs, json.loads(settings_json), secret)  # raises here on a bad operator or setting
    return DeidentifyOptions(str(model) if model is not None else None, vote, specs, settings_json, secret, seed)


# --- The executor side: one Deidentifier / detector per Python process and options -----------------------------

_CACHE: dict[Any, Any] = {}
_CACHE_LOCK = threading.Lock()
_BUILDS: Counter = Counter()  # how many times this process built the Deidentifier of each options: the tests check 1


def _cached(options: Any, build: Any) -> Any:
    with _CACHE_LOCK:
        if options not in _CACHE:
            _CACHE[options] = build()
            _BUILDS[options] += 1
        return _CACHE[options]


def executor_builds(options: DeidentifyOptions | DetectOptions) -> int:
    """How many times this process has built the Deidentifier (or detector) of ``options``: 1 once it has run."""
    return _BUILDS[options]


@dataclass(frozen=True)
class DetectOptions:
    """The detector an executor loads: ``model`` and ``vote`` as for :func:`anonimed.models.load_detector`."""

    model: str | None = None
    vote: str | None = None

    def detector(self) -> Detector:
        from anonimed.models import load_detector

        return load_detector(self.model, self.vote)


def failure(error: BaseException) -> str:
    """The error column of a failed row: the exception's type and the module and line that raised it, never its
    message (a message may quote the note)."""
    traceback = error.__traceback__
    while traceback is not None and traceback.tb_next is not None:
        traceback = traceback.tb_next
    if traceback is None:
        return type(error).__name__
    module = traceback.tb_frame.f_globals.get("__name__", "?")
    return f"{type(error).__name__} in {module}.{traceback.tb_frame.f_code.co_name} line {traceback.tb_lineno}"


def _identifier(value: Any) -> str:
    """A note's id as the Python API takes it: a string (an integer id that pandas made a float, 2.0, is "2")."""
    if _is_missing(value):
        return DEFAULT_DOCUMENT_ID
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _is_missing(value: Any) -> bool:
    """None, or pandas' NaN / NA for a missing value."""
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN is the one value not equal to itself
    except (TypeError, ValueError):  # pandas.NA has no truth value
        return type(value).__name__ == "NAType"


def _replacements(result: Any) -> list[dict[str, Any]]:
    return [
        {
            "label": r.input.label,
            "input_start": r.input.start,
            "input_end": r.input.end,
            "output_start": r.output.start if r.output else None,
            "output_end": r.output.end if r.output else None,
            "operator": r.operator,
        }
        for r in result.replacements
    ]


def deidentify_rows(
    options: DeidentifyOptions,
    texts: Iterable[Any],
    ids: Iterable[Any] | None = None,
    patients: Iterable[Any] | None = None,
) -> Iterator[tuple[str | None, str | None, list[dict[str, Any]] | None]]:
    """``(new text, None, replacements)`` for each text, or ``(None, error, None)`` for one that failed: what a
    Spark task runs, usable without Spark.  The Deidentifier is built on the first row (then cached)."""
    ids_iter = iter(ids) if ids is not None else None
    patients_iter = iter(patients) if patients is not None else None
    deidentifier: Deidentifier | None = None
    for text in texts:
        identifier = _identifier(next(ids_iter) if ids_iter is not None else None)
        patient = next(patients_iter) if patients_iter is not None else None
        if _is_missing(text):
            yield None, NULL_TEXT, None
            continue
        if deidentifier is None:  # a failure to load the model is no row's failure: it stops the task
            deidentifier = _cached(options, options.deidentifier)
        try:
            if not isinstance(text, str):
                raise TypeError("the text column must hold strings")
            patient_key = None if _is_missing(patient) else str(patient)
            result = deidentifier.deidentify(Document(identifier, text), patient=patient_key)
            yield result.text, None, _replacements(result)
        except Exception as error:  # fail-closed: whatever went wrong, this row's text is not emitted
            yield None, failure(error), None


def detect_rows(
    options: DetectOptions, texts: Iterable[Any], ids: Iterable[Any] | None = None
) -> Iterator[tuple[list[dict[str, Any]] | None, str | None]]:
    """``(spans, None)`` for each text, or ``(None, error)``: what a detection task runs, usable without Spark."""
    ids_iter = iter(ids) if ids is not None else None
    detector: Detector | None = None
    for text in texts:
        identifier = _identifier(next(ids_iter) if ids_iter is not None else None)
        if _is_missing(text):
            yield None, NULL_TEXT
            continue
        if detector is None:
            detector = _cached(options, options.detector)
        try:
            if not isinstance(text, str):
                raise TypeError("the text column must hold strings")
            spans = sorted(detector.detect(Document(identifier, text)))
            yield [{"start": s.start, "end": s.end, "label": s.label, "score": s.score} for s in spans], None
        except Exception as error:
            yield None, failure(error)


def _column(batch: pd.DataFrame, name: str | None) -> Iterable[Any] | None:
    return batch[name].tolist() if name is not None else None


def _deidentify_batches(
    batches: Iterator[pd.DataFrame],
    options: DeidentifyOptions,
    text_column: str,
    id_column: str | None,
    patient_column: str | None,
    output_column: str,
    error_column: str,
    spans_column: str | None,
) -> Iterator[pd.DataFrame]:
    for batch in batches:
        rows = list(
            deidentify_rows(
                options,
                batch[text_column].tolist(),
                _column(batch, id_column),
                _column(batch, patient_column),
            )
        )
        out = batch.copy()
        out[output_column] = [text for text, _, _ in rows]
        out[error_column] = [error for _, error, _ in rows]
        if spans_column is not None:
            out[spans_column] = [spans for _, _, spans in rows]
        yield out


def _detect_batches(
    batches: Iterator[pd.DataFrame],
    options: DetectOptions,
    text_column: str,
    id_column: str | None,
    output_column: str,
    error_column: str,
) -> Iterator[pd.DataFrame]:
    for batch in batches:
        rows = list(detect_rows(options, batch[text_column].tolist(), _column(batch, id_column)))
        out = batch.copy()
        out[output_column] = [spans for spans, _ in rows]
        out[error_column] = [error for _, error in rows]
        yield out


# --- The driver side ------------------------------------------------------------------------------------------


def _with_columns(schema: StructType, columns: list[tuple[str, str]]) -> StructType:
    """The input schema with ``columns`` (name, DDL type) added, or replacing a column of the same name in place."""
    from pyspark.sql.types import StructField, StructType, _parse_datatype_string

    fields = list(schema.fields)
    for name, ddl in columns:
        new = StructField(name, _parse_datatype_string(ddl), nullable=True)
        positions = [i for i, f in enumerate(fields) if f.name == name]
        if positions:
            fields[positions[0]] = new
        else:
            fields.append(new)
    return StructType(fields)


def _check_columns(df: DataFrame, *names: str | None) -> None:
    missing = [name for name in names if name is not None and name not in df.columns]
    if missing:
        raise ValueError(f"the DataFrame has no column {', '.join(map(repr, missing))} (it has {df.columns})")


def deidentify_dataframe(
    df: DataFrame,
    text_column: str = "text",
    id_column: str | None = "id",
    *,
    model: str | Path | None = None,
    operators: Mapping[str, Any] | str | Path | Iterable[str] | None = None,
    key: bytes | str | Path | None = None,
    seed: int | None = None,
    vote: str | None = None,
    options: DeidentifyOptions | None = None,
    patient_column: str | None = None,
    output_column: str = OUTPUT_COLUMN,
    error_column: str = ERROR_COLUMN,
    spans_column: str | None = None,
) -> DataFrame:
    """``df`` with the de-identified text of ``text_column`` in ``output_column`` (give ``text_column`` itself to
    replace it) and ``error_column`` (null, or why the row failed: its output is then null).

    The options are those of :class:`anonimed.Deidentifier` (or ready-made ``options``).  ``id_column`` names each
    note (its surrogates and date offset depend on it without a key, its date offset with one), as the CLI names a
    file's note by its stem; None treats every row as ``Deidentifier.deidentify(text)`` does.  ``patient_column``
    gives all notes of a patient one date offset.  ``spans_column``: each replacement's type, offsets in the input and
    output text, and operator (an audit without original text).  Lazy, like any transformation.
    """
    if options is None:
        options = deidentify_options(model, operators, key, seed, vote)
    if id_column is not None and id_column not in df.columns and id_column == "id":
        id_column = None  # the default: a DataFrame without an id column is still fine
    _check_columns(df, text_column, id_column, patient_column)
    added = [(output_column, "string"), (error_column, "string")]
    if spans_column is not None:
        added.append((spans_column, REPLACEMENT_TYPE))
    schema = _with_columns(df.schema, added)

    def run(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        return _deidentify_batches(
            batches, options, text_column, id_column, patient_column, output_column, error_column, spans_column
        )

    return df.mapInPandas(run, schema)


def detect_dataframe(
    df: DataFrame,
    text_column: str = "text",
    id_column: str | None = "id",
    *,
    model: str | Path | None = None,
    vote: str | None = None,
    output_column: str = DETECT_COLUMN,
    error_column: str = ERROR_COLUMN,
) -> DataFrame:
    """``df`` with the PHI spans of ``text_column`` in ``output_column`` (an array of ``start``, ``end``, ``label``,
    ``score``: exactly the spans of ``anonimed predict``, as :func:`anonimed.models.load_detector` gives them) and
    ``error_column``."""
    options = DetectOptions(str(model) if model is not None else None, vote)
    if id_column is not None and id_column not in df.columns and id_column == "id":
        id_column = None
    _check_columns(df, text_column, id_column)
    schema = _with_columns(df.schema, [(output_column, PHI_TYPE), (error_column, "string")])

    def run(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        return _detect_batches(batches, options, text_column, id_column, output_column, error_column)

    return df.mapInPandas(run, schema)


def spark_session(master: str | None = None, app_name: str = "anonimed", **config: str) -> SparkSession:
    """The active session, or a new one on ``master`` (default: the one ``spark-submit`` was given, else
    ``local[*]``); ``config``: more Spark settings.

    On a local master the Python workers run this Python (the one with anonimed installed), not whatever ``python3``
    comes first on the PATH.
    """
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app_name)
    submitted = bool(os.environ.get("PYSPARK_GATEWAY_PORT"))  # started by spark-submit, which set the master
    if master is not None or not submitted:
        builder = builder.master(master or DEFAULT_MASTER)
    local = (master or ("" if submitted else DEFAULT_MASTER)).startswith("local")
    if local and not os.environ.get("PYSPARK_PYTHON"):
        # PySpark reads the workers' Python from this variable (not from spark.pyspark.python) on a local master.
        os.environ["PYSPARK_PYTHON"] = sys.executable
    for name, value in config.items():
        builder = builder.config(name, value)
    return builder.getOrCreate()


def spark_session_started(master: str | None = None) -> tuple[SparkSession, bool]:
    """:func:`spark_session`, and whether it started it (so that only then does the caller stop it)."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    return (active, False) if active is not None else (spark_session(master), True)


# --- What ``anonimed deidentify --engine spark`` runs -------------------------------------------------------------

TABLE_SUFFIXES = (".parquet", ".jsonl")
ORDER_COLUMN = "_anonimed_row"  # the input order of a table's rows, while they are spread over executors


def deidentify_path(
    input_path: str | Path,
    output_path: str | Path,
    options: DeidentifyOptions,
    spark: SparkSession,
    encoding: str = "utf-8",
    errors: str = "strict",
) -> BatchSummary:
    """De-identify notes on Spark into ``output_path``, in the form they came in:

    - a ``.txt`` file or a folder of ``.txt`` notes (searched recursively): the same files as ``anonimed deidentify``
      writes, byte for byte with the same key or seed (a note's id is its file stem, as there).  The driver reads the
      notes and writes the results; the executors de-identify.
    - a Parquet file or folder (``*.parquet``) with ``id`` and ``text`` columns: a Parquet folder (Spark's part files,
      one table to Spark, pandas or pyarrow) with the same columns, ``text`` de-identified.
    - a JSONL file (``*.jsonl``), one JSON object a line with ``id`` and ``text``: the same lines with ``text``
      de-identified and every other field as it was.

    As in the local engine, a note that fails is reported (by file, id or line) and left out of the output, and the
    others go on; inputs are never overwritten.
    """
    started = time.perf_counter()
    source = Path(input_path)
    output = Path(output_path)
    if str(input_path) == "-" or str(output_path) == "-":
        raise ValueError("--engine spark reads files and writes files: standard input/output needs --engine local")
    if not source.exists():
        raise ValueError(f"{source}: does not exist")
    suffix = source.suffix.lower()
    if suffix in TABLE_SUFFIXES:
        if output.resolve() == source.resolve():
            raise ValueError(f"{output}: the output must not be the input (inputs are never overwritten)")
        if output.exists():
            raise ValueError(f"{output}: already exists (Spark does not write into an existing table)")
        table = _deidentify_parquet if suffix == ".parquet" else _deidentify_jsonl
        summary = table(source, output, options, spark)
    else:
        summary = _deidentify_notes(source, output, options, spark, encoding, errors)
    summary.seconds = time.perf_counter() - started
    return summary


def _python_failure(error: Exception) -> ValueError:
    """A failed Spark job (the model could not be loaded, a worker died) as one clear line, not a JVM trace."""
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    return ValueError(f"the Spark job failed: {lines[-1] if lines else type(error).__name__}")


@contextmanager
def _spark_errors() -> Iterator[None]:
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    try:
        yield
    except (PySparkException, Py4JJavaError) as error:
        raise _python_failure(error) from None


@contextmanager
def _computed(df: DataFrame) -> Iterator[DataFrame]:
    """``df`` computed once, by all executors at once, and kept until the block ends.

    ``toLocalIterator`` alone would compute the partitions one after the other (it fetches them one at a time), and
    a second action would compute them again; so the result is persisted and counted first, then read.
    """
    kept = df.persist()
    try:
        with _spark_errors():
            kept.count()
            yield kept
    finally:
        kept.unpersist()


def _spread(df: DataFrame, spark: SparkSession) -> DataFrame:
    """At least a few partitions a core: a small file is one partition, which one core would de-identify alone."""
    wanted = spark.sparkContext.defaultParallelism * 4
    return df.repartition(wanted) if df.rdd.getNumPartitions() < wanted else df


def _deidentify_notes(
    source: Path, output: Path, options: DeidentifyOptions, spark: SparkSession, encoding: str, errors: str
) -> BatchSummary:
    sources = _sources(source)
    _refuse_overwrite(sources, source, output)
    into_folder = source.is_dir() or output.is_dir()
    summary = BatchSummary()
    rows = []
    for note in sources:
        assert note.path is not None
        try:
            text = read_text(note.path, encoding, errors)
        except (OSError, ValueError) as error:
            summary.failures[str(note.path)] = str(error)
            continue
        rows.append((str(note.relative), note.path.stem, text))
    if not rows:
        return summary
    context = spark.sparkContext
    slices = max(1, min(len(rows), context.defaultParallelism * 4))  # a few tasks a core: long notes even out
    df = spark.createDataFrame(context.parallelize(rows, slices), "path string, id string, text string")
    done = deidentify_dataframe(df, options=options, spans_column=SPANS_COLUMN).select(
        "path", OUTPUT_COLUMN, ERROR_COLUMN, SPANS_COLUMN
    )
    with _computed(done) as results:
        for row in results.toLocalIterator():
            relative = Path(row["path"])
            name = str(source / relative) if source.is_dir() else str(source)
            if row[ERROR_COLUMN] is not None:
                summary.failures[name] = f"not de-identified: {row[ERROR_COLUMN]}"
                continue
            target = output / relative if into_folder else output
            try:
                write_text_atomic(target, row[OUTPUT_COLUMN])
            except OSError as error:
                summary.failures[name] = str(error)
                continue
            summary.documents += 1
            summary.spans.update(span["label"] for span in row[SPANS_COLUMN])
    return summary


def _deidentify_parquet(source: Path, output: Path, options: DeidentifyOptions, spark: SparkSession) -> BatchSummary:
    """The table's rows keep their order (a row number taken before the rows are spread over the executors)."""
    from pyspark.sql import functions

    df = spark.read.parquet(str(source))
    _check_columns(df, "id", "text")
    if ORDER_COLUMN in df.columns:
        raise ValueError(f"{source}: has a column {ORDER_COLUMN!r}, which --engine spark uses for itself")
    columns = df.columns
    numbered = _spread(df.withColumn(ORDER_COLUMN, functions.monotonically_increasing_id()), spark)
    done = deidentify_dataframe(numbered, "text", "id", options=options, spans_column=SPANS_COLUMN)
    summary = BatchSummary()
    with _computed(done) as results:
        labels = functions.transform(SPANS_COLUMN, lambda span: span["label"]).alias("labels")
        for row in results.select("id", ERROR_COLUMN, labels).toLocalIterator():
            if row[ERROR_COLUMN] is not None:
                summary.failures[f"{source} id {row['id']}"] = f"not de-identified: {row[ERROR_COLUMN]}"
            else:
                summary.documents += 1
                summary.spans.update(row["labels"])
        kept = results.where(functions.col(ERROR_COLUMN).isNull()).orderBy(ORDER_COLUMN)
        kept.select(*[functions.col(OUTPUT_COLUMN if c == "text" else c).alias(c) for c in columns]).write.parquet(
            str(output)
        )
    return summary


def _deidentify_jsonl(source: Path, output: Path, options: DeidentifyOptions, spark: SparkSession) -> BatchSummary:
    """Each line is parsed, de-identified and written again on the executors, so that every other field keeps its
    place and value; the driver writes the lines in their order into one file (atomically: all or nothing)."""
    from pyspark.sql import functions

    lines = _spread(
        spark.read.text(str(source)).withColumn(ORDER_COLUMN, functions.monotonically_increasing_id()), spark
    )
    schema = f"{ORDER_COLUMN} long, line string, error string, labels array<string>"

    def run(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        return _jsonl_batches(batches, options)

    summary = BatchSummary()
    with _computed(lines.mapInPandas(run, schema)) as results, atomic_writer(output) as stream:
        for number, row in enumerate(results.orderBy(ORDER_COLUMN).toLocalIterator(), start=1):
            if row["error"] is not None:
                summary.failures[f"{source} line {number}"] = f"not de-identified: {row['error']}"
            elif row["line"] is not None:
                stream.write(row["line"] + "\n")
                summary.documents += 1
                summary.spans.update(row["labels"])
    return summary


def _jsonl_batches(batches: Iterator[pd.DataFrame], options: DeidentifyOptions) -> Iterator[pd.DataFrame]:
    import pandas as pd

    for batch in batches:
        records: list[dict[str, Any] | None] = []
        problems: list[str | None] = []
        for value in batch["value"].tolist():
            record, problem = _json_record(value)
            records.append(record)
            problems.append(problem)
        wanted = [r for r in records if r is not None]
        results = iter(deidentify_rows(options, [r["text"] for r in wanted], [r["id"] for r in wanted]))
        out_lines: list[str | None] = []
        out_errors: list[str | None] = []
        out_labels: list[list[str] | None] = []
        for record, problem in zip(records, problems):
            if record is None:  # a blank line (no problem) or one that is not a note
                out_lines.append(None)
                out_errors.append(problem)
                out_labels.append(None)
                continue
            text, error, spans = next(results)
            if error is not None or text is None:
                out_lines.append(None)
                out_errors.append(error or NULL_TEXT)
                out_labels.append(None)
                continue
            out_lines.append(json.dumps({**record, "text": text}, ensure_ascii=False))
            out_errors.append(None)
            out_labels.append([span["label"] for span in spans or []])
        yield pd.DataFrame(
            {ORDER_COLUMN: batch[ORDER_COLUMN].tolist(), "line": out_lines, "error": out_errors, "labels": out_labels}
        )


def _json_record(value: Any) -> tuple[dict[str, Any] | None, str | None]:
    """A line's JSON object, or why it is not a note (never quoting it)."""
    if _is_missing(value) or not str(value).strip():
        return None, None
    try:
        record = json.loads(value)
    except ValueError:
        return None, "the line is not valid JSON"
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        return None, "the line is not a JSON object with a string 'text'"
    if "id" not in record or record["id"] is None:
        return None, "the line has no 'id'"
    return record, None
