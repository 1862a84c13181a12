from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from anonimed.formats.brat import read_brat_dir
from anonimed.text.tokenize import tokenize


def texts(sample: str) -> list[str]:
    return [t.text for t in tokenize(sample)]


def test_glued_header_fields_come_apart():
    assert texts("cp:28007") == ["cp", ":", "28007"]
    assert texts("NºCol:28 28 70973") == ["Nº", "Col", ":", "28", "28", "70973"]
    assert texts("Remitido por: DRAlberto Miján") == ["Remitido", "por", ":", "DR", "Alberto", "Miján"]


def test_contacts_and_dates_split_at_every_possible_boundary():
    assert texts("nnavcu@hotmail.com.") == ["nnavcu", "@", "hotmail", ".", "com", "."]
    assert texts("03/03/1946") == ["03", "/", "03", "/", "1946"]
    assert texts("c/ del Abedul 5-7, 2º dcha") == ["c", "/", "del", "Abedul", "5", "-", "7", ",", "2", "º", "dcha"]


def test_acronyms_are_not_cut():
    assert texts("HTA y EPOC, HTAs") == ["HTA", "y", "EPOC", ",", "HTAs"]


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200))
def test_tokens_cover_every_non_space_character_in_order(sample: str):
    tokens = tokenize(sample)
    assert all(sample[t.start : t.end] == t.text and t.text for t in tokens)
    assert all(a.end <= b.start for a, b in itertools.pairwise(tokens))
    covered = {i for t in tokens for i in range(t.start, t.end)}
    assert all(sample[i].isspace() for i in range(len(sample)) if i not in covered)


def test_gold_boundaries_fall_on_token_boundaries(meddocan):
    total = missed = 0
    misses = []
    for split in ("train", "dev"):
        for document in read_brat_dir(meddocan / split / "brat"):
            tokens = tokenize(document.text)
            starts = {t.start for t in tokens}
            ends = {t.end for t in tokens}
            for span in document.spans:
                total += 2
                for offset, boundaries, side in ((span.start, starts, "start"), (span.end, ends, "end")):
                    if offset not in boundaries:
                        missed += 1
                        context = document.text[max(0, span.start - 10) : span.end + 10]
                        misses.append(f"{document.id} {span.label} {side}: {context!r}")
    print(f"\n{total - missed}/{total} gold span boundaries on token boundaries ({1 - missed / total:.4%}); misses:")
    print("\n".join(misses))
    assert 1 - missed / total >= 0.999


def test_decomposed_accents_stay_inside_their_word():
    import unicodedata

    text = unicodedata.normalize("NFD", "José Pérez Muñoz i Çà")
    assert [t.text for t in tokenize(text)] == [
        unicodedata.normalize("NFD", w) for w in ("José", "Pérez", "Muñoz", "i", "Çà")
    ]
    assert [t.text for t in tokenize("e\u0301")] == ["e\u0301"]
    assert [t.text for t in tokenize("\u0301x")] == ["\u0301", "x"], "a mark with no letter before it stands alone"
