"""The rule engine: language, matching with exact offsets, gazetteers, evaluation, the acceptance test, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonimed.cli import main
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir, write_brat
from anonimed.rules import RuleError, RuleSet, WithRules, evaluate_rules, judge_candidate, load_rules, with_rules
from anonimed.rules.language import TokenCondition, parse_rules
from anonimed.rules.matcher import CompiledRule, ConditionMemo, TokenIndex, find_matches, holds, token_views

STYLES = Path(__file__).resolve().parents[1] / "benchmarks" / "styles"


def rules_from(tmp_path: Path, text: str, name: str = "rules.yaml") -> RuleSet:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_rules(path)


def found(rules: RuleSet, text: str) -> list[tuple[str, str]]:
    document = Document("n", text)
    spans = rules.detect(document)
    for span in spans:  # offsets point at the exact characters
        assert document.text[span.start : span.end] == document.span_text(span)
    return [(span.label, document.span_text(span)) for span in spans]


TITLE_RULE = """
gazetteers:
  titles: {words: [dr, dra, doctora]}
rules:
  - name: doctor
    label: NOMBRE_PERSONAL_SANITARIO
    pattern:
      - {in: titles}
      - {text: ".", glued: true, optional: true}
      - {shape: title, phi: true, repeat: [1, 3]}
"""


def test_phi_part_optional_element_and_repetition(tmp_path: Path) -> None:
    rules = rules_from(tmp_path, TITLE_RULE)
    text = "Remitido por la Dra. Fernández López a urgencias; visto por doctora Ruiz."
    assert found(rules, text) == [
        ("NOMBRE_PERSONAL_SANITARIO", "Fernández López"),
        ("NOMBRE_PERSONAL_SANITARIO", "Ruiz"),
    ]
    spans = rules.detect(Document("n", text))
    assert (spans[0].start, spans[0].end) == (21, 36)
    assert spans[0].source == "rules" and spans[0].score == pytest.approx(0.9)


def test_a_match_does_not_cross_a_line_break_unless_the_rule_says_so(tmp_path: Path) -> None:
    rules = rules_from(tmp_path, TITLE_RULE)
    assert found(rules, "Dra. Pons\nServicio de Urgencias") == [("NOMBRE_PERSONAL_SANITARIO", "Pons")]
    crossing = rules_from(
        tmp_path,
        """
rules:
  - name: key
    label: ID_SUJETO_ASISTENCIA
    cross_lines: true
    pattern:
      - {lower: nhc}
      - {text: ":", optional: true}
      - {shape: digits, phi: true}
""",
        "crossing.yaml",
    )
    assert found(crossing, "NHC:\n771204\n") == [("ID_SUJETO_ASISTENCIA", "771204")]


def test_partial_consumption_of_a_token_and_catalan_articles(tmp_path: Path) -> None:
    rules = rules_from(
        tmp_path,
        """
gazetteers:
  names: {words: [anna, josep]}
rules:
  - name: glued-article
    label: NOMBRE_SUJETO_ASISTENCIA
    pattern:
      - {regex: "[dl](?P<phi>[a-z]+)", phi: true, fold: [danna, lanna]}
  - name: article
    label: NOMBRE_SUJETO_ASISTENCIA
    pattern:
      - any:
          - [{lower: [l, d]}, {text: ["'", "’"], glued: true}]
          - [{lower: d}, {text: "'", glued: true}, {lower: en, glued: true}]
      - {in: names, shape: title, phi: true}
