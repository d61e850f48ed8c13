"""TMX 1.1-1.4b, read as a stream and written as TMX 1.4b.

Reading uses lxml ``iterparse`` and frees each ``<tu>`` once read, so memory
stays flat whatever the file size. Encoding comes from the BOM/declaration
(Trados and Euramis exports are UTF-16LE). Language codes are matched
case-insensitively on ``xml:lang`` or the TMX 1.1 ``lang`` attribute.
Inline elements become :class:`~paranon.corpora.model.Inline` markers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import IO
from xml.sax.saxutils import escape, quoteattr

from lxml import etree

from ..model import AnonymizedPair, Inline, SegmentPair
from .common import DOCUMENT_PAIRS, Problems, PseudoDocuments, lang_matches, normalize_text

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
INLINE_ATOMIC = {"bpt", "ept", "ph", "it", "ut"}
INLINE_WRAPPING = {"hi", "sub"}
# prop types that name the document a unit comes from, in order of preference
DOC_PROP_TYPES = ("doc", "x-doc", "x-document", "x-docid", "txt::doc. no.", "txt::document", "x-filename")


def _tuv_lang(tuv: etree._Element) -> str:
    return tuv.get(XML_LANG) or tuv.get("lang") or ""


@lru_cache(maxsize=256)
def _local_name(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _local(tag: object) -> str:
    """An element's name without its namespace ("" for comments and processing instructions)."""
    return _local_name(tag) if isinstance(tag, str) else ""


def _open_tag(el: etree._Element) -> str:
    attrs = "".join(f" {k}={quoteattr(v)}" for k, v in el.attrib.items())
    return f"<{_local(el.tag)}{attrs}>"


def seg_content(seg: etree._Element) -> tuple[str, list[Inline]]:
    """Plain text of a ``<seg>`` and its inline markup as offset markers."""
    parts: list[str] = []
    inline: list[Inline] = []
    length = 0

    def add_text(t: str | None) -> None:
        nonlocal length
        if t:
            t = normalize_text(t)
            parts.append(t)
            length += len(t)

    def walk(el: etree._Element) -> None:
        add_text(el.text)
        for child in el:
            name = _local(child.tag)
            if name in INLINE_WRAPPING or (name and name not in INLINE_ATOMIC and (child.text or len(child))):
                # <hi>, <sub>, and elements of other formats that wrap text (XLIFF's <g>, <mrk>): their text
                # is segment text, seen by the recognizers and masked with the rest
                inline.append(Inline(length, _open_tag(child)))
                walk(child)
                inline.append(Inline(length, f"</{name}>"))
            elif name:  # bpt, ept, ph, it, ut (native code) and empty unknown elements: kept whole
                inline.append(Inline(length, etree.tostring(child, with_tail=False, encoding="unicode")))
            add_text(child.tail)

    walk(seg)
    return "".join(parts), inline


# where each unit starts, for the unit-by-unit reading that takes over after a syntax error
TU_START = re.compile(rb"<(?:[\w.-]+:)?tu[\s>/]")
TU_END = re.compile(rb"</(?:[\w.-]+:)?tu\s*>")
# characters XML 1.0 forbids (a NUL or other control character in a unit makes the whole file malformed)
XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _unit(tu: etree._Element, n: int, path: Path, line: int | str, src_lang: str, tgt_lang: str,
          doc_default: str, pseudo: PseudoDocuments, problems: Problems) -> SegmentPair | None:
    """One ``<tu>`` as a pair, or None (reported) when it lacks a side or a side is empty."""
    unit_id = tu.get("tuid") or f"{doc_default}:{n}"
    where = f"{path}:{line} (unit {unit_id})"
    meta: dict = {}
    children = [(_local(c.tag), c) for c in tu]  # each child's name once
    props = [[p.get("type", ""), p.text or ""] for name, p in children if name == "prop"]
    notes = [x.text or "" for name, x in children if name == "note"]
    if props:
        meta["props"] = props
    if notes:
        meta["notes"] = notes
    attrs = {k: v for k, v in tu.attrib.items() if k != "tuid"}
    if attrs:
        meta["attrs"] = attrs
    doc = next((v for t in DOC_PROP_TYPES for k, v in props if k.lower() == t and v), None)
    sides: dict[str, tuple[str, list[Inline], list]] = {}
    for name, tuv in children:
        if name != "tuv":
            continue
        lang = _tuv_lang(tuv)
        for key, wanted in (("src", src_lang), ("tgt", tgt_lang)):
            if key not in sides and lang_matches(lang, wanted):
                inner = [(_local(c.tag), c) for c in tuv]
                seg = next((c for n, c in inner if n == "seg"), None)
                tprops = [[p.get("type", ""), p.text or ""] for n, p in inner if n == "prop"]
                if seg is None:
                    sides[key] = ("", [], tprops)
                else:
                    text, inline = seg_content(seg)
                    sides[key] = (text, inline, tprops)
                sides[key + "_code"] = lang  # type: ignore[assignment]
    missing = [w for k, w in (("src", src_lang), ("tgt", tgt_lang)) if k not in sides]
    if missing:
        problems.report(where, f"missing {'/'.join(missing)} side")
        return None
    empty = [w for k, w in (("src", src_lang), ("tgt", tgt_lang)) if not sides[k][0].strip()]
    if empty:
        problems.report(where, f"empty {'/'.join(empty)} segment")
        return None
    tprops_meta = {k: sides[k][2] for k in ("src", "tgt") if sides[k][2]}
    if tprops_meta:
        meta["tuv_props"] = tprops_meta
    meta["langs"] = [sides["src_code"], sides["tgt_code"]]  # type: ignore[index]
    return SegmentPair(id=unit_id, doc=doc or pseudo.next(), src=sides["src"][0], tgt=sides["tgt"][0],
                       src_lang=src_lang, tgt_lang=tgt_lang, meta=meta,
                       src_inline=sides["src"][1], tgt_inline=sides["tgt"][1], origin=where)


