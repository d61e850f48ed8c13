"""The target side of a pair: transfer of the source mentions, target consistency, replacement.

:class:`Finisher` works one chunk at a time in two passes. Pass 1 (:meth:`Finisher.transfer_chunk`) transfers
every pair's mentions and masks, within a document, the target forms found in one pair in the others; it
returns the chunk's target forms (:data:`TargetFound`). Pass 2 (:meth:`Finisher.finish_transferred`) masks the
whole corpus's target forms (:func:`target_forms_of`) where they still show, then replaces the pairs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import groupby
from typing import TYPE_CHECKING

from ..anonymize.anonymized import Anonymized
from ..anonymize.consistency import CorpusForms, FormKind, form_key
from ..anonymize.corpus import public_mentions
from ..anonymize.engine import apply_mentions
from ..anonymize.numbering import EntityNumbers
from ..anonymize.recognizer import DocumentMemory, Segment
from ..corpora.model import AnonymizedPair, Inline, Mention, remap_offset
from ..text import fold, phrase_key, tokenize
from .edges import dictionary_pairs, trim_translated_heads
from .english import EnglishRecognizer
from .links import map_links
from .sides import settle
from .target import (
    MIN_ALIGNED_PAIRS,
    allow_gate,
    allowed_source_tokens,
    drop_allowed,
    earned_by_step,
    keep_source_decision,
    spreadable,
    warm_target_lexicons,
)
from .transfer import Transferrer, TransferResult

if TYPE_CHECKING:
    from ..anonymize.engine import Anonymizer

ID_CACHE = 50_000  # target texts whose identifiers ``target_id_finder`` keeps (emptied when full)


def _remap_inline(inline: list[Inline], reps: list[tuple[int, int, int]]) -> list[Inline]:
    return [Inline(remap_offset(i.offset, reps), i.xml) for i in inline]


def pt_rules_of(anonymizer: Anonymizer) -> dict | None:
    """The anonymizer's rules when they are pt.yaml's (the English recognizer reads its address words: not
    parsed a second time), else None."""
    from ..settings import AnonymizeSettings

    return anonymizer.rules if AnonymizeSettings.of(anonymizer.cfg["anonymize"]).rules == "pt" else None


def target_id_finder(anonymizer: Anonymizer):
    """Identifiers in the target found by the language-independent NAMEID patterns."""
    from ..anonymize.recognizers.nameid import NameIdRecognizer

    rec = next((r for r in anonymizer.recognizers if isinstance(r, NameIdRecognizer)), None)
    if rec is None or "NAMEID" not in anonymizer.categories:
        return None

    found: dict[str, tuple[tuple[int, int, str], ...]] = {}  # by text: a translation memory repeats its segments

    def find(text: str) -> tuple[tuple[int, int, str], ...]:
        got = found.get(text)
        if got is None:
            if len(found) >= ID_CACHE:
                found.clear()
            seg = Segment(text=text, doc=None, memory=DocumentMemory())  # type: ignore[arg-type]
            got = found[text] = tuple((m.start, m.end, m.category) for m in rec.find(seg) if m.category == "NAMEID")
        return got

    return find


@dataclass
class FormEvidence:
    """Why a target form may spread: its kind, the source forms of its entity, whether a string or pattern
    step found it (``earned``), and in how many pairs alignment alone found it (most for one entity of a
    document, added over the documents)."""

    kind: FormKind
    sources: set[str] = field(default_factory=set)
    earned: bool = False
    aligned: int = 0


TargetFound = dict[str, FormEvidence]  # a document's target forms, by form key


@dataclass
class TargetForms:
    """The corpus's target forms that spread (None when none does), the source forms of each one's entity, and
    the free ones (found by a string or pattern step: they spread wherever they show)."""

    forms: CorpusForms | None = None
    sources: dict[str, set[str]] = field(default_factory=dict)
    free: set[str] = field(default_factory=set)


def is_target_form(m: Mention, key: str) -> bool:
    """Whether a target mention's text may be masked wherever else it appears, by its kind: a plausible name
    (capitalized content words, not one frequent English word, not a country), a date, an identifier as the
    source side's corpus forms take them. Whether it earned its spread is counted apart (``align/target.py``)."""
    return spreadable(m, key)


def _form_numbers(entity_texts: dict[int, set[str]]) -> dict[str, int]:
    """Form key -> entity number, for one document's entities and the texts of their mentions."""
    return {form_key(t): e for e, texts in entity_texts.items() for t in texts}