""",
    )
    text = "La filla l'Anna i la casa d'en Josep; escrit danna."
    assert found(rules, text) == [
        ("NOMBRE_SUJETO_ASISTENCIA", "Anna"),
        ("NOMBRE_SUJETO_ASISTENCIA", "Josep"),
        ("NOMBRE_SUJETO_ASISTENCIA", "anna"),
    ]


def test_the_towns_gazetteer_knows_towns_not_generic_words() -> None:
    from anonimed.rules.gazetteers import towns

    known = towns()
    assert {"calatayud", "sabadell", "getafe", "mataro", "olot", "benidorm"} <= known
    assert not {"san", "sant", "la", "de", "real", "nueva", "urgencias", "hospital"} & known


def test_a_town_in_lower_case_is_one_whose_name_is_no_common_word() -> None:
    from anonimed.rules.gazetteers import uncommon_towns

    assert {"getafe", "lleida", "mataro"} <= uncommon_towns()
    assert not {"onda", "cabo", "tres", "palmas"} & uncommon_towns()
    rules = load_rules("default")
    text = "temporero en finca de lleida.no habla castellano. ritmo sinusal con onda t negativa. natural de senegal."
    assert found(rules, text) == [("PROFESION", "temporero"), ("TERRITORIO", "lleida"), ("PAIS", "senegal")]


def test_the_shipped_rules_find_a_known_town_after_a_preposition_only() -> None:
    rules = load_rules("default")
    text = "Vive con su marido en Calatayud. Nació en Santiago de Compostela. Síndrome de Tolosa-Hunt. Ingresa en UCI."
    assert ("TERRITORIO", "Calatayud") in found(rules, text)
    assert all(value not in {"Compostela", "Tolosa", "UCI"} for _, value in found(rules, text))


def test_gazetteers_from_a_file_a_csv_column_and_builtin(tmp_path: Path) -> None:
    (tmp_path / "towns.txt").write_text("# towns\nSant Boi\nTàrrega\n", encoding="utf-8")
    (tmp_path / "centres.csv").write_text("name,kind\nDelicias,cs\n", encoding="utf-8")
    rules = rules_from(
        tmp_path,
        """
gazetteers:
  towns: {file: towns.txt}
  centres: {file: centres.csv, column: name}
rules:
  - name: town
    label: TERRITORIO
    pattern:
      - {in: towns, shape: title, repeat: [1, 2]}
  - name: centre
    label: CENTRO_SALUD
    pattern:
      - {text: CS}
      - {in: centres}
  - name: given
    label: NOMBRE_SUJETO_ASISTENCIA
    pattern:
      - {lower: paciente}
      - {in: given_names, shape: title, phi: true}
""",
    )
    text = "Vive en Tarrega. CS Delicias. Paciente Carmen."
    assert found(rules, text) == [
        ("TERRITORIO", "Tarrega"),
        ("CENTRO_SALUD", "CS Delicias"),
        ("NOMBRE_SUJETO_ASISTENCIA", "Carmen"),
    ]


def test_overlapping_matches_the_longer_wins(tmp_path: Path) -> None:
    rules = rules_from(
        tmp_path,
        """
rules:
  - name: short
    label: TERRITORIO
    pattern: [{text: Sant}]
  - name: long
    label: HOSPITAL
    pattern: [{text: Hospital}, {text: de}, {text: Sant}, {text: Pau}]
""",
    )
    assert found(rules, "Hospital de Sant Pau") == [("HOSPITAL", "Hospital de Sant Pau")]


def test_a_list_is_found_item_by_item_and_no_piece_of_a_match_twice(tmp_path: Path) -> None:
    rules = rules_from(
        tmp_path,
        """
rules:
  - name: after-another
    label: FECHAS
    pattern: [{fold: [lun, mie, vie]}, {text: [",", "y"]}, {fold: [lun, mie, vie], phi: true}]
  - name: two-words
    label: FAMILIARES_SUJETO_ASISTENCIA
    pattern: [{text: [Dos, dos], optional: true, phi: true}, {fold: hermanas, phi: true}]