def read_tmx(path: str | Path, src_lang: str, tgt_lang: str, problems: Problems,
             doc_default: str | None = None, doc_pairs: int = DOCUMENT_PAIRS) -> Iterator[SegmentPair]:
    """Yield the (src, tgt) pairs of a TMX file; problems are reported, never dropped silently. A unit
    without a document property gets a pseudo-document (``PseudoDocuments``, ``doc_pairs`` units each).

    The file is read as a stream; a syntax error (a bad byte, a control character, a broken or truncated
    unit) would end the stream there, so from that unit on the file is read unit by unit
    (:func:`_units_one_by_one`): the bad unit is reported with its line and the reading goes on at the next."""
    path = Path(path)
    doc_default = doc_default or path.stem
    pseudo = PseudoDocuments(doc_default, doc_pairs)
    n = 0
    context = etree.iterparse(str(path), events=("end",), tag=("{*}tu", "tu"), huge_tree=True,
                              resolve_entities=False, no_network=True, load_dtd=False)
    failure: tuple[str, str, str] | None = None
    try:
        for _, tu in context:
            n += 1
            line = tu.sourceline
            pair = _unit(tu, n, path, line, src_lang, tgt_lang, doc_default, pseudo, problems)
            tu.clear()
            while tu.getprevious() is not None:
                del tu.getparent()[0]
            if pair is not None:
                yield pair
    except etree.XMLSyntaxError as exc:
        failure = (f"{path}:{exc.lineno or '?'}", "malformed XML", str(exc.msg).strip().splitlines()[0])
    except (UnicodeDecodeError, LookupError) as exc:
        failure = (str(path), "bad encoding", str(exc))
    finally:
        del context
    if failure is not None:
        found = yield from _units_one_by_one(path, n, src_lang, tgt_lang, doc_default, pseudo, problems)
        if not found:  # nothing the unit-by-unit reading could name: the stream's own error
            problems.report(*failure)


def _encoding(head: bytes) -> str:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if head.startswith(b"<\x00"):
        return "utf-16-le"
    if head.startswith(b"\x00<"):
        return "utf-16-be"
    m = re.match(rb"\s*<\?xml[^>]*encoding=[\"']([\w.-]+)", head.lstrip(b"\xef\xbb\xbf"))
    return m.group(1).decode("ascii").lower() if m else "utf-8"


def _units_one_by_one(path: Path, skip: int, src_lang: str, tgt_lang: str, doc_default: str,
                      pseudo: PseudoDocuments, problems: Problems) -> Iterator[SegmentPair]:
    """After the stream failed: every unit after the first ``skip`` (read already), each parsed on its own.
    A unit runs from its ``<tu`` to the next unit's; one that does not decode, holds a character XML
    forbids, does not parse or has no ``</tu>`` is reported with its line. Returns how many bad units it
    reported."""
    raw = path.read_bytes()
    encoding = _encoding(raw[:200])
    if encoding.replace("_", "-") not in ("utf-8", "utf8"):
        # a two-byte or legacy encoding: decoded whole (a bad byte becomes U+FFFD, reported below), then
        # scanned as UTF-8
        raw = raw.decode(encoding, errors="replace").encode("utf-8")
        encoding = "utf-16" if "16" in encoding else encoding
    starts = [m.start() for m in TU_START.finditer(raw)]
    bad = 0
    line, last = 1, 0
    for k, start in enumerate(starts):
        line += raw.count(b"\n", last, start)
        last = start
        if k < skip:
            continue
        chunk = raw[start:starts[k + 1] if k + 1 < len(starts) else len(raw)]
        where = f"{path}:{line} (unit {k + 1})"
        end = TU_END.search(chunk)
        if end is None:
            problems.report(where, "malformed XML", "no </tu>: the file is truncated or the unit broken")
            bad += 1
            continue
        try:
            text = chunk[:end.end()].decode("utf-8")
        except UnicodeDecodeError as exc:
            at = line + chunk.count(b"\n", 0, exc.start)  # the line of the bad byte
            problems.report(f"{path}:{at} (unit {k + 1})", "bad encoding", f"not UTF-8 at byte {exc.start} of the unit")
            bad += 1
            continue
        if "\ufffd" in text and encoding != "utf-8":
            problems.report(where, "bad encoding", f"not {encoding}")
            bad += 1
            continue
        forbidden = XML_FORBIDDEN.search(text)
        if forbidden:
            at = line + text.count("\n", 0, forbidden.start())
            problems.report(f"{path}:{at} (unit {k + 1})", "bad character", f"U+{ord(forbidden.group()):04X} is not allowed in XML")
            bad += 1
            continue
        try:
            tu = etree.fromstring(_with_namespaces(text), etree.XMLParser(resolve_entities=False, no_network=True,
                                                                         load_dtd=False, huge_tree=True))
            if _local(tu.tag) != "tu":  # wrapped to declare its namespace prefixes
                tu = tu[0]
        except etree.XMLSyntaxError as exc:
            at = line + max(0, (exc.lineno or 1) - 1)  # the unit parsed alone starts on its line 1
            problems.report(f"{path}:{at} (unit {k + 1})", "malformed XML",
                            str(exc.msg).strip().splitlines()[0].split(", line ")[0])
            bad += 1
            continue
        pair = _unit(tu, k + 1, path, line, src_lang, tgt_lang, doc_default, pseudo, problems)
        if pair is not None:
            yield pair
    return bad


