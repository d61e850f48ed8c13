"""What the input carries besides its segments, made publishable: ids, metadata, inline code, placeholders.

* **Ids** (``ids: opaque``, the default): document ids become ``doc-0001`` in order of first appearance and
  unit ids ``doc-0001:17`` (the unit's rank in its document); file names and TMX ``tuid``s never reach a
  public file. :class:`OpaqueIds` keeps the originals on each pair (``SegmentPair.source_ids``) for the key
  store's ``ids`` table. ``ids: keep`` publishes them as read.
* **Metadata** (the ``metadata:`` settings): every string value of a pair's ``meta`` (TMX notes, props,
  unit attributes and ``<tuv>`` props, TSV extra columns, JSONL ``meta``) and the text inside inline code
  (``<bpt>``, ``<ept>``, ``<ph>``, ``<it>``, ``<ut>``) is anonymized as text with its document, dropped or
  kept; who made or changed a unit (``creationid``, ``changeid`` ...) is dropped by default.
  :func:`prepare_metadata` lists the texts for the anonymizer and puts the anonymized ones back.
* **Input placeholders**: text that already looks like one of paranon's placeholders (``<NAME1_PERSON>``)
  has its angle brackets turned into ``‹ ›`` (same length: inline offsets hold), so it can never be taken
  for an entity of this run; redactions of the input (``[NOME]``, ``XXX``, ``***``) are counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import regex
from lxml import etree

from .corpora.formats.tmx import DOC_PROP_TYPES
from .corpora.model import Inline, SegmentPair
from .errors import InputError
from .settings import MetadataSettings, Settings

ID_MODES = ("opaque", "keep")
TEXT_POLICIES = ("anonymize", "drop", "keep")
CLEAN_STRINGS = 100_000  # metadata strings an InputPlaceholders remembers as having nothing to escape
PEOPLE_POLICIES = ("drop", "keep")
# meta keys that are not free text: language codes as read, the piece of a split unit
STRUCTURAL_KEYS = {"langs", "part"}  # "part": paranon.limits
# inline code elements whose content is native markup, not translatable text
INLINE_CODE = regex.compile(r"<(bpt|ept|ph|it|ut)\b")
# redactions already in the input: [NOME], [nome omitido], XXX, ***, ███
INPUT_REDACTION = regex.compile(r"\[[\p{L} ]{2,30}\]|\b[Xx]{3,}\b|\*{3,}|█{2,}")
ESCAPED_OPEN, ESCAPED_CLOSE = "\u2039", "\u203a"  # ‹ › : one character each, as < and >


def placeholder_pattern(template: str) -> regex.Pattern:
    """A pattern for what ``anonymize.placeholder`` (``<NAME{n}_{label}>``) renders, any number and label."""
    parts = regex.split(r"(\{n\}|\{label\})", template)
    out = []
    for part in parts:
        if part == "{n}":
            out.append(r"\d+")
        elif part == "{label}":
            out.append(r"[A-Z]+(?:_[A-Z]+)?")
        else:
            out.append(regex.escape(part))
    return regex.compile("".join(out))


def _policy(section: MetadataSettings, key: str, allowed: tuple[str, ...]) -> str:
    value = getattr(section, key)
    if value not in allowed:
        raise InputError(f"metadata.{key}: {value!r} is not one of {', '.join(allowed)}")
    return value


@dataclass
class MetadataPolicy:
    """The ``metadata:`` and ``ids:`` settings."""

    text: str = "anonymize"        # notes, props, attributes, extra columns, JSONL meta values
    inline_code: str = "anonymize"  # text inside <bpt>/<ept>/<ph>/<it>/<ut>
    people: str = "drop"            # creationid, changeid ... (translators' user names)
    people_keys: frozenset[str] = frozenset()
    ids: str = "opaque"

    @classmethod
    def from_config(cls, cfg: Settings | dict[str, Any]) -> MetadataPolicy:
        s = Settings.of(cfg)
        m, ids = s.metadata, s.ids
        if ids not in ID_MODES:
            raise InputError(f"ids: {ids!r} is not one of {', '.join(ID_MODES)}")
        return cls(text=_policy(m, "text", TEXT_POLICIES), inline_code=_policy(m, "inline_code", TEXT_POLICIES),
                   people=_policy(m, "people", PEOPLE_POLICIES),
                   people_keys=frozenset(k.lower() for k in m.people_keys), ids=ids)

    def is_people(self, key: str) -> bool:
        return key.strip().lower() in self.people_keys


@dataclass
class Prepared:
    """One pair's metadata and inline code with every text to anonymize taken out; ``fill`` puts the
    anonymized texts back, in the same order."""

    texts: list[str] = field(default_factory=list)
    setters: list[Callable[[str], None]] = field(default_factory=list)

    def take(self, text: str, setter: Callable[[str], None]) -> None:
        if not text.strip():
            setter(text)
            return
        self.texts.append(text)
        self.setters.append(setter)

    def fill(self, anonymized: list[str]) -> None:
        for setter, text in zip(self.setters, anonymized, strict=True):
            setter(text)


def _is_doc_prop(ptype: str) -> bool:
    return ptype.strip().lower() in DOC_PROP_TYPES


def _props(props: list, policy: MetadataPolicy, prep: Prepared, doc: str) -> list:
    """TMX props ``[[type, value], ...]``: the document prop follows ``ids``, people's follow ``people``,
    the others ``text``."""
    out: list = []
    for item in props:
        if not (isinstance(item, list | tuple) and len(item) == 2):
            continue  # not a prop: dropped rather than published unread
        ptype, value = str(item[0]), item[1]
        if _is_doc_prop(ptype):
            out.append([ptype, doc if policy.ids == "opaque" else value])
        elif policy.is_people(ptype):
            if policy.people == "keep":
                out.append([ptype, value])
        elif policy.text == "keep" or not isinstance(value, str):
            out.append([ptype, value])
        elif policy.text == "anonymize":
            entry = [ptype, value]
            out.append(entry)
            prep.take(value, lambda t, e=entry: e.__setitem__(1, t))
    return out


def _generic(value: Any, policy: MetadataPolicy, prep: Prepared) -> Any:
    """Any JSON-like value: strings anonymized (or the whole value dropped: ``None``), keys kept, people's
    keys follow ``people``."""
    if isinstance(value, str):
        if policy.text == "drop":
            return None
        if policy.text == "anonymize":
            holder = _holder(value)
            prep.take(value, lambda t, h=holder: h.__setitem__(0, t))
            return holder  # unwrapped by _unwrap once filled
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if policy.is_people(str(k)):
                if policy.people == "keep":
                    out[k] = v
                continue
            if k in STRUCTURAL_KEYS:
                out[k] = v
                continue
            new = _generic(v, policy, prep)
            if new is not None:
                out[k] = new
        return out
    if isinstance(value, list):
        return [x for x in (_generic(v, policy, prep) for v in value) if x is not None]
    return value  # numbers, booleans, null


def _unwrap(value: Any) -> Any:
    """Replace the one-item holders ``_generic`` left for strings by their (anonymized) string."""
    if isinstance(value, dict):
        return {k: _unwrap(v) for k, v in value.items()}
    if isinstance(value, list):
        if isinstance(value, _Holder):
            return value[0]
        return [_unwrap(v) for v in value]
    return value


class _Holder(list):
    _holder = True


def _inline_code(inline: list[Inline], policy: MetadataPolicy, prep: Prepared) -> list[Inline]:
    """Inline code elements with the text inside them anonymized, dropped or kept; their tags and
    attributes unchanged (offsets too: the code is beside the text, not in it)."""
    if policy.inline_code == "keep" or not inline:
        return inline
    out = list(inline)
    for k, marker in enumerate(inline):
        if not INLINE_CODE.match(marker.xml):
            continue
        try:
            el = etree.fromstring(marker.xml)
        except etree.XMLSyntaxError:
            continue  # not one whole element: nothing inside
        nodes = [(n, attr) for n in el.iter() if isinstance(n.tag, str)
                 for attr in ("text", "tail") if (n is not el or attr == "text") and (getattr(n, attr) or "").strip()]
        if not nodes:
            continue
        if policy.inline_code == "drop":
            for n, attr in nodes:
                setattr(n, attr, None)
            out[k] = Inline(marker.offset, etree.tostring(el, encoding="unicode"))
            continue
        for n, attr in nodes:
            def setter(t: str, n=n, attr=attr, el=el, k=k, offset=marker.offset) -> None:
                setattr(n, attr, t)
                out[k] = Inline(offset, etree.tostring(el, encoding="unicode"))

            prep.take(getattr(n, attr), setter)
    return out


def prepare_metadata(pair: SegmentPair, policy: MetadataPolicy) -> Prepared:
    """Apply the policy to one pair in place: drops are done, ids set; the texts to anonymize are returned
    with where they go (``Prepared.fill``). The pair's meta and inline markers are replaced by new objects
    that ``fill`` completes."""
    prep = Prepared()
    meta = pair.meta or {}
    new: dict[str, Any] = {}
    for key, value in meta.items():
        if key == "props" and isinstance(value, list):
            new[key] = _props(value, policy, prep, pair.doc)
        elif key == "tuv_props" and isinstance(value, dict):
            new[key] = {side: _props(v, policy, prep, pair.doc) for side, v in value.items() if isinstance(v, list)}
        elif key == "attrs" and isinstance(value, dict):
            new[key] = _generic(value, policy, prep)
        elif key in STRUCTURAL_KEYS:
            new[key] = value
        elif policy.is_people(key):
            if policy.people == "keep":
                new[key] = value
        else:
            v = _generic(value, policy, prep)
            if v is not None:
                new[key] = v
    pair.meta = new
    pair.src_inline = _inline_code(pair.src_inline, policy, prep)
    pair.tgt_inline = _inline_code(pair.tgt_inline, policy, prep)
    fill = prep.fill

    def fill_and_unwrap(anonymized: list[str]) -> None:
        fill(anonymized)
        pair.meta = _unwrap(pair.meta)

    prep.fill = fill_and_unwrap  # type: ignore[method-assign]
    return prep


# _generic's string holders must be recognizable by _unwrap
def _holder(value: str) -> list:
    h = _Holder()
    h.append(value)
    return h


class OpaqueIds:
    """Opaque document and unit ids in reading order; the originals stay on the pair (``source_ids``)."""

    def __init__(self, mode: str = "opaque") -> None:
        self.mode = mode
        self.docs: dict[str, str] = {}
        self.units: Counter = Counter()

    def doc_id(self, doc: str) -> str:
        if doc not in self.docs:
            self.docs[doc] = f"doc-{len(self.docs) + 1:04d}"
        return self.docs[doc]

    def apply(self, pairs: Iterable[SegmentPair]) -> Iterator[SegmentPair]:
        for p in pairs:
            p.source_ids = (p.id, p.doc)
            if self.mode == "opaque":
                d = self.doc_id(p.doc)
                self.units[d] += 1
                p.id, p.doc = f"{d}:{self.units[d]}", d
            yield p


@dataclass
class InputPlaceholders:
    """Escapes placeholder look-alikes of the input and counts them and the input's own redactions."""

    pattern: regex.Pattern
    escaped: int = 0
    redactions: int = 0
    clean: set[str] = field(default_factory=set, repr=False)  # metadata strings with nothing to escape (they recur)

    @classmethod
    def from_config(cls, cfg: dict[str, Any]) -> InputPlaceholders:
        return cls(placeholder_pattern(Settings.of(cfg).anonymize.placeholder))

    def _escape_match(self, m: regex.Match) -> str:
        self.escaped += 1
        s = m.group(0)
        if s[:1] == "<":
            s = ESCAPED_OPEN + s[1:]
        if s[-1:] == ">":
            s = s[:-1] + ESCAPED_CLOSE
        return s

    def escape(self, text: str) -> str:
        self.redactions += len(INPUT_REDACTION.findall(text))
        return self.pattern.sub(self._escape_match, text)

    def _meta(self, value: Any) -> Any:
        if isinstance(value, str):
            if value in self.clean:
                return value
            escaped = self.escaped
            out = self.pattern.sub(self._escape_match, value)
            if self.escaped == escaped and len(self.clean) < CLEAN_STRINGS:
                self.clean.add(value)
            return out
        if isinstance(value, dict):
            return {k: self._meta(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._meta(v) for v in value]
        return value

    def apply(self, pairs: Iterable[SegmentPair]) -> Iterator[SegmentPair]:
        for p in pairs:
            p.src, p.tgt = self.escape(p.src), self.escape(p.tgt)
            if p.meta:
                p.meta = self._meta(p.meta)
            yield p

    def counts(self) -> dict[str, int]:
        return {"escaped_placeholders": self.escaped, "redactions": self.redactions}