""",
    )
    # The mié that ends lun, mié starts mié y vie: the context of one match may open the next.
    assert found(rules, "sad lun, mié y vie por la mañana") == [("FECHAS", "mié"), ("FECHAS", "vie")]
    # Hermanas alone, inside Dos Hermanas, is no second match.
    assert found(rules, "sus dos hermanas") == [("FAMILIARES_SUJETO_ASISTENCIA", "dos hermanas")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("rules: [{name: a, label: NOPE, pattern: [{text: x}]}]", "unknown label 'NOPE'"),
        ("rules: [{name: a, label: FECHAS, pattern: [{txt: x}]}]", "unknown element key 'txt'"),
        ("rules: [{name: a, label: FECHAS, pattern: [{text: x, optional: true}]}]", "every element of the pattern"),
        ("rules: [{name: a, label: FECHAS, pattern: [{regex: '('}]}]", "invalid regex"),
        ("rules: [{name: a, label: FECHAS, pattern: [{in: nowhere}]}]", "gazetteer 'nowhere'"),
        ("rules: [{name: a, label: FECHAS, pattern: [{shape: round}]}]", "unknown shape 'round'"),
        ("rules: [{name: a, label: FECHAS, pattern: [{pos: NOUN}]}]", "needs a tagger"),
        ("rules: {name: a}", "'rules' must be a list"),
        ("rules: [a: [b", "not valid YAML"),
        ("- 1\n- 2", "a rule file is a mapping"),
    ],
)
def test_bad_rule_files_get_a_clear_error_naming_the_file(tmp_path: Path, content: str, message: str) -> None:
    with pytest.raises(RuleError, match=r"bad\.yaml") as error:
        rules_from(tmp_path, content, "bad.yaml")
    assert message in str(error.value)


def test_duplicate_rule_names_and_missing_sources_are_errors(tmp_path: Path) -> None:
    twice = (
        "rules:\n  - {name: a, label: FECHAS, pattern: [{text: x}]}\n  - {name: a, label: FECHAS, pattern: [{text: y}]}"
    )
    with pytest.raises(RuleError, match="two rules are named 'a'"):
        rules_from(tmp_path, twice)
    with pytest.raises(RuleError, match="no such rule file"):
        load_rules(tmp_path / "missing.yaml")
    (tmp_path / "empty").mkdir()
    with pytest.raises(RuleError, match="holds no rule file"):
        load_rules(tmp_path / "empty")


def test_a_tagger_feeds_lemma_and_pos_conditions() -> None:
    class UpperIsNoun:
        def tag(self, text, tokens):  # type: ignore[no-untyped-def]
            return [(t.text.lower(), "PROPN" if t.text[0].isupper() else "X") for t in tokens]

    [rule] = parse_rules(
        [{"name": "n", "label": "TERRITORIO", "pattern": [{"lower": "en"}, {"pos": "propn", "phi": True}]}], "x"
    )
    rules = RuleSet([rule], tagger=UpperIsNoun())
    assert found(rules, "vive en Olot y en casa") == [("TERRITORIO", "Olot")]


def test_evaluation_strict_and_overlap_on_a_hand_computed_case(tmp_path: Path) -> None:
    rules = rules_from(tmp_path, TITLE_RULE)
    text = "Dra. Pons Ruiz y Dr. Vidal."
    gold = [Span(5, 14, "NOMBRE_PERSONAL_SANITARIO"), Span(21, 26, "NOMBRE_PERSONAL_SANITARIO"), Span(0, 3, "FECHAS")]
    # The rule finds "Pons Ruiz" (exact) and "Vidal" (exact); the FECHAS span is missed.
    report = evaluate_rules(rules, [Document("n", text, gold)])
    figures = report.to_json()
    assert figures["all"]["precision"] == 1.0
    assert figures["all"]["recall"] == pytest.approx(2 / 3)
    assert figures["types"]["FECHAS"]["recall"] == 0.0
    assert figures["rules"]["doctor"]["f1"] == 1.0
    # Boundaries off by one word: strict counts it wrong, overlap right.
    shorter = [Span(5, 9, "NOMBRE_PERSONAL_SANITARIO")]
    report = evaluate_rules(rules, [Document("n", text[:15], shorter)])
    figures = report.to_json()
    assert figures["all"]["f1"] == 0.0 and figures["all"]["overlap"]["f1"] == 1.0
    assert figures["rules"]["doctor"]["wrong_matches"][0]["why"].startswith("bounds")


def test_the_acceptance_test_keeps_discards_or_asks_to_refine(tmp_path: Path) -> None:
    base = rules_from(tmp_path, TITLE_RULE)
    doctor = "NOMBRE_PERSONAL_SANITARIO"
    train = [Document("a", "Dra. Pons vive en Olot.", [Span(5, 9, doctor), Span(18, 22, "TERRITORIO")])]
    validation = [
        Document(
            "b",
            "Dr. Vidal, de Vic. Servicio de Urgencias, Planta Baja.",
            [Span(4, 9, doctor), Span(14, 17, "TERRITORIO")],
        )
    ]

    def candidate(pattern: list) -> list:
        return parse_rules([{"name": "candidate", "label": "TERRITORIO", "pattern": pattern}], "candidate.yaml")

    town = candidate([{"lower": ["en", "de"]}, {"shape": "title", "phi": True}])
    assert judge_candidate(base, town, train, validation).decision == "keep"
    # Every capitalised word: recall rises, but precision falls on validation (F1 too).
    capitals = judge_candidate(base, candidate([{"shape": "title"}]), train, validation)
    assert capitals.decision == "refine"
    assert capitals.after["validation"]["precision"] < capitals.before["validation"]["precision"]
    # A longer span that swallows the doctor's name: validation recall falls.
    swallow = candidate([{"lower": ["dr", "dra"]}, {"text": "."}, {"shape": "title"}])
    judgement = judge_candidate(base, swallow, train, validation)
    assert judgement.decision == "discard"
    assert judgement.after["validation"]["recall"] < judgement.before["validation"]["recall"]


class Fixed:
    name = "model"

    def __init__(self, spans: list[Span]) -> None:
        self.spans = spans

    def detect(self, document: Document) -> list[Span]:
        return list(self.spans)


def test_rules_added_to_a_model_fill_gaps_extend_or_win_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(TITLE_RULE, encoding="utf-8")
    document = Document("n", "Dra. Pons Ruiz y Dr. Vidal Soler.")
    # The model found part of the first name, and more than the rule of the second.
    model = Fixed([Span(5, 9, "NOMBRE_SUJETO_ASISTENCIA", 0.8, "model"), Span(17, 32, "NOMBRE_SUJETO_ASISTENCIA")])
    added = with_rules(model, path).detect(document)
    assert [(s.start, s.end, s.label) for s in added] == [
        (5, 14, "NOMBRE_PERSONAL_SANITARIO"),  # the rule's span holds the model's: it replaces it
        (17, 32, "NOMBRE_SUJETO_ASISTENCIA"),  # the model's reaches beyond the rule's: it stays
    ]
    only_model = Fixed([Span(0, 3, "NOMBRE_SUJETO_ASISTENCIA")])
    assert [(s.start, s.end) for s in with_rules(only_model, path).detect(document)] == [(0, 3), (5, 14), (21, 32)]
    winning = with_rules(model, path, prefer="rules").detect(document)
    assert [(s.start, s.end, s.source) for s in winning] == [(5, 14, "rules"), (21, 32, "rules")]


def test_a_rule_completes_a_centre_the_model_cut_short_with_words_of_its_name() -> None:
    class Centres:
        name = "rules"

        def detect(self, document: Document) -> list[Span]:
            return [Span(0, 37, "HOSPITAL"), Span(38, 69, "INSTITUCION")]

    document = Document("n", "Hospital de Tortosa Verge de la Cinta Universidad de Alcalá E-mail: x")
    model = Fixed([Span(0, 19, "HOSPITAL"), Span(38, 59, "INSTITUCION")])
    added = WithRules(model, Centres()).detect(document)
    # The rule's hospital goes on with its name's words and replaces the model's; the other ran into an e-mail key.
    assert [(s.start, s.end) for s in added] == [(0, 37), (38, 59)]


def test_a_rule_completes_a_centre_the_model_cut_in_pieces() -> None:
    class Centres:
        name = "rules"

        def detect(self, document: Document) -> list[Span]:
            return [Span(10, 38, "HOSPITAL")]

    text = "URGENCIAS H.U. Los Arcos del Mar Menor   28/05/2025"
    document = Document("n", text)
    # The model's pieces, parted by a full stop and a space, are one centre that the rule's name goes on from.
    model = Fixed([Span(10, 13, "HOSPITAL"), Span(15, 32, "HOSPITAL")])
    added = WithRules(model, Centres()).detect(document)
    assert [text[s.start : s.end] for s in added] == ["H.U. Los Arcos del Mar Menor"]


def test_a_rule_takes_a_centre_whose_town_the_model_took_alone() -> None:
    class Centres:
        name = "rules"

        def detect(self, document: Document) -> list[Span]:
            return [Span(4, 41, "INSTITUCION"), Span(43, 73, "INSTITUCION")]

    text = "sad ayuntamiento de los llanos de aridane; fundación pepe garcía martínez"
    document = Document("n", text)
    # The town ends the council's name; a person's name that ends a foundation's is the model's call.
    model = Fixed([Span(20, 41, "TERRITORIO"), Span(53, 73, "NOMBRE_SUJETO_ASISTENCIA")])
    added = WithRules(model, Centres()).detect(document)
    assert [(text[s.start : s.end], s.label) for s in added] == [
        ("ayuntamiento de los llanos de aridane", "INSTITUCION"),
        ("pepe garcía martínez", "NOMBRE_SUJETO_ASISTENCIA"),
    ]


def test_a_rule_takes_an_institution_head_and_a_street_type_the_model_left_out() -> None:
    text = "Servicio de Salud de Castilla-La Mancha; en la Residencia Los Manzanos; (c/ de Bac de Roda)"

    class Found:
        name = "rules"

        def detect(self, document: Document) -> list[Span]:
            return [
                Span(0, 39, "INSTITUCION"),
                Span(text.index("Residencia"), text.index(";", 45), "INSTITUCION"),
                Span(text.index("c/"), len(text) - 1, "CALLE"),
            ]

    model = Fixed(
        [
            Span(text.index("Salud"), 39, "INSTITUCION"),
            Span(text.index("Los"), text.index(";", 45), "INSTITUCION"),
            Span(text.index("Bac"), len(text) - 1, "TERRITORIO"),
        ]
    )
    added = WithRules(model, Found()).detect(Document("n", text))
    # The guidelines leave a care home's head out: the model's span stays.
    assert [text[s.start : s.end] for s in added] == [
        "Servicio de Salud de Castilla-La Mancha",
        "Los Manzanos",
        "c/ de Bac de Roda",
    ]


def test_the_shipped_rules_pass_their_own_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "check", "default"]) == 0
    assert "examples as expected" in capsys.readouterr().out


def test_rules_check_reports_a_failing_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(
        "rules:\n  - name: d\n    label: FECHAS\n    examples: ['el [lunes] y [martes]']\n    pattern: [{text: lunes}]\n",
        encoding="utf-8",
    )
    assert main(["rules", "check", str(path)]) == 1
    assert "expected ['lunes', 'martes'], found ['lunes']" in capsys.readouterr().err


def test_rules_apply_eval_and_judge_commands(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    gold = [
        Document("a", "Remitida por la Dra. Pons Ruiz.\n", [Span(21, 30, "NOMBRE_PERSONAL_SANITARIO")]),
        Document(
            "b",
            "Vive en Olot con su hija.\n",
            [Span(8, 12, "TERRITORIO"), Span(20, 24, "FAMILIARES_SUJETO_ASISTENCIA")],
        ),
    ]
    for document in gold:
        write_brat(document, notes)
    out = tmp_path / "out"
    assert main(["rules", "apply", "default", str(notes), str(out)]) == 0
    annotated = {d.id: d for d in read_brat_dir(out)}
    assert [annotated["a"].span_text(s) for s in annotated["a"].spans] == ["Pons Ruiz"]
    assert (out / "b.txt").read_text(encoding="utf-8") == gold[1].text

    figures_file = tmp_path / "eval.json"
    assert main(["rules", "eval", "default", str(notes), "--json", str(figures_file)]) == 0
    figures = json.loads(figures_file.read_text(encoding="utf-8"))
    for part in (figures["all"], *figures["types"].values()):
        assert {"precision", "recall", "f1", "overlap"} <= part.keys()
        assert {"precision", "recall", "f1"} <= part["overlap"].keys()
    assert figures["all"]["recall"] == 1.0

    candidate = tmp_path / "candidate.yaml"
    candidate.write_text(
        "rules:\n  - name: any-capital\n    label: TERRITORIO\n    pattern: [{shape: title, in: name_stops}]\n",
        encoding="utf-8",
    )
    judged = tmp_path / "judged.json"
    code = main(
        ["rules", "judge", str(candidate), "--train", str(notes), "--validation", str(notes), "--json", str(judged)]
    )
    assert code == 0
    assert json.loads(judged.read_text(encoding="utf-8"))["decision"] in ("discard", "refine")


def test_predict_with_rules_adds_their_spans(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "n.txt").write_text("Visto por la Dra. Pons Ruiz.\n", encoding="utf-8")
    rules = tmp_path / "r.yaml"
    rules.write_text("rules:\n  - name: pons\n    label: HOSPITAL\n    pattern: [{text: Visto}]\n", encoding="utf-8")
    assert main(["predict", str(notes), str(tmp_path / "out"), "--rules", str(rules)]) == 0
    [document] = read_brat_dir(tmp_path / "out")
    assert ("HOSPITAL", "Visto") in [(s.label, document.span_text(s)) for s in document.spans]
    assert main(["predict", str(notes), str(tmp_path / "out2"), "--rules-win"]) != 0  # --rules-win needs --rules


@pytest.mark.skipif(not STYLES.is_dir(), reason="the styles set is not built")
def test_the_shipped_rules_alone_cover_the_styles_set() -> None:
    """A regression guard (the target and its measurement are in BENCHMARKS.md): character figures of the shipped
    rules on the styles development set, type ignored."""
    report = evaluate_rules(load_rules("default"), read_brat_dir(STYLES))
    assert report.characters.recall >= 0.75
    assert report.characters.precision >= 0.90


def test_matching_shortcuts_change_no_match() -> None:
    """The condition memo (answers kept from note to note, per form) and the anchors (starts skipped where a token
    the rule needs is out of reach) only save time: the matches are those of trying every start, and every answer
    the memo gives is the condition's own."""
    rules = load_rules("default")
    memo = ConditionMemo(rules.gazetteers)
    every_start = [CompiledRule(compiled.rule, (TokenCondition(),), ()) for compiled in rules.compiled]
    conditions = {
        id(element.condition): element.condition
        for rule in rules
        for element in rule.elements()
        if element.condition is not None
    }
    # Every twelfth note of the styles set, all five styles: trying every start is slow, and the set keeps growing.
    for number, document in enumerate(read_brat_dir(STYLES)[::12]):
        views = token_views(document.text)
        fresh = ConditionMemo(rules.gazetteers)
        assert find_matches(rules.compiled, views, memo) == find_matches(every_start, views, fresh)
        if number % 10 == 0:
            index = TokenIndex(views, memo)
            for condition in conditions.values():
                for position, view in enumerate(views):
                    assert index.holds(condition, position) == holds(condition, view, rules.gazetteers)