def _with_namespaces(text: str) -> bytes:
    """A unit cut out of its file, with any namespace prefix it uses declared (so that it parses alone)."""
    prefixes = set(re.findall(r"</?([\w.-]+):", text)) - {"xml"}
    if not prefixes:
        return text.encode("utf-8")
    decl = "".join(f' xmlns:{p}="urn:paranon:{p}"' for p in sorted(prefixes))
    return f"<paranon-unit{decl}>{text}</paranon-unit>".encode()


def xml_text(text: str) -> str:
    """Text escaped for XML; a character XML 1.0 cannot hold (a control character a TSV or JSONL input
    had) becomes U+FFFD, so that corpus.tmx stays well-formed."""
    if XML_FORBIDDEN.search(text):
        text = XML_FORBIDDEN.sub("\ufffd", text)
    return escape(text)


def render_seg(text: str, inline: list[Inline]) -> str:
    """Text with inline markers put back, everything else escaped."""
    if not inline:
        return xml_text(text)
    out: list[str] = []
    pos = 0
    for marker in sorted(inline, key=lambda i: i.offset):  # stable: equal offsets keep their order
        off = min(max(marker.offset, pos), len(text))
        out.append(xml_text(text[pos:off]))
        out.append(marker.xml)
        pos = off
    out.append(xml_text(text[pos:]))
    return "".join(out)


class TmxWriter:
    """Streaming TMX 1.4b writer; placeholders are plain text, escaped as ``&lt;NAME1_PERSON&gt;``."""

    def __init__(self, fh: IO[str], src_lang: str, tgt_lang: str, header: bool = True) -> None:
        self.fh = fh
        self.src_lang = src_lang
        self.tgt_lang = tgt_lang
        self.header = header
        if header:
            self.write_header(fh, src_lang, tgt_lang)

    @classmethod
    def body_only(cls, fh: IO[str], src_lang: str, tgt_lang: str) -> TmxWriter:
        """Units only, for parts that are concatenated between a header and a footer later."""
        return cls(fh, src_lang, tgt_lang, header=False)

    @staticmethod
    def write_header(fh: IO[str], src_lang: str, tgt_lang: str) -> None:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n')
        fh.write('<header creationtool="paranon" creationtoolversion="0.1" segtype="sentence" '
                 f'o-tmf="paranon" adminlang="en" srclang={quoteattr(src_lang)} datatype="plaintext"/>\n<body>\n')

    @staticmethod
    def write_footer(fh: IO[str]) -> None:
        fh.write("</body>\n</tmx>\n")

    def write(self, pair: AnonymizedPair | SegmentPair) -> None:
        meta = pair.meta or {}
        attrs = "".join(f" {k}={quoteattr(str(v))}" for k, v in (meta.get("attrs") or {}).items())
        w = self.fh.write
        w(f"<tu tuid={quoteattr(pair.id)}{attrs}>\n")
        for note in meta.get("notes", []):
            w(f"  <note>{xml_text(str(note))}</note>\n")
        props = meta.get("props") or []
        if not any(t.lower() in DOC_PROP_TYPES for t, _ in props):
            props = [["x-doc", pair.doc], *props]
        for ptype, value in props:
            w(f"  <prop type={quoteattr(ptype)}>{xml_text(str(value))}</prop>\n")
        langs = meta.get("langs") or [self.src_lang, self.tgt_lang]
        tprops = meta.get("tuv_props") or {}
        for side, lang, text, inline in (("src", langs[0], pair.src, pair.src_inline),
                                         ("tgt", langs[1], pair.tgt, pair.tgt_inline)):
            w(f"  <tuv xml:lang={quoteattr(lang)}>\n")
            for ptype, value in tprops.get(side, []):
                w(f"    <prop type={quoteattr(ptype)}>{xml_text(str(value))}</prop>\n")
            w(f"    <seg>{render_seg(text, inline)}</seg>\n  </tuv>\n")
        w("</tu>\n")

    def close(self) -> None:
        if self.header:
            self.write_footer(self.fh)
