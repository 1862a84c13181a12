"""Corpus building: the seed score, the elbow, the selection, the plot, the uncertainty ranking and `corpus rank`."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from anonimed.cli import main
from anonimed.corpus.ranking import elbow_index, mention_counts, plot_ranking, rank, seed_scores, type_shares
from anonimed.corpus.uncertainty import span_uncertainty, uncertainty_scores
from anonimed.document import Document, Span

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_type_shares_are_each_types_part_of_the_pool_mentions() -> None:
    mentions = {"a": Counter(NOMBRE=3, FECHAS=1), "b": Counter(FECHAS=4), "c": Counter()}
    assert type_shares(mentions) == {"NOMBRE": 3 / 8, "FECHAS": 5 / 8}
    assert type_shares({"a": Counter()}) == {}


def test_seed_score_by_hand() -> None:
    # 10 mentions: p is NOMBRE 3/10, FECHAS 5/10, CALLE 2/10.  F1: NOMBRE 0.5, FECHAS 0.9; CALLE has none: 0.
    mentions = {"a": Counter(NOMBRE=3, FECHAS=1), "b": Counter(FECHAS=4), "c": Counter(), "d": Counter(CALLE=2)}
    f1 = {"NOMBRE": 0.5, "FECHAS": 0.9}
    scores = seed_scores(mentions, f1)
    assert scores["a"] == pytest.approx(3 * 0.5 * 0.7 + 1 * 0.1 * 0.5)
    assert scores["b"] == pytest.approx(4 * 0.1 * 0.5)
    assert scores["c"] == 0
    assert scores["d"] == pytest.approx(2 * 1.0 * 0.8)


def test_a_type_the_rules_get_perfectly_adds_nothing() -> None:
    scores = seed_scores({"a": Counter(NOMBRE=5), "b": Counter(FECHAS=1)}, {"NOMBRE": 1.0, "FECHAS": 0.0})
    assert scores["a"] == 0
    assert scores["b"] == pytest.approx(1 * 1.0 * (1 - 1 / 6))


def test_mention_counts_count_labels() -> None:
    spans = [Span(0, 2, "NOMBRE"), Span(3, 5, "NOMBRE"), Span(6, 8, "FECHAS")]
    assert mention_counts(spans) == Counter(NOMBRE=2, FECHAS=1)


def test_elbow_is_the_point_farthest_below_the_chord() -> None:
    # Scaled: x = k/4, y = s/10; below the chord 1 - x - y = 0, .35, .30, .15, 0: the elbow is the second point.
    assert elbow_index([10, 4, 2, 1, 0]) == 1
    # 1 - x - y = 0, -.19, -.38, .38, .19, 0: the fourth point, where the scores fall.
    assert elbow_index([100, 99, 98, 2, 1, 0]) == 3


def test_elbow_of_flat_concave_and_tiny_curves_is_the_first_point() -> None:
    assert elbow_index([3.0]) == 0
    assert elbow_index([5, 5, 5]) == 0
    assert elbow_index([10, 9, 8, 0.1]) == 0  # bends the other way: no point below the chord
    assert elbow_index([2, 1]) == 0


def test_elbow_ties_go_to_the_first_point() -> None:
    # 1 - x - y with x = k/4, y = s/4: 0, .25, .25, .25, 0 (a straight stretch): the first of the tied points.
    assert elbow_index([4, 2, 1, 0, 0]) == 1


def test_elbow_rejects_unsorted_or_empty_scores() -> None:
    with pytest.raises(ValueError, match="decreasing"):
        elbow_index([1, 2])
    with pytest.raises(ValueError, match="at least one"):
        elbow_index([])


def test_rank_selects_down_to_the_elbow_and_keeps_ties_together() -> None:
    ranking = rank({"a": 10, "b": 4, "b2": 4, "c": 2, "d": 1, "e": 0.5})
    assert [d.id for d in ranking.documents] == ["a", "b", "b2", "c", "d", "e"]
    assert ranking.threshold == 4
    assert ranking.selected == ["a", "b", "b2"]


def test_notes_scoring_zero_are_never_selected() -> None:
    ranking = rank({"a": 3, "b": 0, "c": 0, "d": 0})
    assert ranking.selected == ["a"]
    assert rank({"a": 0.0, "b": 0.0}).selected == []
    assert rank({"a": 0.0, "b": 0.0}).threshold is None
    assert rank({}).to_json() == {"by": "seed", "threshold": None, "selected": 0, "documents": []}


def test_one_note_is_selected_when_it_scores() -> None:
    assert rank({"only": 0.7}).selected == ["only"]
    assert rank({"only": 0.7}).threshold == 0.7


def test_rank_refuses_negative_scores() -> None:
    with pytest.raises(ValueError, match="negative"):
        rank({"a": -1.0})


def test_the_plot_is_a_png(tmp_path: Path) -> None:
    path = tmp_path / "curve.png"
    plot_ranking(rank({"a": 10, "b": 4, "c": 2, "d": 0}), path)
    assert path.read_bytes().startswith(b"\x89PNG")
    plot_ranking(rank({"a": 0}), tmp_path / "flat.png")  # nothing selected: still a plot
    assert (tmp_path / "flat.png").is_file()


class ToyDetector:
    """Finds "Juan" with the score a document's metadata gives."""

    name = "toy"

    def detect(self, document: Document) -> list[Span]:
        start = document.text.find("Juan")
        if start < 0:
            return []
        return [Span(start, start + 4, "NOMBRE_SUJETO_ASISTENCIA", score=document.metadata["score"], source="toy")]


