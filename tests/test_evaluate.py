"""The MEDDOCAN scorer: hand-computed cases for every rule of evaluation.md, and gold against gold on dev."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonimed.document import Document, Span
from anonimed.evaluate import Counts, MissingPredictionError, evaluate_dirs, score
from anonimed.evaluate.matching import merged_spans
from anonimed.schema import LABELS
from anonimed.text.sentences import split_sentences

NAME, TERR, PAIS = "NOMBRE_SUJETO_ASISTENCIA", "TERRITORIO", "PAIS"


def at(text: str, piece: str, label: str, occurrence: int = 0) -> Span:
    """The span of the ``occurrence``-th ``piece`` in ``text``."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(piece, start + 1)
    return Span(start, start + len(piece), label)


def one(text: str, gold: list[Span], predicted: list[Span], sentences: int | None = 1):
    report = score([Document("d", text, gold)], {"d": predicted}, {"d": sentences} if sentences is not None else None)
    return report


def counts(c: Counts) -> tuple[int, int, int]:
    return (c.tp, c.fp, c.fn)


# --- the example of evaluation.md and the merging rule ---------------------------------------------------------------


def test_ernesto_rivera_one_gold_span_two_predicted() -> None:
    text = "Paciente: Ernesto Rivera, 40 años."
    report = one(text, [at(text, "Ernesto Rivera", NAME)], [at(text, "Ernesto", NAME), at(text, "Rivera", NAME)])
    assert counts(report.subtask1) == (0, 2, 1)
    assert counts(report.subtask2_strict) == (0, 2, 1)
    assert counts(report.subtask2_merged) == (1, 0, 0)
    assert report.subtask2_merged.f1 == 1.0


def test_merging_across_punctuation_and_space_in_both_directions() -> None:
    text = "Vive en Madrid, España desde 1990."
    whole, parts = [at(text, "Madrid, España", TERR)], [at(text, "Madrid", TERR), at(text, "España", PAIS)]
    assert counts(one(text, whole, parts).subtask2_merged) == (1, 0, 0)
    assert counts(one(text, parts, whole).subtask2_merged) == (1, 0, 0)
    assert counts(one(text, parts, whole).subtask2_strict) == (0, 1, 2)


def test_an_alphanumeric_character_in_the_gap_prevents_merging() -> None:
    text = "Vive en Madrid y España."
    report = one(text, [Span(8, 23, TERR)], [at(text, "Madrid", TERR), at(text, "España", PAIS)])
    assert counts(report.subtask2_merged) == (0, 2, 1)


def test_only_one_side_merging_gives_partial_credit() -> None:
    text = "Vive en Madrid y España."
    gold = [at(text, "Madrid", TERR), at(text, "España", PAIS)]
    report = one(text, gold, [at(text, "Madrid", TERR)])
    assert counts(report.subtask2_merged) == (1, 0, 1)


def test_a_hit_covers_the_spans_inside_it_even_if_strictly_wrong() -> None:
    # gold: "Ana" + "Gil Pérez"; predicted: "Ana Gil" + "Pérez"; both merge to "Ana Gil Pérez".
    text = "Paciente Ana Gil Pérez."
    gold = [at(text, "Ana", NAME), at(text, "Gil Pérez", NAME)]
    predicted = [at(text, "Ana Gil", NAME), at(text, "Pérez", NAME)]
    report = one(text, gold, predicted)
    assert counts(report.subtask2_strict) == (0, 2, 2)
    assert counts(report.subtask2_merged) == (1, 0, 0)


def test_merged_hits_are_a_union_with_the_strict_hits() -> None:
    # Both sides: "Ana" and "Gil" (same spans): strict hits {Ana, Gil}, merged hits {"Ana Gil"}: TP = 3.
    text = "Ana Gil."
    both = [at(text, "Ana", NAME), at(text, "Gil", NAME)]
    assert counts(one(text, both, both).subtask2_merged) == (3, 0, 0)


