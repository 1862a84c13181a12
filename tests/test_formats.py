"""Formats: lossless round trips on the corpus, and each format's edge cases on small fictitious documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from anonimed.document import Document, Span
from anonimed.formats import FORMATS, convert, guess_format, read_documents, write_documents
from anonimed.formats.brat import format_ann, parse_ann, read_brat, read_brat_dir, write_brat
from anonimed.formats.conll import format_conll, read_conll
from anonimed.formats.errors import FormatError
from anonimed.formats.jsonl import format_jsonl_line, read_jsonl
from anonimed.formats.textio import atomic_writer
from anonimed.formats.xml import format_xml, read_xml
from anonimed.text.tokenize import tokenize

NAME, DATE, STREET = "NOMBRE_SUJETO_ASISTENCIA", "FECHAS", "CALLE"


def tricky_document() -> Document:
    """A BOM, CRLF line ends, ``]]>``, a tab, a span across a line break, quotes and ampersands inside a span."""
    text = '\ufeffNombre: Ana\r\nApellidos: Pérez\r\nGarcía\r\nNota: a]]>b\tc & "d"\r\nCalle: C/ "Sol" & Luna 3\r\n'
    spans = [
        Span(text.index("Ana"), text.index("Ana") + 3, NAME),
        Span(text.index("Pérez"), text.index("García") + 6, NAME),
        Span(text.index("C/"), text.index("Luna 3") + 6, STREET),
    ]
    return Document("caso-1", text, spans)


def assert_same(document: Document, back: Document) -> None:
    assert back.id == document.id
    assert back.text == document.text
    assert [s.key for s in back.spans] == [s.key for s in sorted(document.spans)]


# --- corpus round trips -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus(meddocan: Path) -> list[Document]:
    documents = read_brat_dir(meddocan / "train" / "brat") + read_brat_dir(meddocan / "dev" / "brat")
    assert len(documents) == 750
    return documents


@pytest.mark.parametrize("target", ["xml", "jsonl"])
def test_corpus_round_trip_through_xml_and_jsonl_is_lossless(corpus: list[Document], tmp_path: Path, target: str):
    out = tmp_path / ("out.jsonl" if target == "jsonl" else "out")
    assert write_documents(corpus, out, target) == 750
    back = {d.id: d for d in read_documents(out, target)}
    assert len(back) == 750
    for document in corpus:
        # The BRAT files are rendered in memory (what write_brat would write, without 1,500 fsyncs).
        brat_files = FORMATS["brat"].files(back[document.id], "BIOES")
        original = Path(document.metadata["path"])
        assert brat_files[".txt"].encode("utf-8") == original.read_bytes()
        assert brat_files[".ann"] == format_ann(document)
        assert parse_ann(brat_files[".ann"], brat_files[".txt"]) == document.spans


def test_written_xml_has_the_corpus_layout(corpus: list[Document], meddocan: Path):
    # Byte for byte the organisers' files, but for the tag ids (theirs follow the .ann, ours reading order).
    without_ids = re.compile(r' id="T\d+"')
    for document in corpus:
        original = Path(document.metadata["path"])
        corpus_xml = original.parent.parent / "xml" / f"{document.id}.xml"
        expected = corpus_xml.read_bytes().decode("utf-8")
        assert without_ids.sub("", format_xml(document)) == without_ids.sub("", expected)
        assert_same(document, read_xml(corpus_xml))


def test_corpus_round_trip_through_conll_keeps_every_token_aligned_span(corpus: list[Document], tmp_path: Path):
    out = tmp_path / "out.conll"
    write_documents(corpus, out, "conll", scheme="BIO")
    back = {d.id: d for d in read_documents(out)}
    assert len(back) == 750
    widened = 0
    for document in corpus:
        rebuilt = back[document.id]
        tokens = tokenize(document.text)
        starts, ends = {t.start for t in tokens}, {t.end for t in tokens}
        aligned = {s.key for s in document.spans if s.start in starts and s.end in ends}
        keys = {s.key for s in rebuilt.spans}
        assert aligned <= keys
        # A span that begins or ends inside a token (an annotation slip) comes back widened to whole tokens.
        widened += len(document.spans) - len(aligned)
        assert len(keys) == len(document.spans)
        for span in rebuilt.spans:
            assert rebuilt.span_text(span).split() == document.text[span.start : span.end].split()
    assert widened < 10


# --- BRAT ---------------------------------------------------------------------------------------------------------


def test_brat_round_trip_of_a_tricky_document(tmp_path: Path):
    document = tricky_document()
    write_brat(document, tmp_path)
    assert (tmp_path / "caso-1.txt").read_bytes() == document.text.encode("utf-8")
    assert (tmp_path / "caso-1.txt").read_bytes().startswith(b"\xef\xbb\xbf")
    assert_same(document, read_brat(tmp_path / "caso-1.txt"))
    assert "Pérez  García" in format_ann(document)  # the CRLF inside the span is written as two spaces


def test_brat_keeps_a_span_with_a_tab_or_a_unicode_line_separator(tmp_path: Path):
    text = "Calle:\tMayor\t3\u2028Madrid"
    document = Document("sep", text, [Span(7, len(text), STREET)])
    write_brat(document, tmp_path)
    assert_same(document, read_brat(tmp_path / "sep.txt"))


def test_brat_errors_name_the_file(tmp_path: Path):
    with pytest.raises(FormatError, match=r"x\.ann:1: .*unknown PHI label 'PACIENTE'"):
        parse_ann("T1\tPACIENTE 0 3\tAna\n", "Ana", tmp_path / "x.ann")
    with pytest.raises(FormatError, match=r"x\.ann:2: offsets 2 9 fall outside the text \(3 characters\)"):
        parse_ann("T1\tPAIS 0 3\tAna\nT2\tPAIS 2 9\ta\n", "Ana", tmp_path / "x.ann")


# --- XML ----------------------------------------------------------------------------------------------------------


def test_xml_round_trip_keeps_bom_crlf_and_cdata_end(tmp_path: Path):
    document = tricky_document()
    written = format_xml(document)
    assert written.startswith("<?xml version='1.0' encoding='UTF-8'?>\n<MEDDOCAN>\n  <TEXT><![CDATA[\ufeffNombre")
    assert "]]]]><![CDATA[>" in written and "&#13;" in written
    assert '<LOCATION id="T3"' in written and 'text="C/ &quot;Sol&quot; &amp; Luna 3" TYPE="CALLE"' in written
    assert 'text="Pérez&#13;&#10;García"' in written
    (tmp_path / "caso-1.xml").write_text(written, encoding="utf-8", newline="")
    assert_same(document, read_xml(tmp_path / "caso-1.xml"))


def test_xml_refuses_characters_it_cannot_hold():
    with pytest.raises(ValueError, match=r"character U\+000C at offset 4 cannot be stored in XML 1.0"):
        format_xml(Document("ff", "Ana \x0c Pérez"))


def test_xml_refuses_unknown_labels_on_writing_and_reading(tmp_path: Path):
    with pytest.raises(ValueError, match="unknown PHI label 'PACIENTE'"):
        format_xml(Document("u", "Ana", [Span(0, 3, "PACIENTE")]))
    path = tmp_path / "u.xml"
    path.write_text(
        "<MEDDOCAN><TEXT><![CDATA[Ana]]></TEXT><TAGS>"
        '<NAME id="T1" start="0" end="3" text="Ana" TYPE="PACIENTE"/></TAGS></MEDDOCAN>',
        encoding="utf-8",
    )
    with pytest.raises(FormatError, match=r"u\.xml: tag NAME id='T1': unknown PHI label 'PACIENTE'"):
        read_xml(path)
    assert read_xml(path, check_labels=False).spans == [Span(0, 3, "PACIENTE")]


@pytest.mark.parametrize(
    ("tags", "problem"),
    [
        ('<NAME start="0" end="9" text="Ana" TYPE="PAIS"/>', r"offsets 0 9 fall outside the text \(3 characters\)"),
        ('<NAME start="0" end="2" text="Ana" TYPE="PAIS"/>', r"text 'Ana' does not match the text at 0-2: 'An'"),
        ('<NAME start="a" end="2" TYPE="PAIS"/>', "offsets are not integers"),
        ('<NAME start="0" TYPE="PAIS"/>', "lacks one of the attributes"),
    ],
)
def test_xml_bad_tags_raise_format_error_naming_the_file(tmp_path: Path, tags: str, problem: str):
    path = tmp_path / "bad.xml"
    path.write_text(f"<MEDDOCAN><TEXT><![CDATA[Ana]]></TEXT><TAGS>{tags}</TAGS></MEDDOCAN>", encoding="utf-8")
    with pytest.raises(FormatError, match=rf"bad\.xml: .*{problem}"):
        read_xml(path)


def test_xml_that_is_not_well_formed_names_file_and_line(tmp_path: Path):
    path = tmp_path / "broken.xml"
    path.write_text("<MEDDOCAN>\n<TEXT>Ana</TEXT\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"broken\.xml:2: is not well-formed XML"):
        read_xml(path)


# --- JSONL --------------------------------------------------------------------------------------------------------


def test_jsonl_round_trip_keeps_scores_sources_and_metadata(tmp_path: Path):
    document = tricky_document()
    predicted = Document(
        "caso-2",
        "Vive en Lleida\u2028desde 2019.",
        [Span(8, 14, "TERRITORIO", 0.75, "crf"), Span(21, 25, DATE, 0.5, "re")],
        {"patient": "p-7", "tags": ["a", 1]},
    )
    path = tmp_path / "docs.jsonl"
    path.write_text(format_jsonl_line(document) + format_jsonl_line(predicted), encoding="utf-8", newline="")
    first, second = read_jsonl(path)
    assert_same(document, first)
    assert_same(predicted, second)
    assert [(s.score, s.source) for s in second.spans] == [(0.75, "crf"), (0.5, "re")]
    assert second.metadata == predicted.metadata


def test_jsonl_bad_lines_are_named_and_skipped_with_on_error(tmp_path: Path):
    path = tmp_path / "docs.jsonl"
    good = format_jsonl_line(Document("ok", "Ana", [Span(0, 3, NAME)]))
    path.write_text(
        "{not json\n"
        + good
        + '{"id": "far", "text": "Ana", "spans": [{"start": 0, "end": 7, "label": "PAIS"}]}\n'
        + '{"id": "lab", "text": "Ana", "spans": [{"start": 0, "end": 3, "label": "PACIENTE"}]}\n',
        encoding="utf-8",
    )
    with pytest.raises(FormatError, match=r"docs\.jsonl:1: "):
        list(read_jsonl(path))
    errors: list[FormatError] = []
    assert [d.id for d in read_jsonl(path, on_error=errors.append)] == ["ok"]
    assert [e.line for e in errors] == [1, 3, 4]
    assert "falls outside the text (3 characters)" in str(errors[1])
    assert "unknown PHI label 'PACIENTE'" in str(errors[2])


# --- CoNLL --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["BIO", "BIOES"])
def test_conll_round_trip_keeps_spans_and_non_blank_text(tmp_path: Path, scheme: str):
    document = tricky_document()
    path = tmp_path / "docs.conll"
    path.write_text(format_conll(document, scheme) + format_conll(Document("vacío", " \n")), encoding="utf-8")
    back, empty = read_conll(path)
    assert back.id == "caso-1" and empty.id == "vacío" and empty.text == ""
    assert [s.key for s in back.spans] == [s.key for s in document.spans]
    assert len(back.text) == len(document.text.rstrip())
    assert back.text.split() == document.text.split()
    assert back.metadata["text_rebuilt_from_tokens"]


def test_conll_layout():
    written = format_conll(Document("d1", "Nombre: Ana Pérez\nEdad: 3 años", [Span(8, 17, NAME)]), "BIOES")
    assert written.split("\n")[:5] == [
        "# doc_id = d1",
        "Nombre\t0\t6\tO",
        ":\t6\t7\tO",
        f"Ana\t8\t11\tB-{NAME}",
        f"Pérez\t12\t17\tE-{NAME}",
    ]
    assert written.split("\n")[5] == "" and written.endswith("\t0\t\n\n".replace("\t0\t", "años\t26\t30\tO"))


def test_conll_reads_the_two_column_form_without_offsets(tmp_path: Path):
    path = tmp_path / "plain.bio"
    path.write_text(f"# a comment\nNombre O\n: O\nAna B-{NAME}\nPérez I-{NAME}\n\n# O\nCP O\n28001 B-TERRITORIO\n")
    (document,) = read_conll(path)
    assert document.id == "plain" and document.text == "Nombre : Ana Pérez\n# CP 28001"
    assert [document.span_text(s) for s in document.spans] == ["Ana Pérez", "28001"]


def test_conll_bad_documents_are_named_and_skipped_with_on_error(tmp_path: Path):
    path = tmp_path / "docs.conll"
    path.write_text(
        "# doc_id = a\nAna\t0\t3\tS-PACIENTE\n\n"
        "# doc_id = b\nAna\t0\t3\n\n"
        "# doc_id = c\nAna\t0\t4\tO\n\n"
        f"# doc_id = d\nAna\t0\t3\tS-{NAME}\n"
    )
    errors: list[FormatError] = []
    assert [d.id for d in read_conll(path, on_error=errors.append)] == ["d"]
    assert [e.line for e in errors] == [2, 5, 8]
    assert "unknown PHI label 'PACIENTE'" in str(errors[0])
    assert "expected 'TOKEN<TAB>START<TAB>END<TAB>TAG'" in str(errors[1])
    assert "does not fit its offsets" in str(errors[2])
    with pytest.raises(FormatError, match=r"docs\.conll:2: "):
        list(read_conll(path))


# --- registry -----------------------------------------------------------------------------------------------------


def test_guess_format_from_suffix_folder_and_content(tmp_path: Path):
    (tmp_path / "brat").mkdir()
    (tmp_path / "brat" / "a.txt").write_text("x")
    (tmp_path / "brat" / "a.ann").write_text("")
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "a.txt").write_text("x")
    (tmp_path / "unnamed").write_text(f"# doc_id = a\nAna\t0\t3\tS-{NAME}\n")
    (tmp_path / "records").write_text('{"id": "a", "text": "x"}\n')
    (tmp_path / "x.xml").write_text("<MEDDOCAN/>")
    assert guess_format(tmp_path / "brat").name == "brat"
    assert guess_format(tmp_path / "texts").name == "plain"
    assert guess_format(tmp_path / "unnamed").name == "conll"
    assert guess_format(tmp_path / "records").name == "jsonl"
    assert guess_format(tmp_path / "x.xml").name == "xml"
    with pytest.raises(FormatError, match=r"missing\.xml: does not exist"):
        guess_format(tmp_path / "missing.xml")
    assert set(FORMATS) == {"brat", "xml", "plain", "jsonl", "conll"}


def test_read_documents_reports_a_bad_file_and_goes_on(tmp_path: Path):
    folder = tmp_path / "in"
    write_brat(Document("a", "Ana", [Span(0, 3, NAME)]), folder)
    write_brat(Document("c", "Luis", [Span(0, 4, NAME)]), folder)
    (folder / "b.txt").write_text("Ana")
    (folder / "b.ann").write_text("T1\tPAIS 0 9\tAna\n")
    with pytest.raises(FormatError, match=r"b\.ann:1: offsets 0 9"):
        list(read_documents(folder))
    failures: dict[str, Exception] = {}
    documents = list(read_documents(folder, on_error=failures.__setitem__))
    assert [d.id for d in documents] == ["a", "c"] and list(failures) == [str(folder / "b.ann")]


def test_write_documents_refuses_bad_ids_duplicates_and_keeps_others(tmp_path: Path):
    documents = [Document("a", "x"), Document("../evil", "y"), Document("a", "z"), Document("b", "\x00")]
    failures: dict[str, Exception] = {}
    assert write_documents(documents, tmp_path / "out", "xml", on_error=failures.__setitem__) == 1
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.xml"]
    assert len(failures) == 3 and all(isinstance(e, ValueError) for e in failures.values())
    with pytest.raises(ValueError, match="cannot be used as a file name"):
        write_documents([Document("../evil", "y")], tmp_path / "out2", "brat")


def test_a_failed_single_file_write_leaves_no_partial_file(tmp_path: Path):
    def documents():
        yield Document("a", "x")
        raise FormatError(tmp_path / "in.xml", "broken")

    with pytest.raises(FormatError):
        write_documents(documents(), tmp_path / "out.jsonl", "jsonl")
    assert list(tmp_path.iterdir()) == []


def test_atomic_writer_keeps_the_old_file_on_error(tmp_path: Path):
    path = tmp_path / "f.txt"
    path.write_text("old")
    with pytest.raises(RuntimeError), atomic_writer(path) as stream:
        stream.write("new\r\n")
        raise RuntimeError
    assert path.read_text() == "old" and list(tmp_path.iterdir()) == [path]


def test_convert_plain_text_to_brat_and_conll(tmp_path: Path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n1.txt").write_bytes("\ufeffPaciente de 3 años.\r\n".encode())
    summary = convert(tmp_path / "notes", tmp_path / "brat", "brat")
    assert (summary.source, summary.documents, summary.failures) == ("plain", 1, {})
    assert (tmp_path / "brat" / "n1.txt").read_bytes() == (tmp_path / "notes" / "n1.txt").read_bytes()
    assert (tmp_path / "brat" / "n1.ann").read_text() == ""
    with pytest.raises(ValueError, match="the output must differ from the input"):
        convert(tmp_path / "brat", tmp_path / "brat", "xml")
    with pytest.raises(ValueError, match="unknown format 'docx'"):
        convert(tmp_path / "brat", tmp_path / "x", "docx")