def test_span_uncertainty_peaks_at_a_coin_toss() -> None:
    assert span_uncertainty(0.5) == 1
    assert span_uncertainty(1.0) == 0
    assert span_uncertainty(0.0) == 0
    assert span_uncertainty(0.75) == pytest.approx(0.5)


def test_uncertainty_ranks_doubtful_notes_first_and_does_not_favour_length() -> None:
    notes = [
        Document("sure", "Juan vino hoy.", metadata={"score": 0.99}),
        Document("doubtful", "Juan vino hoy.", metadata={"score": 0.55}),
        Document("nothing", "Vino hoy.", metadata={"score": 0.5}),
        Document("long", "Juan vino hoy. " + "Sin cambios. " * 30, metadata={"score": 0.55}),
        Document("empty", "", metadata={"score": 0.5}),
    ]
    scores = uncertainty_scores(ToyDetector(), notes)
    assert scores["doubtful"] > scores["long"] > scores["sure"] > scores["nothing"] == scores["empty"] == 0
    assert scores["doubtful"] == pytest.approx(0.9 / 4)  # one token of four, 1 - |2 * 0.55 - 1| = 0.9


def _write_note(directory: Path, name: str, text: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{name}.txt").write_text(text, encoding="utf-8")


def test_corpus_rank_by_uncertainty_writes_the_json_and_the_plot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from anonimed.corpus import uncertainty

    class CoinToss(ToyDetector):
        def detect(self, document: Document) -> list[Span]:
            start = document.text.find("Juan")
            return [] if start < 0 else [Span(start, start + 4, "NOMBRE_SUJETO_ASISTENCIA", score=0.5, source="toy")]

    monkeypatch.setattr(uncertainty, "load_uncertainty_detector", lambda model: CoinToss())
    pool = tmp_path / "pool"
    _write_note(pool, "a", "Juan vino.")
    _write_note(pool, "b", "Juan vino hoy a las diez.")
    _write_note(pool, "c", "Sin cambios.")
    out, png = tmp_path / "rank.json", tmp_path / "rank.png"
    code = main(
        ["corpus", "rank", "default", str(tmp_path), str(pool), "--by", "uncertainty", "--model", "toy"]
        + ["--json", str(out), "--plot", str(png)]
    )
    assert code == 0
    ranked = json.loads(out.read_text(encoding="utf-8"))
    assert set(ranked) >= {"threshold", "documents"}
    assert [d["id"] for d in ranked["documents"]] == ["a", "b", "c"]
    assert all(set(d) == {"id", "score", "selected"} for d in ranked["documents"])
    assert ranked["documents"][-1] == {"id": "c", "score": 0.0, "selected": False}
    scores = [d["score"] for d in ranked["documents"]]
    assert scores == sorted(scores, reverse=True)
    assert png.read_bytes().startswith(b"\x89PNG")
    assert capsys.readouterr().out.split() == [d["id"] for d in ranked["documents"] if d["selected"]]


def test_corpus_rank_by_uncertainty_needs_a_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_note(tmp_path / "pool", "a", "Juan vino.")
    assert main(["corpus", "rank", "default", str(tmp_path), str(tmp_path / "pool"), "--by", "uncertainty"]) == 2
    assert "--model" in capsys.readouterr().err


def test_corpus_rank_by_the_seed_score_of_the_shipped_rules(tmp_path: Path) -> None:
    pytest.importorskip("anonimed.rules")
    out = tmp_path / "rank.json"
    code = main(["corpus", "rank", "default", str(EXAMPLES), str(EXAMPLES), "--json", str(out)])
    assert code == 0
    ranked = json.loads(out.read_text(encoding="utf-8"))
    ids = sorted(path.stem for path in EXAMPLES.glob("*.txt"))
    assert sorted(d["id"] for d in ranked["documents"]) == ids
    scores = [d["score"] for d in ranked["documents"]]
    assert scores == sorted(scores, reverse=True)
    assert not any(d["selected"] and d["score"] == 0 for d in ranked["documents"])


def test_crf_marginals_give_a_doubt_per_token_in_0_1(meddocan: Path, tmp_path: Path) -> None:
    from anonimed.corpus.uncertainty import CrfMarginals
    from anonimed.detect.crf import CrfDetector, CrfSettings, train_crf
    from anonimed.detect.features import FeatureConfig, FeatureExtractor
    from anonimed.formats.brat import read_brat_dir
    from anonimed.text.tokenize import tokenize

    documents = read_brat_dir(meddocan / "train" / "brat")[:6]
    extractor = FeatureExtractor(FeatureConfig(hints=False))
    model_file = tmp_path / "tiny.crfsuite"
    train_crf(documents[:5], model_file, extractor, CrfSettings(max_iterations=20))
    marginals = CrfMarginals(CrfDetector(model_file, extractor, "BIO"), model_file)
    unseen = documents[5]
    doubts = marginals.token_uncertainties(unseen, tokenize(unseen.text))
    assert len(doubts) == len(tokenize(unseen.text))
    assert all(0 <= doubt <= 1 for doubt in doubts) and max(doubts) > 0
    assert marginals.detect(unseen) == CrfDetector(model_file, extractor, "BIO").detect(unseen)
    scores = uncertainty_scores(marginals, documents)
    assert scores[unseen.id] == pytest.approx(sum(doubts) / len(doubts))
    assert scores[unseen.id] > min(scores[d.id] for d in documents[:5])  # a note it learned from is clearer


def test_case_reports_are_labelled_once_by_the_stand_in_annotator(tmp_path: Path) -> None:
    from anonimed.corpus.simulate import CASE_REPORT_PREFIX, annotate_case_reports

    report = Document(CASE_REPORT_PREFIX + "cc1", "Mujer de 67 años que consulta por disnea.")
    cache = tmp_path / "labels"
    labelled = annotate_case_reports([report], "fast", cache)
    found = {(report.span_text(span), span.label) for span in labelled[0].spans}
    assert ("67 años", "EDAD_SUJETO_ASISTENCIA") in found
    assert labelled[0].id == report.id and labelled[0].text == report.text
    # A second simulation reads the labels back instead of running the model again.
    (cache / "cc1.ann").write_text("T1\tSEXO_SUJETO_ASISTENCIA 0 5\tMujer\n", encoding="utf-8")
    again = annotate_case_reports([report], "fast", cache)
    assert [(s.start, s.end, s.label) for s in again[0].spans] == [(0, 5, "SEXO_SUJETO_ASISTENCIA")]
    assert annotate_case_reports([report], None, cache)[0].spans == []