def test_anchors_are_words_rather_than_punctuation() -> None:
    """A start is tried only near the tokens a rule needs: for ``h.`` that is the ``h``, not the full stop found on
    every line (the choice saves time only; the test above shows that it changes no match)."""
    rule = next(c for c in load_rules("default").compiled if c.rule.name == "hospital-abbreviation-in-lower-case")
    words = {
        word for condition, _, _ in rule.anchors[0] for word in condition.text or condition.lower or condition.fold
    }
    assert {"h", "hosp", "hgu"} <= words and "." not in words


def test_equal_conditions_are_one_object(tmp_path: Path) -> None:
    """The matcher keeps a condition's answers by its identity: a condition written twice (or through a YAML anchor)
    is parsed into one object, so that its answers are shared, and different conditions stay apart."""
    rules = rules_from(
        tmp_path,
        TITLE_RULE
        + """
  - name: doctora
    label: NOMBRE_PERSONAL_SANITARIO
    pattern:
      - {in: titles}
      - {shape: lower, phi: true}
""",
    )
    first, second = (rule.pattern[0].condition for rule in rules)
    assert first is second
    assert rules.rules[0].pattern[2].condition is not rules.rules[1].pattern[1].condition
    assert found(rules, "la Dra. Pilar Ortega y la dra ana") == [
        ("NOMBRE_PERSONAL_SANITARIO", "Pilar Ortega"),
        ("NOMBRE_PERSONAL_SANITARIO", "ana"),
    ]