def target_forms_of(founds: Iterable[TargetFound]) -> TargetForms:
    """The corpus's target forms from the chunks' (in chunk order: a form keeps its first kind): those a string
    or pattern step found (also returned apart: they spread freely), and those aligned in two pairs or more."""
    forms, sources = CorpusForms(), {}
    evidence: dict[str, FormEvidence] = {}
    for found in founds:
        for key, f in found.items():
            ev = evidence.setdefault(key, FormEvidence(f.kind))
            ev.sources.update(f.sources)
            ev.earned = ev.earned or f.earned
            ev.aligned += f.aligned
    free = set()
    for key, ev in evidence.items():
        if ev.earned or ev.aligned >= MIN_ALIGNED_PAIRS:  # a form aligned once in the whole corpus does not spread
            forms._add_kind(key, ev.kind)
            sources[key] = ev.sources
            if ev.earned:
                free.add(key)
    return TargetForms(forms if sources else None, sources, free)


@dataclass
class PairResult:
    """One finished pair. ``src_mentions``/``tgt_mentions`` are in original coordinates (private)."""

    anonymized: AnonymizedPair
    src_mentions: list[Mention]
    tgt_mentions: list[Mention]
    transfer: TransferResult
    scope_key: str


class Finisher:
    """Transfer to the target and replacement there, one pair at a time, in corpus order."""

    def __init__(self, anonymizer: Anonymizer, src_lang: str, tgt_lang: str) -> None:
        self.an = anonymizer
        self.src_lang, self.tgt_lang = src_lang, tgt_lang
        self.transferrer = Transferrer(target_id_finder(anonymizer), anonymizer.lex.common, anonymizer.lex.places,
                                       anonymizer.lex.first | anonymizer.lex.last,
                                       anonymizer.rules["organization"]["tails"],
                                       EnglishRecognizer(pt_rules=pt_rules_of(anonymizer))
                                       if tgt_lang.lower().startswith("en") else None,
                                       {fold(p) for p in anonymizer.rules["polities"]})
        warm_target_lexicons()  # wordfreq's English list and the country names, before the workers fork
        dictionary_pairs()  # (and the word pairs ``trim_translated_heads`` reads: loaded once, not once a worker)
        self.allow_gate = allow_gate(anonymizer.allow)  # (the anonymizer's allow list, as its lexicons: made once)
        self.next_by_scope: dict[str, int] = {}  # scope key -> the first number free there (carried across chunks)
        self.forms: CorpusForms | None = None

    def finish_chunk(self, items: list[Anonymized], links: list[list[tuple[int, int]]]) -> Iterator[PairResult]:
        """Both passes on one chunk that is the whole corpus (``process_in_memory``)."""
        done, founds = self.transfer_chunk(items, links)
        targets = target_forms_of(founds) if self.forms is not None else TargetForms()
        yield from self.finish_transferred(items, links, done, targets)

    @staticmethod
    def _variants(items: list[Anonymized]) -> dict[str, dict[int, set[str]]]:
        variants: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
        for it in items:
            for m in it.mentions:
                variants[it.pair.doc][m.entity].add(m.text)
        return variants

    def transfer_chunk(self, items: list[Anonymized], links: list[list[tuple[int, int]]]
                       ) -> tuple[list[tuple[TransferResult, str]], list[TargetFound]]:
        """Pass 1: every pair's target mentions. Within a document, the target forms the transfer found in one
        pair are masked in the others (``European Regions Airline Association`` aligned in one pair is hidden
        in the next too, where no source mention pointed at it). Returns the results and each document's target
        forms, each with the source forms of its entity (for pass 2, across documents; ``paranon apply``
        replaces a document's)."""
        variants = self._variants(items)
        out: list[tuple[TransferResult, str]] = []
        founds: list[TargetFound] = []
        for doc, group in groupby(zip(items, links, strict=True), key=lambda x: x[0].pair.doc):
            found: TargetFound = {}
            founds.append(found)
            numbers = _form_numbers(variants[doc]) if self.forms is not None else None
            pairs = list(group)
            done = [self.transfer(it, lk, variants[doc], numbers) for it, lk in pairs]
            doc_forms, doc_numbers = CorpusForms(), {}
            firsts: dict[str, Mention] = {}
            earned: set[str] = set()
            aligned: dict[tuple[str, int], set[int]] = defaultdict(set)  # (form, entity) -> pairs aligning it
            for i, (tr, _) in enumerate(done):
                for m in tr.mentions:
                    key = form_key(m.text)
                    if is_target_form(m, key) and phrase_key(m.text) not in self.an.allow \
                            and (m.recognizer != "transfer:string" or self._source_spreads(m, key)):
                        firsts.setdefault(key, m)
                        if earned_by_step(m):
                            earned.add(key)
                        else:
                            aligned[key, m.entity].add(i)
                        found.setdefault(key, FormEvidence(CorpusForms.kind_of(m))).sources.update(
                            form_key(t) for t in variants[doc].get(m.entity, ()))
            most: dict[str, int] = defaultdict(int)
            for (key, _e), where in aligned.items():
                most[key] = max(most[key], len(where))
            for key, m in firsts.items():
                if key in earned or most[key] >= MIN_ALIGNED_PAIRS:  # the form earned its spread
                    doc_forms._add(key, m)
                    doc_numbers[key] = m.entity
                found[key].earned = found[key].earned or key in earned
                found[key].aligned += most[key]
            for (it, _lk), (tr, _scope) in zip(pairs, done, strict=True):
                p, ms = it.pair, it.mentions
                if doc_numbers:  # a target-only entity is the document's entity of the same form
                    tr.mentions = [replace(m, entity=doc_numbers[k]) if m.recognizer == "transfer:target_only"
                                   and (k := form_key(m.text)) in doc_numbers else m for m in tr.mentions]
                    extra = doc_forms.mentions(p.tgt, tr.mentions, EntityNumbers(0, doc_numbers))
                    extra = keep_source_decision(p.src, ms, self._with_source(ms, extra, tr, earned), self._public)
                    if extra:
                        tr.mentions = sorted(tr.mentions + extra, key=lambda m: m.start)
                        tr.steps["target_consistency"] = len(extra)
            out += done
        return out, founds

    def finish_transferred(self, items: list[Anonymized], links: list[list[tuple[int, int]]],
                           done: list[tuple[TransferResult, str]], targets: TargetForms) -> Iterator[PairResult]:
        """Pass 2: the target forms of the whole corpus masked where they still show (a translated name the
        alignment missed in this document but found in another), then the pairs replaced. An occurrence takes
        the number of this document's entity with the same source form. A form of ``free`` (an original's text,
        a date or identifier pattern: its occurrence is a leak) is masked wherever it shows, under a new number
        if the document has no such entity; a translated form only where its entity is on the pair's source
        side too (else it is counted as withheld: one entity, one number, both sides)."""
        variants = self._variants(items)
        forms, sources, free = targets.forms, targets.sources, targets.free
        assigned: dict[tuple[str, str], int] = {}
        src_numbers: dict[str, dict[str, int]] = {}
        for it, lk, (tr, scope_key) in zip(items, links, done, strict=True):
            p, ms = it.pair, it.mentions
            if forms is not None:
                hits = forms.find(p.tgt, tr.mentions)
                if hits:
                    if p.doc not in src_numbers:
                        src_numbers[p.doc] = _form_numbers(variants[p.doc])
                    extra = []
                    here = {m.entity for m in ms}
                    for s, e, key in hits:
                        if (scope_key, key) not in assigned:
                            same = [src_numbers[p.doc][k] for k in sources.get(key, ()) if k in src_numbers[p.doc]]
                            same = [n for n in same if n in here] if self.an.scope == "segment" else same
                            if not same and key not in free:  # a translation with no source entity here
                                tr.steps["target_spread_withheld"] += 1
                                continue
                            assigned[scope_key, key] = min(same) if same else self._new_number(scope_key, ms, tr, extra)
                        if key not in free and assigned[scope_key, key] not in here:  # not on this pair's source side
                            tr.steps["target_spread_withheld"] += 1
                            continue
                        kind = forms.kinds[forms.forms[key]]
                        extra.append(Mention(s, e, kind.category, p.tgt[s:e], "consistency",
                                             f"corpus-target:{kind.rule}", kind.subtype, 0.9, entity=assigned[scope_key, key]))
                    extra = keep_source_decision(p.src, ms, extra, self._public) if extra else extra
                    tr.mentions = sorted(tr.mentions + extra, key=lambda m: m.start)
                    if extra:
                        tr.steps["corpus_target_consistency"] = len(extra)
                    if self.an.allow:
                        self._keep_allowed_visible(it, lk, tr)
            settle(p.src, ms, tr)  # the source's public dates stay visible, spread English words unmasked
            yield self.replace(it, lk, tr, scope_key)

    def _public(self, src: str) -> list[Mention]:
        """The source segment's public mentions: where the source decided to keep a name visible."""
        return public_mentions(self.an, src)

    def _source_spreads(self, m: Mention, key: str) -> bool:
        """Whether the source side would spread this form of a name (its original's text): not when its words
        are all ordinary Portuguese words and none a name (``IEC``, ``ACP`` as ``_propagation_forms`` has it)."""
        if m.category not in ("PERSON", "ORGANIZATION"):
            return True
        lex, fw = self.an.lex, self.an.function_words
        words = key.split()
        return not all(w in lex.common or w in fw for w in words) or any(w in lex.first or w in lex.last for w in words)

    @staticmethod
    def _with_source(ms: list[Mention], extra: list[Mention], tr: TransferResult, free: set[str]) -> list[Mention]:
        """The spread target mentions of ``free`` forms (an original's text, a pattern's value: a leak where
        they show), and those whose entity is on the pair's source side too (one entity, one number, both
        sides); the others are counted as withheld."""
        here = {m.entity for m in ms}
        kept = [m for m in extra if m.entity in here or form_key(m.text) in free]
        if len(kept) < len(extra):
            tr.steps["target_spread_withheld"] += len(extra) - len(kept)
        return kept

    def _new_number(self, scope_key: str, ms: list[Mention], tr: TransferResult, extra: list[Mention]) -> int:
        """A new entity of the pair's scope (named by ``scope_key``), past every number the pair uses (and, beyond a
        segment, past every number the scope has used so far)."""
        used = [m.entity for m in ms + tr.mentions + extra]
        if self.an.scope == "segment":
            return EntityNumbers.above(used, 1).new()
        numbers = EntityNumbers.above(used, self.next_by_scope.get(scope_key, 0))
        n = numbers.new()
        self.next_by_scope[scope_key] = numbers.next
        return n

    def transfer(self, it: Anonymized, links: list[tuple[int, int]], variants: dict[int, set[str]],
                 numbers: dict[str, int] | None) -> tuple[TransferResult, str]:
        """The pair's target mentions. ``numbers`` (with corpus forms): the entity number of each form of the
        document (its mentions' variants), kept across the document's pairs so that a form found on the
        target side gets one number."""
        an = self.an
        p, ms, rep = it.pair, it.mentions, it.replaced
        scope_key = an.scope_key(p)
        if an.scope == "segment":
            scope_numbers = EntityNumbers.above((m.entity for m in ms), 1, numbers)
        else:
            scope_numbers = EntityNumbers(max(self.next_by_scope.get(scope_key, 0), it.next_free), numbers)
        start = scope_numbers.next
        tr = self.transferrer.transfer(ms, tokenize(rep.text), rep.mentions, p.tgt, links, variants, scope_numbers)
        trim_translated_heads(tr, rep.text, rep.mentions, p.tgt, links)  # "Regulation of the" <ORG>
        if self.forms is not None:  # entity forms of the whole corpus, on the target side too
            assert numbers is not None  # finish_chunk makes them once per document
            scope_numbers.past((m.entity for m in tr.mentions), start)
            extra = self.forms.mentions(p.tgt, tr.mentions, scope_numbers)
            extra = keep_source_decision(p.src, ms, extra, self._public) if extra else extra
            if extra:
                tr.mentions = sorted(tr.mentions + extra, key=lambda m: m.start)
                tr.steps["consistency"] = len(extra)
        if an.allow:
            self._keep_allowed_visible(it, links, tr)
        if an.scope != "segment":
            self.next_by_scope[scope_key] = scope_numbers.past((m.entity for m in tr.mentions), start)
        return tr, scope_key

    def _keep_allowed_visible(self, it: Anonymized, links: list[tuple[int, int]], tr: TransferResult) -> None:
        """The allow list on the target side: an allowed form, or the words aligned to an allowed source form,
        stay visible (``Parlamento Europeu`` allowed keeps ``European Parliament``)."""
        if not tr.mentions:
            return  # nothing to keep visible: no tokenizing
        p, ms, rep = it.pair, it.mentions, it.replaced
        src_toks = allowed_source_tokens(rep.text, tokenize(rep.text), self.an.allow, self.allow_gate)
        protected = {j for i, j in links if i in src_toks}
        src_forms: dict[int, set[str]] = {}
        for m in ms:
            src_forms.setdefault(m.entity, set()).add(phrase_key(m.text))
        kept = drop_allowed(tr.mentions, p.tgt, tokenize(p.tgt) if protected else [], self.an.allow, protected,
                            src_forms)
        if len(kept) != len(tr.mentions):
            tr.steps["allowed_visible"] += len(tr.mentions) - len(kept)
            tr.mentions = kept

    def replace(self, it: Anonymized, links: list[tuple[int, int]], tr: TransferResult, scope_key: str) -> PairResult:
        """The finished pair: the target replaced, the links mapped onto the replaced texts."""
        an = self.an
        p, ms, rep = it.pair, it.mentions, it.replaced
        tgt_rep = apply_mentions(p.tgt, tr.mentions, an.ops, scope_key)
        tgt_links = map_links(links, tokenize(p.tgt), tgt_rep.text, tgt_rep.replacements)
        ap = AnonymizedPair(id=p.id, doc=p.doc, src=rep.text, tgt=tgt_rep.text, src_lang=self.src_lang,
                            tgt_lang=self.tgt_lang, meta=p.meta, src_mentions=rep.mentions,
                            tgt_mentions=tgt_rep.mentions, alignment=tgt_links,
                            src_inline=_remap_inline(p.src_inline, rep.replacements),
                            tgt_inline=_remap_inline(p.tgt_inline, tgt_rep.replacements))
        return PairResult(ap, ms, tr.mentions, tr, scope_key)


