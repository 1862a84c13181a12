"""MEDDOCAN XML (i2b2-like): the text in ``<TEXT>`` as CDATA and one empty element a span in ``<TAGS>``.

::

    <?xml version='1.0' encoding='UTF-8'?>
    <MEDDOCAN>
      <TEXT><![CDATA[...]]></TEXT>
      <TAGS>
        <NAME id="T1" start="9" end="16" text="Ernesto" TYPE="NOMBRE_SUJETO_ASISTENCIA" comment=""/>
      </TAGS>
    </MEDDOCAN>

The element name is the type's group (``schema.group_of``); ``TYPE`` is what the reader trusts.  ``start``/``end`` are
the same character offsets as in BRAT, counted on the text inside ``<TEXT>`` (a leading U+FEFF included: the corpus
keeps the BOM of the ``.txt`` inside the CDATA).  Tags are written in reading order, numbered ``T1``, ``T2``...

What the writer does so that reading gives back the exact text:

- ``]]>`` cannot occur inside CDATA: the section is closed after ``]]`` and a new one opened before ``>``;
- a carriage return would be turned into a line feed by every XML parser (even inside CDATA): it is written as the
  character reference ``&#13;`` between two CDATA sections, so CRLF text comes back as CRLF;
- XML 1.0 cannot hold most C0 control characters (U+0000-U+001F except tab, LF, CR), U+FFFE or U+FFFF, not even as
  character references: writing a text that has one raises ``ValueError`` naming the character and its offset (no
  character is replaced silently; write BRAT or JSONL for such a text, or clean it first).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from anonimed.document import Document, Span
from anonimed.formats.errors import FormatError
from anonimed.schema import UnknownLabelError, canonical_label, group_of

HEADER = "<?xml version='1.0' encoding='UTF-8'?>\n"
_NOT_IN_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Attribute values: tab, LF and CR must be references or the parser's attribute normalisation turns them into spaces.
_ATTRIBUTE_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
)


def _check_xml_characters(document: Document) -> None:
    match = _NOT_IN_XML.search(document.text)
    if match:
        raise ValueError(
            f"document {document.id!r}: character U+{ord(match.group()):04X} at offset {match.start()} cannot be "
            f"stored in XML 1.0; write BRAT or JSONL instead, or remove the character from the text first"
        )


def _cdata(text: str) -> str:
    pieces = []
    for index, part in enumerate(text.split("\r")):
        if index:
            pieces.append("&#13;")
        if part:
            pieces.append("<![CDATA[" + part.replace("]]>", "]]]]><![CDATA[>") + "]]>")
    return "".join(pieces)


def _attribute(value: str) -> str:
    return '"' + value.translate(_ATTRIBUTE_ESCAPES) + '"'


def format_xml(document: Document) -> str:
    """The MEDDOCAN XML of ``document``; ``ValueError`` for an unknown label or a character XML cannot hold."""
    _check_xml_characters(document)
    lines = [HEADER, "<MEDDOCAN>\n", f"  <TEXT>{_cdata(document.text)}</TEXT>\n", "  <TAGS>\n"]
    for number, span in enumerate(sorted(document.spans), start=1):
        try:
            group = group_of(span.label)
        except UnknownLabelError as error:
            raise ValueError(f"document {document.id!r}: span [{span.start}, {span.end}): {error}") from None
        lines.append(
            f'    <{group} id="T{number}" start="{span.start}" end="{span.end}" '
            f'text={_attribute(document.text[span.start : span.end])} TYPE={_attribute(span.label)} comment=""/>\n'
        )
    lines.append("  </TAGS>\n</MEDDOCAN>\n")
    return "".join(lines)


def _normalised_attribute(value: str) -> str:
    # What a parser makes of a literal tab, CR or LF inside an attribute written by another tool.
    return value.replace("\r\n", " ").translate(str.maketrans("\t\n\r", "   "))


def _span(element: ElementTree.Element, text: str, path: Path, check_labels: bool) -> Span:
    where = f"tag {element.tag} id={element.get('id')!r}"
    label, start, end = element.get("TYPE"), element.get("start"), element.get("end")
    if label is None or start is None or end is None:
        raise FormatError(path, f"{where} lacks one of the attributes TYPE, start, end")
    try:
        start_offset, end_offset = int(start), int(end)
    except ValueError:
        raise FormatError(path, f"{where}: offsets are not integers: start={start!r} end={end!r}") from None
    if check_labels:
        try:
            label = canonical_label(label)
        except UnknownLabelError as error:
            raise FormatError(path, f"{where}: {error}") from None
    if not 0 <= start_offset < end_offset <= len(text):
        raise FormatError(path, f"{where}: offsets {start} {end} fall outside the text ({len(text)} characters)")
    covered = text[start_offset:end_offset]
    written = element.get("text")
    if written is not None and written not in (covered, _normalised_attribute(covered)):
        raise FormatError(path, f"{where}: text {written!r} does not match the text at {start}-{end}: {covered!r}")
    return Span(start_offset, end_offset, label)


def read_xml(path: str | Path, check_labels: bool = True) -> Document:
    """The document of one MEDDOCAN (or i2b2-style) XML file; its id is the file name without ``.xml``."""
    path = Path(path)
    try:
        root = ElementTree.fromstring(path.read_bytes())
    except ElementTree.ParseError as error:
        raise FormatError(path, f"is not well-formed XML: {error}", error.position[0]) from None
    except (LookupError, ValueError) as error:  # an encoding declaration the parser does not know or cannot use
        raise FormatError(path, f"cannot be parsed as XML: {error}") from None
    text_element = root.find("TEXT")
    if text_element is None:
        raise FormatError(path, f"has no <TEXT> element under <{root.tag}>")
    text = text_element.text or ""
    tags = root.find("TAGS")
    spans = [_span(element, text, path, check_labels) for element in (tags if tags is not None else ())]
    return Document(path.stem, text, sorted(spans), {"path": str(path)})