def test_the_condition_memo_is_bounded() -> None:
    rules = load_rules("default")
    notes = [token_views(document.text) for document in read_brat_dir(STYLES)][:3]
    memo = ConditionMemo(rules.gazetteers, limit=100)
    for views in notes:
        find_matches(rules.compiled, views, memo)
    alone = ConditionMemo(rules.gazetteers)
    find_matches(rules.compiled, notes[-1], alone)
    assert len(memo) == len(alone) > 100  # dropped when the last note began, then filled by that note alone


def test_a_memo_shared_by_threads_gives_the_same_matches() -> None:
    """A service detects in several threads with one rule set: a memo emptied by one thread while another is in the
    middle of a note changes no match."""
    from concurrent.futures import ThreadPoolExecutor

    rules = load_rules("default")
    notes = [token_views(document.text) for document in read_brat_dir(STYLES)][:24]
    alone = [find_matches(rules.compiled, views, ConditionMemo(rules.gazetteers)) for views in notes]
    shared = ConditionMemo(rules.gazetteers, limit=50)
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda views: find_matches(rules.compiled, views, shared), notes * 3))
    assert together == alone * 3


def test_the_gazetteer_snapshot_holds_what_the_installed_packages_give() -> None:
    from anonimed.rules.gazetteers import SNAPSHOT_FILE, derive_snapshot

    shipped = json.loads(SNAPSHOT_FILE.read_text(encoding="utf-8"))
    derived = derive_snapshot()
    if derived["sources"] != shipped["sources"]:
        pytest.skip(
            f"the snapshot was derived from {shipped['sources']}, these are {derived['sources']}: "
            "rebuild it with scripts/build_gazetteer_snapshot.py and measure the rules again"
        )
    assert derived == shipped
    assert {"youssef", "andreea", "kwame", "hendrik"} <= set(shipped["foreign_given_names"])
    assert {"popescu", "nguyen", "chukwu", "patel"} <= set(shipped["foreign_surnames"])