def test_merged_spans_overlapping_and_nested() -> None:
    text = "abcdefghijklmnopqrst"
    assert merged_spans({(0, 4), (2, 8)}, text) == {(0, 8)}  # empty gap: overlapping spans merge
    assert merged_spans({(0, 4), (4, 8)}, text) == {(0, 8)}  # touching spans merge
    assert merged_spans({(0, 4), (5, 8)}, text) == {(0, 4), (5, 8)}  # "e" in the gap
    # evaluation.md: "extend the current merged span to the next span's end", also when that end is earlier
    assert merged_spans({(0, 10), (2, 5)}, text) == {(0, 5)}


def test_overlapping_but_unequal_spans_are_wrong_in_subtask_1_and_strict() -> None:
    text = "Calle Mayor 5, Madrid."
    report = one(text, [at(text, "Calle Mayor 5", "CALLE")], [at(text, "Calle Mayor", "CALLE")])
    assert counts(report.subtask1) == (0, 1, 1)
    assert counts(report.subtask2_strict) == (0, 1, 1)
    assert counts(report.subtask2_merged) == (0, 1, 1)


# --- sets, types, empty and missing predictions -----------------------------------------------------------------------


def test_duplicates_count_once_on_both_sides() -> None:
    text = "Ana en Madrid."
    gold = [at(text, "Ana", NAME), at(text, "Ana", NAME)]
    predicted = [at(text, "Ana", NAME), at(text, "Ana", NAME), at(text, "Madrid", TERR), at(text, "Madrid", TERR)]
    report = one(text, gold, predicted)
    assert counts(report.subtask1) == (1, 1, 0)
    assert counts(report.subtask2_strict) == (1, 1, 0)


def test_a_span_with_another_type_is_wrong_in_subtask_1_only() -> None:
    text = "Vive en Madrid."
    report = one(text, [at(text, "Madrid", TERR)], [at(text, "Madrid", PAIS)])
    assert counts(report.subtask1) == (0, 1, 1)
    assert counts(report.subtask2_strict) == (1, 0, 0)
    assert counts(report.per_type[TERR]) == (0, 0, 1)
    assert counts(report.per_type[PAIS]) == (0, 1, 0)
    assert report.confusion == {(TERR, PAIS): 1}


def test_one_offset_pair_with_two_gold_types() -> None:
    text = "Vive en Madrid."
    gold = [at(text, "Madrid", TERR), at(text, "Madrid", PAIS)]
    report = one(text, gold, [at(text, "Madrid", PAIS)])
    assert counts(report.subtask1) == (1, 0, 1)
    assert counts(report.subtask2_strict) == (1, 0, 0)  # offsets are a set: one span
    assert report.confusion == {(PAIS, PAIS): 1, (TERR, "missed"): 1}


def test_confusion_matrix_rows_sum_to_gold_counts_with_missed_and_spurious() -> None:
    text = "Ana Gil vive en Madrid, España."
    gold = [at(text, "Ana Gil", NAME), at(text, "Madrid", TERR), at(text, "España", PAIS)]
    predicted = [at(text, "Ana Gil", NAME), at(text, "Madrid", PAIS), at(text, "vive", "PROFESION")]
    report = one(text, gold, predicted)
    assert report.confusion == {(NAME, NAME): 1, (TERR, PAIS): 1, (PAIS, "missed"): 1, ("spurious", "PROFESION"): 1}
    assert "TERRITORIO -> PAIS: 1" in report.to_text()


def test_labels_that_are_not_meddocan_types_are_scored_as_given() -> None:
    text = "Vive en Madrid."
    report = one(text, [at(text, "Madrid", TERR)], [at(text, "Madrid", "CIUDAD")])
    assert counts(report.subtask1) == (0, 1, 1)
    assert counts(report.subtask2_strict) == (1, 0, 0)
    assert list(report.per_type)[: len(LABELS)] == list(LABELS)
    assert counts(report.per_type["CIUDAD"]) == (0, 1, 0)


def test_an_empty_prediction_misses_everything() -> None:
    text = "Ana vive en Madrid."
    report = one(text, [at(text, "Ana", NAME), at(text, "Madrid", TERR)], [], sentences=1)
    assert counts(report.subtask1) == (0, 0, 2)
    assert (report.subtask1.precision, report.subtask1.recall, report.subtask1.f1) == (0.0, 0.0, 0.0)
    assert report.leak == 2.0


