"""The weighted vote (hand-computed cases), its validation, and ensemble folders: tune → write → load → detect."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from anonimed.detect.crf import CrfSettings
from anonimed.detect.ensemble import EnsembleDetector, Vote, VoteTuner, member_tags, token_scores, vote_tags
from anonimed.detect.features import FeatureConfig
from anonimed.detect.propagate import Propagator
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir, write_brat
from anonimed.formats.errors import FormatError
from anonimed.models import load_detector
from anonimed.text.tokenize import tokenize
from anonimed.train import TrainOptions, refit_ensemble_model, train_ensemble_model, train_model

TEXT = "Nombre: Juan Pérez García. Vive en Madrid."
NAME = "NOMBRE_SUJETO_ASISTENCIA"


def _voted(answers: dict[str, list[Span]], vote: Vote) -> list[tuple[str, str]]:
    tokens = tokenize(TEXT)
    members = {name: (member_tags(tokens, spans), token_scores(tokens, spans)) for name, spans in answers.items()}
    return [(TEXT[s.start : s.end], s.label) for s in vote_tags(tokens, members, vote, "ensemble")]


ANSWERS = {
    "a": [Span(8, 25, NAME, 0.9), Span(35, 41, "TERRITORIO", 0.4)],  # Juan Pérez García, Madrid
    "b": [Span(8, 18, NAME, 0.9)],  # Juan Pérez
    "c": [Span(13, 25, NAME, 0.9)],  # Pérez García: a second entity start at Pérez, outvoted by a and b
}


def test_majority_vote_keeps_what_most_members_say_and_joins_their_extents() -> None:
    assert _voted(ANSWERS, Vote({"a": 1, "b": 1, "c": 1}, 0.5)) == [("Juan Pérez García", NAME)]


def test_a_lower_threshold_lets_a_single_member_through() -> None:
    voted = _voted(ANSWERS, Vote({"a": 1, "b": 1, "c": 1}, 0.3))
    assert ("Madrid", "TERRITORIO") in voted


def test_weights_decide_and_a_member_without_weight_has_no_say() -> None:
    assert _voted(ANSWERS, Vote({"a": 3, "b": 1, "c": 1}, 0.5)) == [
        ("Juan Pérez García", NAME),
        ("Madrid", "TERRITORIO"),
    ]
    assert _voted(ANSWERS, Vote({"a": 0, "b": 1, "c": 0}, 0.5)) == [("Juan Pérez", NAME)]


def test_a_label_can_need_more_votes_than_the_others() -> None:
    vote = Vote({"a": 3, "b": 1, "c": 1}, 0.5, label_thresholds={"TERRITORIO": 0.9})
    assert _voted(ANSWERS, vote) == [("Juan Pérez García", NAME)]


def test_soft_votes_weigh_each_span_by_its_score() -> None:
    # Madrid: a's weight 3 x score 0.4 = 1.2 of 5 → 0.24 share: under 0.5 with soft votes, 0.6 with hard ones.
    assert ("Madrid", "TERRITORIO") not in _voted(ANSWERS, Vote({"a": 3, "b": 1, "c": 1}, 0.5, soft=True))


def test_a_pooled_vote_keeps_a_name_its_members_give_different_types_as_one_span_of_the_heavier_type() -> None:
    staff = "NOMBRE_PERSONAL_SANITARIO"
    answers = {"a": [Span(8, 25, NAME, 0.6)], "b": [Span(8, 18, staff, 0.9)], "c": []}
    vote = Vote({"a": 1, "b": 0.5, "c": 1}, 0.3, soft=True)
    # Alone, neither type reaches 0.3 of the weight (0.6 / 2.5, 0.45 / 2.5): the name is lost.
    assert _voted(answers, vote) == []
    # Pooled, the names share their votes where both found it; the entity takes the type with most weight over it.
    assert _voted(answers, replace(vote, pool="groups")) == [("Juan Pérez", NAME)]
    assert _voted(answers, replace(vote, pool="names")) == [("Juan Pérez", NAME)]
    with pytest.raises(ValueError, match="pool"):
        Vote({"a": 1}, pool="everything")


def test_members_that_split_an_entity_where_the_others_do_not_are_outvoted() -> None:
    answers = {"a": [Span(8, 25, NAME)], "b": [Span(8, 12, NAME), Span(13, 25, NAME)], "c": [Span(8, 25, NAME)]}
    assert _voted(answers, Vote({"a": 1, "b": 1, "c": 1}, 0.5)) == [("Juan Pérez García", NAME)]
    assert _voted(answers, Vote({"a": 1, "b": 3, "c": 1}, 0.5)) == [("Juan", NAME), ("Pérez García", NAME)]


@pytest.mark.parametrize(
    "weights, threshold, message",
    [({}, 0.5, "weights"), ({"a": -1}, 0.5, "weights"), ({"a": 0}, 0.5, "weights"), ({"a": 1}, 0.0, "threshold")],
)
def test_bad_votes_are_refused(weights: dict, threshold: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Vote(weights, threshold)


class _Fixed:
    def __init__(self, name: str, spans: list[Span]) -> None:
        self.name, self.spans = name, spans

    def detect(self, document: Document) -> list[Span]:
        return list(self.spans)


def test_the_ensemble_is_a_detector_over_its_members() -> None:
    members = [_Fixed(name, spans) for name, spans in ANSWERS.items()]
    ensemble = EnsembleDetector(members, Vote({"a": 1, "b": 1, "c": 1}, 0.5))
    spans = ensemble.detect(Document("note", TEXT))
    assert [(TEXT[s.start : s.end], s.source) for s in spans] == [("Juan Pérez García", "ensemble")]
    assert 0.0 < spans[0].score <= 1.0
    with pytest.raises(ValueError, match="unknown member"):
        EnsembleDetector(members, Vote({"z": 1}))
    with pytest.raises(ValueError, match="distinct names"):
        EnsembleDetector([members[0], members[0]], Vote({"a": 1}))


class _BySentence(_Fixed):
    """A member that reads sentence by sentence: ``asked`` records the spans it was asked around."""

    def __init__(self, name: str, spans: list[Span]) -> None:
        super().__init__(name, spans)
        self.asked: list[list[Span]] = []

    def detect_around(self, document: Document, spans: Sequence[Span]) -> list[Span]:
        self.asked.append(list(spans))
        # The sentences of TEXT: "Nombre: Juan Pérez García." (0-26) and "Vive en Madrid." (27-42).
        sentences = [(0, 26), (27, len(TEXT))]
        kept = [(a, b) for a, b in sentences if any(s.start < b and s.end > a for s in spans)]
        return [s for s in self.spans if any(a <= s.start and s.end <= b for a, b in kept)]


def test_members_that_cannot_outvote_the_others_alone_read_only_around_what_they_found() -> None:
    members = [_Fixed("a", [Span(8, 25, NAME, 0.9)]), _BySentence("b", [Span(8, 18, NAME), Span(35, 41, "PAIS")])]
    # b's share is 1/4: under every threshold, so b alone can make nothing PHI (Madrid is voted out either way).
    vote = Vote({"a": 3, "b": 1}, 0.3, label_thresholds={"PAIS": 0.5}, soft=True)
    ensemble = EnsembleDetector(members, vote)
    assert ensemble.deferred == frozenset({"b"})
    spans = ensemble.detect(Document("note", TEXT))
    assert members[1].asked == [[Span(8, 25, NAME, 0.9)]]
    tokens = tokenize(TEXT)
    everything = {m.name: (member_tags(tokens, m.spans), token_scores(tokens, m.spans)) for m in members}
    assert [(s.start, s.end, s.label) for s in spans] == [
        (s.start, s.end, s.label) for s in vote_tags(tokens, everything, vote, "ensemble")
    ]
    # A threshold b could reach alone, or no other member to go first: b reads the whole note.
    assert EnsembleDetector(members, Vote({"a": 3, "b": 1}, 0.3, label_thresholds={"PAIS": 0.2})).deferred == set()
    assert EnsembleDetector(members, Vote({"a": 1, "b": 1}, 0.3)).deferred == set()
    assert EnsembleDetector(members[1:], Vote({"b": 1}, 0.3)).deferred == set()


def test_a_vote_may_defer_a_member_that_could_outvote_the_others_and_the_tuner_scores_it_so() -> None:
    members = [_Fixed("a", [Span(8, 25, NAME, 0.9)]), _BySentence("b", [Span(8, 18, NAME), Span(35, 41, "PAIS")])]
    vote = Vote({"a": 1, "b": 1}, 0.3, soft=True, deferred=("b",))
    assert Vote.from_dict(vote.to_dict()) == vote and vote.to_dict()["deferred"] == ["b"]
    assert "deferred" not in Vote({"a": 1}).to_dict()  # folders written before the field read the same
    ensemble = EnsembleDetector(members, vote)
    assert ensemble.deferred == frozenset({"b"})
    spans = ensemble.detect(Document("note", TEXT))
    # b alone would make Madrid PHI (its share 1/2); deferred, it is not asked about that sentence.
    assert [TEXT[s.start : s.end] for s in spans] == ["Juan Pérez García"]
    assert members[1].asked == [[Span(8, 25, NAME, 0.9)]]
    tuner = VoteTuner([Document("note", TEXT)], {m.name: {"note": m.spans} for m in members})
    assert tuner.predictions(vote)["note"] == spans
    assert len(tuner.predictions(replace(vote, deferred=()))["note"]) == 2
    with pytest.raises(ValueError, match="without a weight"):
        Vote({"a": 1}, deferred=("b",))
    with pytest.raises(ValueError, match="every member"):
        Vote({"a": 1, "b": 1}, deferred=("a", "b"))
    with pytest.raises(ValueError, match="sentence by sentence"):
        EnsembleDetector(members, Vote({"a": 1, "b": 1}, deferred=("a",)))


def test_the_default_model_s_styles_vote_asks_its_networks_only_around_the_others_spans() -> None:
    from anonimed.models import DEFAULT_MODEL_DIR, load_member, shared_pattern_detector
    from anonimed.models.ensemble import load_ensemble

    patterns = shared_pattern_detector()
    deferred = {}
    for vote in ("balanced", "recall", "styles"):
        loaded = load_ensemble(
            DEFAULT_MODEL_DIR, lambda folder, name: load_member(folder, name, patterns), patterns, vote
        )
        deferred[vote] = getattr(loaded, "detector", loaded).deferred  # under its Propagator
    # balanced defers its second network by choice (measured on folds of the styles set), styles both exactly.
    assert deferred == {"balanced": {"neural2"}, "recall": set(), "styles": {"neural", "neural2"}}
    styles = load_detector("default", vote="styles")
    document = Document("note", "Paciente: Juan Pérez García, 45 años. Vive en Zaragoza.\nRefiere dolor torácico.")
    found = [document.text[s.start : s.end] for s in styles.detect(document)]
    assert "Juan Pérez García" in found and "Zaragoza" in found and "dolor" not in " ".join(found)


def test_the_default_neural_member_reads_around_spans_as_it_reads_the_whole_note(meddocan: Path) -> None:
    from anonimed.detect.neural import load_neural
    from anonimed.models import DEFAULT_MODEL_DIR

    neural = load_neural(DEFAULT_MODEL_DIR / "neural")
    for document in read_brat_dir(meddocan / "dev" / "brat")[:20]:
        around = document.spans[::3]  # the sentences of some of the note's PHI
        whole = neural.detect(document)
        assert around, document.id
        expected = [s for s in whole if any(_same_sentence(document.text, s, a) for a in around)]
        assert neural.detect_around(document, around) == expected, document.id
        assert neural.detect_around(document, []) == []


def _same_sentence(text: str, span: Span, other: Span) -> bool:
    from anonimed.text.sentences import split_sentences

    return any(
        a <= span.start and span.end <= b and other.start < b and other.end > a for a, b in split_sentences(text)
    )


def test_train_ensemble_writes_a_folder_that_loads_with_either_vote(meddocan: Path, tmp_path: Path) -> None:
    train_dir, dev_dir = tmp_path / "train" / "brat", tmp_path / "dev" / "brat"
    documents = read_brat_dir(meddocan / "train" / "brat")[:12]
    for document in documents[:9]:
        write_brat(document, train_dir)
    for document in documents[9:]:
        write_brat(document, dev_dir)
    options = TrainOptions(features=FeatureConfig(word_frequency=False), crf=CrfSettings(max_iterations=30))
    train_model([train_dir], tmp_path / "crf", None, options)
    result = train_ensemble_model(
        {"crf": tmp_path / "crf", "patterns": None},
        tmp_path / "ensemble",
        dev_dir,
        (0.0, 1.0),
        (0.3, 0.6),
        stress_sets=("upper",),
    )
    manifest = json.loads((tmp_path / "ensemble" / "model.json").read_text())
    assert manifest["kind"] == "ensemble" and set(manifest["votes"]) == {"balanced", "recall"}
    assert manifest["training"]["votes_tried"] == 2 * 2 * 2 and manifest["training"]["stress_sets"] == ["upper"]
    assert set(manifest["tuning_scores"]) == {"balanced", "recall"}, "scores on dev + stress sets, apart from dev alone"
    assert (tmp_path / "ensemble" / "crf" / "model.crfsuite").is_file()
    assert result["recall"]["subtask2_merged"]["recall"] >= result["balanced"]["subtask2_merged"]["recall"]
    assert manifest["propagate"] is True
    # ComposedText → propagation after the checks → PlausibleSpans → the vote's chain
    loaded = load_detector(str(tmp_path / "ensemble")).detector.detector
    assert isinstance(loaded.detector, Propagator), "other mentions are added"
    note = Document("x", documents[10].text)
    for vote in (None, "balanced", "recall"):
        spans = load_detector(str(tmp_path / "ensemble"), vote=vote).detect(note)
        assert spans and all(0 <= s.start < s.end <= len(note.text) for s in spans)
    with pytest.raises(FormatError, match="no vote setting 'loud'"):
        load_detector(str(tmp_path / "ensemble"), vote="loud")
    with pytest.raises(ValueError, match="no vote settings"):
        load_detector(str(tmp_path / "crf"), vote="recall")


def test_an_ensemble_refit_on_new_members_votes_as_the_tuned_one(meddocan: Path, tmp_path: Path) -> None:
    from anonimed.cli import main

    documents = read_brat_dir(meddocan / "train" / "brat")[:8]
    for document in documents[:6]:
        write_brat(document, tmp_path / "train")
    for document in documents[6:]:
        write_brat(document, tmp_path / "dev")
    options = TrainOptions(features=FeatureConfig(word_frequency=False), crf=CrfSettings(max_iterations=20))
    train_model([tmp_path / "train"], tmp_path / "crf", None, options)
    train_ensemble_model(
        {"crf": tmp_path / "crf", "patterns": None}, tmp_path / "tuned", tmp_path / "dev", (0.5,), (0.3,)
    )
    train_model([tmp_path / "train", tmp_path / "dev"], tmp_path / "crf-all", None, options)
    members = ["--members", f"crf={tmp_path / 'crf-all'}", "patterns"]
    assert (
        main(
            [
                "train",
                "--model",
                "ensemble",
                *members,
                "--votes-from",
                str(tmp_path / "tuned"),
                "--out",
                str(tmp_path / "refit"),
            ]
        )
        == 0
    )
    tuned, refit = (json.loads((tmp_path / name / "model.json").read_text()) for name in ("tuned", "refit"))
    assert refit["votes"] == tuned["votes"] and refit["propagate"] == tuned["propagate"]
    assert refit["tuned_model"]["dev_scores"] == tuned["dev_scores"] and "dev_scores" not in refit
    assert json.loads((tmp_path / "refit" / "crf" / "model.json").read_text())["training"]["documents"] == 8
    spans = load_detector(str(tmp_path / "refit"), vote="recall").detect(Document("x", documents[7].text))
    assert spans and all(0 <= s.start < s.end <= len(documents[7].text) for s in spans)
    chosen = {"balanced": {"weights": {"crf": 1.0, "patterns": 0.25}, "threshold": 0.3, "soft": True}}
    (tmp_path / "votes.json").write_text(json.dumps(chosen))
    assert main(["train", "--model", "ensemble", *members, "--votes-from", str(tmp_path / "tuned"), "--votes",
                 str(tmp_path / "votes.json"), "--out", str(tmp_path / "chosen")]) == 0  # fmt: skip
    chosen_manifest = json.loads((tmp_path / "chosen" / "model.json").read_text())
    assert chosen_manifest["votes"]["balanced"]["threshold"] == 0.3
    assert chosen_manifest["votes"]["recall"] == tuned["votes"]["recall"]
    assert chosen_manifest["training"]["votes_file"].endswith("votes.json")
    # An entry without weights changes only what it names of the tuned vote (the rest is not copied by hand).
    (tmp_path / "deferred.json").write_text(json.dumps({"recall": {"threshold": 0.15}}))
    partial = refit_ensemble_model(
        {"crf": tmp_path / "crf-all", "patterns": None},
        tmp_path / "partial",
        tmp_path / "tuned",
        tmp_path / "deferred.json",
    )
    assert partial["recall"] == {**tuned["votes"]["recall"], "threshold": 0.15}
    assert partial["balanced"] == tuned["votes"]["balanced"]
    for bad, message in [("[]", "JSON object"), ('{"balanced": {"weights": {"neural": 1}}}', "not a member"),
                         ('{"balanced": {"weights": {"crf": 1}, "threshold": 2}}', "threshold"), ("{", "cannot read")]:  # fmt: skip
        (tmp_path / "bad.json").write_text(bad)
        with pytest.raises(FormatError, match=message):
            refit_ensemble_model(
                {"crf": tmp_path / "crf-all", "patterns": None},
                tmp_path / "x",
                tmp_path / "tuned",
                tmp_path / "bad.json",
            )
    with pytest.raises(FormatError, match="not for crf, neural"):
        refit_ensemble_model(
            {"crf": tmp_path / "crf-all", "neural": tmp_path / "crf"}, tmp_path / "x", tmp_path / "tuned"
        )
    with pytest.raises(FormatError, match="not an ensemble"):
        refit_ensemble_model({"crf": tmp_path / "crf-all"}, tmp_path / "x", tmp_path / "crf")
    assert not (tmp_path / "x").exists()
