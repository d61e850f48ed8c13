"""TMX 1.1-1.4b, read as a stream and written as TMX 1.4b.

Reading uses lxml ``iterparse`` and frees each ``<tu>`` once read, so memory
stays flat whatever the file size. Encoding comes from the BOM/declaration
(Trados and Euramis exports are UTF-16LE). Language codes are matched
case-insensitively on ``xml:lang`` or the TMX 1.1 ``lang`` attribute.
Inline elements become :class:`~paranon.corpora.model.Inline` markers.
"""

from __future__ import annotations

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


def read_tmx(path: str | Path, src_lang: str, tgt_lang: str, problems: Problems,
             doc_default: str | None = None, doc_pairs: int = DOCUMENT_PAIRS) -> Iterator[SegmentPair]:
    """Yield the (src, tgt) pairs of a TMX file; problems are reported, never dropped silently. A unit
    without a document property gets a pseudo-document (``PseudoDocuments``, ``doc_pairs`` units each)."""
    path = Path(path)
    doc_default = doc_default or path.stem
    pseudo = PseudoDocuments(doc_default, doc_pairs)
    n = 0
    context = etree.iterparse(str(path), events=("end",), tag=("{*}tu", "tu"), huge_tree=True,
                              resolve_entities=False, no_network=True, load_dtd=False)
    try:
        for _, tu in context:
            n += 1
            line = tu.sourceline
            unit_id = tu.get("tuid") or f"{doc_default}:{n}"
            where = f"{path}:{line} (unit {unit_id})"
            meta: dict = {}
            props = [[p.get("type", ""), p.text or ""] for p in tu if _local(p.tag) == "prop"]
            notes = [x.text or "" for x in tu if _local(x.tag) == "note"]
            if props:
                meta["props"] = props
            if notes:
                meta["notes"] = notes
            attrs = {k: v for k, v in tu.attrib.items() if k != "tuid"}
            if attrs:
                meta["attrs"] = attrs
            doc = next((v for t in DOC_PROP_TYPES for k, v in props if k.lower() == t and v), None)
            sides: dict[str, tuple[str, list[Inline], list]] = {}
            for tuv in tu:
                if _local(tuv.tag) != "tuv":
                    continue
                lang = _tuv_lang(tuv)
                for key, wanted in (("src", src_lang), ("tgt", tgt_lang)):
                    if key not in sides and lang_matches(lang, wanted):
                        seg = next((s for s in tuv if _local(s.tag) == "seg"), None)
                        tprops = [[p.get("type", ""), p.text or ""] for p in tuv if _local(p.tag) == "prop"]
                        if seg is None:
                            sides[key] = ("", [], tprops)
                        else:
                            text, inline = seg_content(seg)
                            sides[key] = (text, inline, tprops)
                        sides[key + "_code"] = lang  # type: ignore[assignment]
            tu.clear()
            while tu.getprevious() is not None:
                del tu.getparent()[0]
            missing = [w for k, w in (("src", src_lang), ("tgt", tgt_lang)) if k not in sides]
            if missing:
                problems.report(where, f"missing {'/'.join(missing)} side")
                continue
            empty = [w for k, w in (("src", src_lang), ("tgt", tgt_lang)) if not sides[k][0].strip()]
            if empty:
                problems.report(where, f"empty {'/'.join(empty)} segment")
                continue
            tprops_meta = {k: sides[k][2] for k in ("src", "tgt") if sides[k][2]}
            if tprops_meta:
                meta["tuv_props"] = tprops_meta
            meta["langs"] = [sides["src_code"], sides["tgt_code"]]  # type: ignore[index]
            yield SegmentPair(id=unit_id, doc=doc or pseudo.next(), src=sides["src"][0], tgt=sides["tgt"][0],
                              src_lang=src_lang, tgt_lang=tgt_lang, meta=meta,
                              src_inline=sides["src"][1], tgt_inline=sides["tgt"][1], origin=where)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or "?"
        problems.report(f"{path}:{line}", "malformed XML", str(exc.msg).strip().splitlines()[0])
    except (UnicodeDecodeError, LookupError) as exc:
        problems.report(str(path), "bad encoding", str(exc))
    finally:
        del context


def render_seg(text: str, inline: list[Inline]) -> str:
    """Text with inline markers put back, everything else escaped."""
    if not inline:
        return escape(text)
    out: list[str] = []
    pos = 0
    for marker in sorted(inline, key=lambda i: i.offset):  # stable: equal offsets keep their order
        off = min(max(marker.offset, pos), len(text))
        out.append(escape(text[pos:off]))
        out.append(marker.xml)
        pos = off
    out.append(escape(text[pos:]))
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
            w(f"  <note>{escape(note)}</note>\n")
        props = meta.get("props") or []
        if not any(t.lower() in DOC_PROP_TYPES for t, _ in props):
            props = [["x-doc", pair.doc], *props]
        for ptype, value in props:
            w(f"  <prop type={quoteattr(ptype)}>{escape(value)}</prop>\n")
        langs = meta.get("langs") or [self.src_lang, self.tgt_lang]
        tprops = meta.get("tuv_props") or {}
        for side, lang, text, inline in (("src", langs[0], pair.src, pair.src_inline),
                                         ("tgt", langs[1], pair.tgt, pair.tgt_inline)):
            w(f"  <tuv xml:lang={quoteattr(lang)}>\n")
            for ptype, value in tprops.get(side, []):
                w(f"    <prop type={quoteattr(ptype)}>{escape(value)}</prop>\n")
            w(f"    <seg>{render_seg(text, inline)}</seg>\n  </tuv>\n")
        w("</tu>\n")

    def close(self) -> None:
        if self.header:
            self.write_footer(self.fh)