def test_zero_denominators_give_zero() -> None:
    report = score([Document("d", "")], {"d": []})
    assert report.sentences == 0 and report.leak == 0.0
    for c in (report.subtask1, report.subtask2_strict, report.subtask2_merged, report.tokens):
        assert (c.precision, c.recall, c.f1) == (0.0, 0.0, 0.0)
    assert Counts(0, 3, 0).precision == 0.0 and Counts(0, 0, 3).recall == 0.0


def test_micro_average_sums_counts_over_documents_first() -> None:
    text = "Ana Gil y Eva Sanz."
    gold = {
        "a": Document("a", text, [at(text, "Ana Gil", NAME)]),
        "b": Document("b", text, [at(text, "Eva Sanz", NAME)]),
    }
    predicted = {"a": [at(text, "Ana Gil", NAME), at(text, "Eva", NAME)], "b": []}
    report = score(gold, predicted, {"a": 1, "b": 3})
    assert counts(report.subtask1) == (1, 1, 1)
    assert report.subtask1.f1 == pytest.approx(0.5)
    assert report.leak == pytest.approx(1 / 4)


def test_a_gold_document_without_prediction_is_an_error() -> None:
    with pytest.raises(MissingPredictionError, match="no prediction: b"):
        score([Document("a", "x"), Document("b", "y")], {"a": []})


def test_a_predicted_document_must_have_the_gold_text() -> None:
    with pytest.raises(ValueError, match="differs from the gold text"):
        score([Document("a", "Ana")], [Document("a", "Eva")])


def test_token_level_de_identification() -> None:
    text = "Ernesto Rivera vive en Madrid."
    report = one(text, [at(text, "Ernesto Rivera", NAME)], [at(text, "Ernesto", NAME), at(text, "en Madrid", TERR)])
    # gold PHI tokens: Ernesto, Rivera; predicted: Ernesto, en, Madrid
    assert counts(report.tokens) == (1, 2, 1)


def test_leak_falls_back_to_the_sentence_splitter_and_says_so() -> None:
    text = "Ana vino.\nEva no. Luego sí.\n"
    report = one(text, [at(text, "Ana", NAME), at(text, "Eva", NAME)], [], sentences=None)
    assert report.sentences == len(split_sentences(text)) == 3
    assert report.leak == pytest.approx(2 / 3)
    assert report.documents_with_split_sentences == 1
    assert any("sentence splitter" in note for note in report.notes)


# --- folders -------------------------------------------------------------------------------------------------------


def write(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8", newline="")


@pytest.fixture()
def split(tmp_path: Path) -> Path:
    """A fictitious split in the MEDDOCAN layout: brat/ (gold), sentences/ and pred/."""
    text = "\ufeffPaciente: Ernesto Rivera.\nVive en Madrid, España. Alta.\n"
    write(tmp_path / "brat" / "n1.txt", text)
    write(
        tmp_path / "brat" / "n1.ann",
        f"T1\t{NAME} 11 25\tErnesto Rivera\nT2\t{TERR} 35 41\tMadrid\nT3\t{PAIS} 43 49\tEspaña\n",
    )
    write(tmp_path / "sentences" / "n1.ann", "T1\tFp 25 26\t.\nT2\tFp 49 50\t.\nT3\tFp 55 56\t.\nT4\tFp 56 57\t.\n")
    # a BOM counts as a character; the covered text of predictions is not checked; "CIUDAD" is not a MEDDOCAN type
    write(tmp_path / "pred" / "n1.ann", f"T1\t{NAME} 11 18\tErnesto\nT2\t{NAME} 19 25\tRivera\nT3\tCIUDAD 35 41\tXXX\n")
    return tmp_path


def test_evaluate_dirs_reads_brat_predictions_against_the_gold_text(split: Path) -> None:
    assert (split / "brat" / "n1.txt").read_text(encoding="utf-8")[11:25] == "Ernesto Rivera"
    report = evaluate_dirs(split / "brat", split / "pred", split / "sentences")
    assert counts(report.subtask1) == (0, 3, 3)
    assert counts(report.subtask2_strict) == (1, 2, 2)  # Madrid
    assert counts(report.subtask2_merged) == (2, 0, 1)  # Madrid and "Ernesto Rivera"; España missed
    assert report.sentences == 4 and report.leak == pytest.approx(3 / 4)


def test_sentences_beside_the_gold_folder_are_used_by_default(split: Path) -> None:
    assert evaluate_dirs(split / "brat", split / "pred").sentences == 4
    (split / "sentences" / "n1.ann").unlink()
    report = evaluate_dirs(split / "brat", split / "pred")
    assert report.sentences == 3 and report.documents_with_split_sentences == 1


def test_a_missing_prediction_file_is_named(split: Path) -> None:
    (split / "pred" / "n1.ann").unlink()
    with pytest.raises(MissingPredictionError, match=r"n1\.ann"):
        evaluate_dirs(split / "brat", split / "pred")


def test_an_empty_prediction_file_is_an_empty_prediction(split: Path) -> None:
    write(split / "pred" / "n1.ann", "")
    assert counts(evaluate_dirs(split / "brat", split / "pred").subtask1) == (0, 0, 3)


def test_json_holds_every_figure(split: Path) -> None:
    data = json.loads(json.dumps(evaluate_dirs(split / "brat", split / "pred").to_dict()))
    assert set(data["subtask1"]) >= {"precision", "recall", "f1", "leak", "tp", "fp", "fn"}
    for key in ("subtask2_strict", "subtask2_merged", "tokens"):
        assert set(data[key]) >= {"precision", "recall", "f1", "tp", "fp", "fn"}
    assert data["documents"] == 1 and data["sentences"] == 4
    assert set(data["per_type"]) == {*LABELS, "CIUDAD"}
    assert data["per_type"][TERR]["gold"] == 1 and data["per_type"]["URL_WEB"]["f1"] == 0.0
    assert data["confusion"] == {TERR: {"CIUDAD": 1}, NAME: {"missed": 1}, PAIS: {"missed": 1}, "spurious": {NAME: 2}}


def test_plots_are_png_files(split: Path, tmp_path: Path) -> None:
    from anonimed.evaluate.plots import write_plots

    paths = write_plots(evaluate_dirs(split / "brat", split / "pred"), tmp_path / "plots")
    assert len(paths) == 2
    for path in paths:
        assert path.suffix == ".png" and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_gold_against_gold_on_dev_is_perfect(meddocan) -> None:
    dev = meddocan / "dev"
    report = evaluate_dirs(dev / "brat", dev / "brat", dev / "sentences")
    assert report.documents == 250 and report.documents_with_split_sentences == 0
    for c in (report.subtask1, report.subtask2_strict, report.subtask2_merged, report.tokens):
        assert (c.precision, c.recall, c.f1) == (1.0, 1.0, 1.0)
    assert report.leak == 0.0
    assert all(c.f1 == 1.0 for c in report.per_type.values() if c.tp + c.fn)


def test_prediction_lines_are_read_as_the_organisers_scorer_reads_them(split: Path) -> None:
    # CRLF line ends, an indented line and a line of another kind are all fine
    write(split / "pred" / "n1.ann", f"T1\t{NAME} 11 25\tErnesto Rivera\r\n  T2\t{TERR} 35 41\tMadrid\r\n#1\tnote\r\n")
    assert counts(evaluate_dirs(split / "brat", split / "pred").subtask1) == (2, 0, 1)


def test_gold_documents_are_the_annotation_files(split: Path) -> None:
    write(
        split / "brat" / "unannotated.txt", "Texto sin anotar.\n"
    )  # no .ann: not a gold document, no prediction needed
    assert evaluate_dirs(split / "brat", split / "pred").documents == 1


def test_character_coverage_ignores_type_and_counts_each_character_once():
    from anonimed.document import Document, Span
    from anonimed.evaluate import score

    gold = Document("c", "Ana Gil en Madrid", [Span(0, 7, "NOMBRE_SUJETO_ASISTENCIA"), Span(11, 17, "TERRITORIO")])
    predicted = {"c": [Span(0, 3, "PAIS"), Span(2, 5, "PAIS"), Span(8, 10, "PAIS")]}
    characters = score([gold], predicted, {"c": 1}).characters
    assert (characters.tp, characters.fp, characters.fn) == (5, 2, 8)
    assert round(characters.recall, 4) == round(5 / 13, 4)
