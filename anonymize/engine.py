"""The anonymize stage for the source side: recognize -> allow/propagate -> number -> replace.

One :class:`Anonymizer` per process. It works a document at a time, because
propagation (every other occurrence of a found name in the document) and the
numbering of name variants both need the whole document.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex
import spacy
from spacy.symbols import ORTH

from ..corpora.model import Mention, SegmentPair
from ..settings import AnonymizeSettings
from ..text import fold, fold_same_length, phrase_key
from ..yaml_files import read_yaml
from . import recognizers as _recognizers  # noqa: F401  (registers the plug-ins)
from .aliases import defined_aliases
from .chains import ChainRules, analyse, lower_vocabulary
from .consistency import stands_alone
from .dictionary import english_zipf, lemma_or_inflection
from .forms import company_short_forms, find_words, name_breaks
from .labels import RecordLabels
from .lexicons import lexicons
from .numbering import (
    Constraints,
    Numberer,
    companies_named_short,
    entity_key,
    name_tokens,
    organization_aliases,
)
from .operators import Operators
from .recognizer import (
    REGISTRY,
    DocumentMemory,
    Recognizer,
    Segment,
    SegmentAnalysis,
    alternation,
    numbered_act_nouns,
)
from .recognizers.date import CITATION_WINDOW
from .segment_memo import SeenAcronyms, SeenSet, SegmentMemo

DATA = Path(__file__).parent / "data"
NO_BREAK_SPACES = str.maketrans({"\xa0": " ", "\u202f": " "})
NAME_PART = regex.compile(r"[\p{L}'’-]+")  # the words of a name, for its surname
# rules that read one unknown word as a name, by the fall-back mid-sentence or by a company's context (a brand
# wordfreq counts as a word: "os clientes da Xpto", "a Xpto anunciou"): their form spreads in the document
ENGLISH_WORD_ZIPF = 4.0  # a word this frequent in English is no given name of its own (Internet, Tour)
LONE_NAME_RULES = ("fallback:unknown-proper-noun", "fallback:unknown-word", "company-possession",
                   "business-subject")  # (spread only as written)
COORDINATION = regex.compile(r"\s*,\s*|\s+e\s+")  # places listed: "faroe e gronelandia", "hungria, malta"
CATEGORY_PRIORITY = {"ADDRESS": 0, "NAMEID": 1, "DATE": 2, "ORGANIZATION": 3, "PERSON": 4, "PUBLIC_ID": 5}
PRIVATE_PARTIES = frozenset({"PERSON", "ADDRESS", "NAMEID"})  # (and companies): beside an act's date, its private event


def build_recognizers(a: AnonymizeSettings | dict[str, Any], rules: dict[str, Any], lex: Any) -> list[Recognizer]:
    """The recognizers ``anonymize.recognizers`` names, in its order, each built the same way: its
    ``recognizer_options`` (a recognizer with none there has none) and the settings it names (the deny
    list's ``deny``, the models' ``models``)."""
    a = AnonymizeSettings.of(a)
    out: list[Recognizer] = []
    for name in a.recognizers:
        cls = REGISTRY.get(name)
        if cls is None:
            raise ValueError(f"anonymize.recognizers: unknown recognizer {name!r} (known: {', '.join(sorted(REGISTRY))})")
        o = dict(a.recognizer_options.get(name) or {})
        for key in cls.settings:
            o[key] = getattr(a, key)
        out += cls.build(rules, lex, o)
    return out


def load_rules(name: str) -> dict[str, Any]:
    path = Path(name) if name.endswith(".yaml") else DATA / f"{name}.yaml"
    if not path.exists():
        raise FileNotFoundError(f"{path}: no rules file for {name!r}")
    # BaseLoader: every scalar stays a string (YAML 1.1 would read "no" and "on" as booleans)
    return read_yaml(path, strings=True)


def build_tokenizer(rules: dict[str, Any]) -> spacy.language.Language:
    """A blank spaCy pipeline for the rules' language, with legal abbreviations kept whole."""
    nlp = spacy.blank(rules["language"])
    for exc in rules.get("tokenizer_exceptions", []):
        for form in {exc, exc.upper(), exc.capitalize()}:
            nlp.tokenizer.add_special_case(form, [{ORTH: form}])
    return nlp


def act_dates_beside_private_parties(found: list[list[Mention]]) -> None:
    """In a legal act a date is the act's (public: ``act_date``) unless its segment names a private party: a
    person, a company, an address or an identifier beside it dates that party's event, and stays a DATE. The
    date of a cited act (``act_date:cited``: "Decisão da Comissão, de 4 de abril de 2017, relativa à X Lda.")
    stays public unless a private party is named in the citation before it."""
    for ms in found:
        private = [m for m in ms if m.category in PRIVATE_PARTIES or m.category == "ORGANIZATION" and m.subtype == "COMPANY"]
        for m in ms if private else ():
            if m.rule == "act_date" or m.rule == "act_date:cited" and any(
                    m.start - CITATION_WINDOW <= p.start < m.start for p in private):
                m.category, m.rule = "DATE", "act_date:private-party"


@dataclass
class Replaced:
    """One side after replacement. ``mentions`` are in new coordinates but keep the original text (private)."""

    text: str
    mentions: list[Mention]
    replacements: list[tuple[int, int, int]] = field(default_factory=list)


def apply_mentions(text: str, mentions: list[Mention], ops: Operators, scope_key: str = "") -> Replaced:
    """Replace each mention by its operator's output, left to right."""
    out: list[str] = []
    new_mentions: list[Mention] = []
    reps: list[tuple[int, int, int]] = []
    pos = 0
    shift = 0
    for m in sorted(mentions, key=lambda x: x.start):
        if m.start < pos:
            continue
        out.append(text[pos:m.start])
        rep = ops.render(m, scope_key)
        start = m.start + shift
        out.append(rep)
        new_mentions.append(Mention(start=start, end=start + len(rep), category=m.category, text=m.text,
                                    recognizer=m.recognizer, rule=m.rule, subtype=m.subtype, score=m.score,
                                    entity=m.entity))
        reps.append((m.start, m.end, len(rep)))
        shift += len(rep) - (m.end - m.start)
        pos = m.end
    out.append(text[pos:])
    return Replaced("".join(out), new_mentions, reps)


def resolve(found: list[Mention], new: list[Mention]) -> list[Mention]:
    """Add ``new`` mentions that overlap nothing already found (earlier recognizers win)."""
    added: list[Mention] = []
    if not new:
        return added
    # the characters already taken, as a map: a check in time of the mention, not of the mentions found
    # (a long entity-dense segment made it quadratic)
    taken = bytearray(max(m.end for m in (*found, *new)) + 1)
    for f in found:
        taken[f.start:f.end] = b"\x01" * (f.end - f.start)
    for m in sorted(new, key=lambda x: (x.start, -(x.end - x.start))):
        if m.start >= m.end:  # an empty span overlaps a mention it is strictly inside
            if any(f.start < m.start < f.end for f in found + added):
                continue
        elif taken.find(1, m.start, m.end) >= 0:
            continue
        added.append(m)
        taken[m.start:m.end] = b"\x01" * (m.end - m.start)
    return added


class Anonymizer:
    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        a = AnonymizeSettings.of(cfg["anonymize"])
        self.rules = load_rules(a.rules)
        self.lex = lexicons()
        self.nlp = build_tokenizer(self.rules)
        # the recognizers read a token's text, offset and trailing space only: computing each new word's
        # lexical attributes (shape, norm, like_num, stop word ...) was half the tokenizer's time
        self.nlp.vocab.lex_attr_getters = {}
        self.tokenize = self.nlp.tokenizer  # a blank pipeline: the tokenizer is all ``nlp(text)`` would run
        self.categories = set(a.categories)
        self.ops = Operators(cfg["anonymize"])
        self.scope = a.scope
        if self.scope not in ("segment", "document", "corpus"):
            raise ValueError(f"anonymize.scope: {self.scope!r} is not segment, document or corpus")
        self.chain_rules = ChainRules(self.rules)
        # titles, +HUM nouns and occupations before a name (Rainha Margarida): no part of the name that spreads
        self.derived = tuple(fold(e) for e in self.rules.get("fallbacks", {}).get("derived_endings", []))
        self.person_roles = self.chain_rules.titles | self.chain_rules.hum \
            | {fold(w) for w in self.rules["person"].get("name_nouns", [])}
        self.labels = RecordLabels(self.rules.get("record_labels", []))
        self.numberer = Numberer(frozenset(self.chain_rules.particles), float(a.clustering.threshold),
                                 Constraints(a.same_entity, a.different_entities))
        self._aliases: dict[str, str] = {}  # the document's defined aliases (recognize_document), for number()
        self.propagate = a.propagate
        self.function_words = {fold(w) for w in self.rules.get("function_words", [])}
        allow = list(a.allow)
        for f in a.allow_files:
            p = Path(f) if Path(f).exists() else DATA / f
            allow += read_yaml(p) or []
        allow += self.rules["polities"]  # the EU, the Communities, the Member States: public, like places
        self.allow = {phrase_key(x) for x in allow}
        self.territory_ends, self.territory_starts = self._territory_parts()
        self.polity_short_forms = {phrase_key(short): list(longs)
                                   for short, longs in self.rules["polity_short_forms"].items()}
        # per document: strings a reviewer said are not entities there (paranon review -> review.yaml)
        self.allow_in_documents = {str(doc): {phrase_key(x) for x in items}
                                   for doc, items in a.allow_in_documents.items()}
        # a segment's public mentions by its text (corpus.public_mentions): the consistency and transfer stages read
        # a repeated segment's again
        self.public_memo: dict[str, list[Mention]] = {}
        self.name_break = name_breaks(self.rules)
        # a legal act's numbered title, opening a document ("Decisão n.o 3/2019 do Conselho ...", "DECISÃO DO
        # COMITÉ MISTO DO EEE N.o 12/2019"): the document is legislation (its dates are public, see date.py)
        self.act_title = regex.compile(rf"\s*(?i:{alternation(numbered_act_nouns(self.rules))})(?![\p{{L}}])[^.;]{{0,120}}?"
                                       rf"(?:(?<![\p{{L}}])(?i:n)\.?\s?[º°o]\.?\s*\d{{1,4}}/\d{{4}}(?!\d)"
                                       rf"|\((?:UE|CE|CEE|Euratom)[^)]{{0,20}}\)\s*\d{{4}}/\d{{1,4}}(?!\d))")
        self.recognizers = build_recognizers(a, self.rules, self.lex)
        # repeated texts recognized once, unless a recognizer keeps per-document state it cannot name
        self.memo = SegmentMemo() if all(r.memo_safe() for r in self.recognizers) else None
        self.document_state = self._recognizers_state()

    def _territory_parts(self) -> tuple[dict[str, set[str]], set[str]]:
        """The ends of countries' names of several words ("unidos da america" -> "estados"): a name found there
        is the country cut by the sentence-start rule ("ESTADOS UNIDOS DA AMÉRICA"), a public place; and the first
        words of countries' official long names ("reino unido da gra-bretanha"): a name cut there is the country's
        (the long name goes on "e da Irlanda do Norte", with particles the list does not have)."""
        ends: dict[str, set[str]] = {}
        for name in self.lex.territories:
            words = name.split()
            for k in range(1, len(words)):
                ends.setdefault(" ".join(words[k:]), set()).add(" ".join(words[:k]))
        starts = {" ".join(w[:k]) for w in (t.split() for t in self.lex.territories) for k in range(3, len(w))}
        return ends, starts

    # -- recognition -------------------------------------------------------
    def recognize(self, text: str, memory: DocumentMemory | None = None) -> list[Mention]:
        """All mentions in one text, original coordinates, categories not yet filtered (a text seen before with
        the same answers from the document's memory: the result kept then, see segment_memo.py)."""
        memory = memory or DocumentMemory()
        if self.memo is None:
            found, learned = self._recognize(text, memory)
        else:
            key = (text, memory.act_document, bool(memory.lower_vocab), self.document_state)
            hit = self.memo.get(key, memory.lower_vocab, memory.acronyms)
            if hit is None:
                words, acronyms = SeenSet(memory.lower_vocab), SeenAcronyms(memory.acronyms)
                found, learned = self._recognize(text, DocumentMemory(acronyms, words, memory.act_document))
                self.memo.put(key, found, learned, words, acronyms)
            else:
                found, learned = hit
        memory.acronyms.update(learned)  # what the segment taught, for the rest of the document
        return found

    def _recognize(self, text: str, memory: DocumentMemory) -> tuple[list[Mention], dict]:
        """The mentions of one text and the acronyms it taught."""
        # no-break spaces (EU legislation writes "27\xa0de outubro", "Unidos da\xa0América") read as spaces: one
        # character for one, so offsets hold; the mentions keep the original's characters
        seen = text.translate(NO_BREAK_SPACES) if "\xa0" in text or "\u202f" in text else text
        doc = self.tokenize(seen)
        # the shared analysis, once per segment: every recognizer reads the same chains
        analysis = SegmentAnalysis(analyse(doc, self.chain_rules, self.lex, memory.lower_vocab, seen),
                                   self.chain_rules, doc, memory)
        seg = Segment(text=seen, doc=doc, memory=memory, analysis=analysis)
        for rec in self.recognizers:
            seg.found += resolve(seg.found, rec.find(seg))
        if seen is not text:
            for m in seg.found:
                m.text = text[m.start:m.end]
        kept = [m for m in self.labels.trimmed(seg.found)
                if phrase_key(m.text) not in self.allow and not self._country_end(seen, m)]
        return sorted(kept, key=lambda m: m.start), analysis.learned

    def _recognizers_state(self) -> tuple:
        return tuple(r.document_state() for r in self.recognizers)

    def _country_end(self, text: str, m: Mention) -> bool:
        """Whether a name is a country's name with function words after it ("ESTADOS UNIDOS DA AMÉRICA E A"),
        or the end of a country's name whose first words stand just before it."""
        if m.category not in ("PERSON", "ORGANIZATION"):
            return False
        key = phrase_key(m.text)
        words = key.split()
        while len(words) > 1 and words[-1] in self.function_words:
            words.pop()
        if (len(words) > 1 or len(words) < len(key.split())) and " ".join(words) in self.lex.territories:
            return True
        if key in self.territory_starts:
            return True
        parts = COORDINATION.split(key)
        if len(parts) > 1 and all(p in self.lex.territories or p in self.territory_ends or p in self.allow for p in parts):
            return True  # "Faroé e Gronelândia" (after "Ilhas"), "Hungria, Malta": places listed
        heads = self.territory_ends.get(key)
        if not heads:
            return False
        before = phrase_key(text[max(0, m.start - 40):m.start])
        return any(before.endswith(h) and (len(before) == len(h) or before[-len(h) - 1] == " ") for h in heads)

    def _propagation_forms(self, mentions: list[Mention], lower_vocab: frozenset[str] | set[str] = frozenset()
                           ) -> dict[str, Mention]:
        """Every found entity string, and each person's surname, folded, with the mention it came from. A lone
        unknown word the fall-back read as a name mid-sentence is the same name where it opens a sentence."""
        forms: dict[str, Mention] = {}
        for m in mentions:
            if m.category not in ("PERSON", "ORGANIZATION") or m.score < 0.5 and m.rule not in LONE_NAME_RULES:
                continue
            key = phrase_key(m.text)
            words = key.split()
            ordinary = all(w in self.lex.common or w in self.function_words for w in words) \
                and not any(w in self.lex.first or w in self.lex.last for w in words)
            alias = m.recognizer == "alias"  # defined by the text itself: short or spelt like a word, still a name
            # (a lone name the dictionary lacks spreads though wordfreq counts it: its test was the dictionary)
            if (len(key) >= 3 or alias) and key not in self.allow \
                    and (alias or not ordinary or m.rule in LONE_NAME_RULES) \
                    and m.text[:1].isupper():
                forms.setdefault(key, m)
            if m.category == "ORGANIZATION" and m.rule == "tail":
                # a company is named later by the words before its legal form, or by their first two
                # (Tintas Belmiro & Irmão, Lda. -> Tintas Belmiro & Irmão, Tintas Belmiro)
                for short in company_short_forms(m.text, self.name_break):
                    f = phrase_key(short)
                    words = f.split()
                    if f in self.allow:
                        continue
                    # (ordinary words, "Madeira Verde", name the company only as written: capitalized)
                    ordinary = all(w in self.lex.common or w in self.function_words for w in words)
                    forms.setdefault(f, Mention(0, 0, m.category, short, "propagation",
                                                "short-form-as-written" if ordinary else "short-form", m.subtype))
            if m.category == "PERSON":
                for part, kind in self._name_part_forms(m, lower_vocab):
                    forms.setdefault(fold(part), Mention(0, 0, "PERSON", part, "propagation", kind))
        return forms

    def _name_part_forms(self, m: Mention, lower_vocab: frozenset[str] | set[str]) -> list[tuple[str, str]]:
        """The parts of a person's full name that name the person alone later in the document: the surname and the
        given name ("Rousseff" and "Dilma" of "Dilma Rousseff"). A part that is also a word (Trump, Coelho, Rosa)
        is the person's wherever the document never writes it in lower case; places and allowed words stay."""
        parts = [w for w in NAME_PART.findall(m.text) if len(w) >= 4 and fold(w).rstrip(".") not in self.person_roles]
        if len(name_tokens(m.text, self.numberer.particles)) < 2 or not parts:
            return []
        inverted = "," in m.text  # (PÉREZ RODRÍGUEZ, Pedro)
        chosen = {parts[0] if inverted else parts[-1]: "surname"}
        chosen.setdefault(parts[-1] if inverted else parts[0], "given-name")
        out = []
        for part, kind in chosen.items():
            f = fold(part)
            if kind == "given-name":  # (only of a name the safe person rules found, never written in lower case, a
                # given name or no word of the dictionary nor of English: "Dilma" of "Dilma Rousseff", not "Reforma"
                # of "Reforma X", "Internet" of "Internet X")
                sure = m.recognizer == "person" and f not in lower_vocab and (f in self.lex.first or not (
                    lemma_or_inflection(f) or f.endswith(self.derived) or english_zipf(f) >= ENGLISH_WORD_ZIPF))
            else:
                sure = f not in self.lex.common or f in self.lex.last or m.recognizer == "person" and f not in lower_vocab
            if sure and f not in self.lex.places and f not in self.allow:
                out.append((part, kind))
        return out

    def recognize_document(self, texts: list[str]) -> list[list[Mention]]:
        """Recognize every segment of a document, then propagate its entities to every segment."""
        memory = DocumentMemory(lower_vocab=lower_vocabulary(texts),
                                act_document=bool(texts) and self.act_title.match(texts[0]) is not None)
        for rec in self.recognizers:  # (a statistical model runs on the whole document at once)
            rec.prepare(texts)
        self.document_state = self._recognizers_state()
        found = [self.recognize(t, memory) for t in texts]
        public = self._polities_named(texts)
        if public:  # "a União" of a text that names the European Union is the Union
            found = [[m for m in ms if phrase_key(m.text) not in public] for ms in found]
        self._aliases = {entity_key(Mention(0, 0, cat, acr, "")): entity_key(Mention(0, 0, cat, long, ""))
                         for acr, (cat, _sub, long) in memory.acronyms.items()}
        for k, text in enumerate(texts):
            # "Agência de Registos do Norte (ARN)", "(doravante “Belmiro”)": the alias is the entity's
            extra = []
            for s, e, src in defined_aliases(text, found[k], self._ordinary_word):
                if " ".join(fold(w) for w in text[s:e].split()) in self.lex.territories or self.lex.is_place(text[s:e]):
                    continue  # "Jan KOWALCZYK (França)", "Banco Atlântico (Cabo Verde)": a country or a town, public
                extra.append(Mention(s, e, src.category, text[s:e], "alias", "defined-alias", src.subtype, 0.9))
                self._aliases[entity_key(extra[-1])] = entity_key(src)
            if extra:
                found[k] = self._add_sure(found[k], extra)
        if self.propagate:
            forms = self._propagation_forms([m for ms in found for m in ms], memory.lower_vocab)
            if forms:
                for k, text in enumerate(texts):
                    extra = []
                    for s, e, key in find_words(fold_same_length(text), forms):
                        if not text[s].isupper():
                            continue  # names are capitalized: "por" is not "Por", "erga omnes" not "ERGA OMNES"
                        src = forms[key]
                        if (src.rule in LONE_NAME_RULES or src.rule == "short-form-as-written") and text[s:e] != src.text:
                            continue  # a guessed lone name spreads only as it was written (not UFIRS for Ufirs)
                        if src.rule == "given-name" and not stands_alone(text, s, e):
                            continue  # "Paulo" of Paulo Maluf is not the person inside "São Paulo"
                        extra.append(Mention(s, e, src.category, text[s:e], "propagation",
                                             f"same-document:{src.rule}", src.subtype, 0.9))
                    if extra:
                        found[k] = self._add_sure(found[k], extra)
        if memory.act_document:
            act_dates_beside_private_parties(found)
        return [[m for m in ms if m.category in self.categories] for ms in found]

    def _polities_named(self, texts: list[str]) -> set[str]:
        """The short forms (``União``) whose polity the document names in full (``União Europeia``, ``UE``)."""
        out = set()
        for short, longs in self.polity_short_forms.items():
            if any(find_words(t, longs) for t in texts):
                out.add(short)
        return out

    @staticmethod
    def _add_sure(found: list[Mention], extra: list[Mention]) -> list[Mention]:
        """Add mentions a sure rule made elsewhere in the document (propagation, aliases): they beat a
        fall-back's guess at the same words (``a Tintas Belmiro``: the company's short form, not a person); a
        company's short form or a defined alias also beats shorter mentions inside it (``Sol`` and ``Mar`` inside
        the company ``Sol OK Mar``)."""
        by_start = sorted(extra, key=lambda x: x.start)
        starts = [x.start for x in by_start]
        longest = max((x.end - x.start for x in extra), default=0)

        def covering(m: Mention) -> list[Mention]:  # the extra mentions around m, by bisection (not all of them)
            return by_start[bisect_left(starts, m.start - longest):bisect_right(starts, m.start)]

        guesses = {id(m) for m in found if any(x.start <= m.start and m.end <= x.end and (
            m.score <= 0.6 and x.category != m.category
            or x.rule.endswith(("short-form", "defined-alias")) and x.end - x.start > m.end - m.start)
            for x in covering(m))}
        kept = [m for m in found if id(m) not in guesses]
        return sorted(kept + resolve(kept, extra), key=lambda m: m.start)

    def _ordinary_word(self, word: str) -> bool:
        return self.lex.is_ordinary(word, 1.5)

    # -- numbering and replacement -------------------------------------------
    def number(self, per_segment: list[list[Mention]]) -> None:
        if self.scope == "segment":
            for ms in per_segment:
                self.numberer.start_scope()
                self.numberer.assign(ms)
            return
        if self.scope == "document":
            self.numberer.start_scope()
        flat = [m for ms in per_segment for m in ms]
        # an acronym after its long form, ``Long Form (LF)``, joins the long form's entity; so does an
        # organisation's short form (``o Grupo RX`` for ``Grupo RX Engenharia e Obras Ltda.``)
        companies_named_short(flat)
        aliases = organization_aliases(flat)
        aliases.update(self._aliases)
        self.numberer.assign(flat, aliases)

    def anonymize_document(self, pairs: list[SegmentPair]) -> list[tuple[list[Mention], Replaced]]:
        """Source-side result for every pair of one document, in order."""
        per_segment = self.recognize_document([p.src for p in pairs])
        not_here = self.allow_in_documents.get(pairs[0].doc) if pairs and self.allow_in_documents else None
        if not_here:
            per_segment = [[m for m in ms if phrase_key(m.text) not in not_here] for ms in per_segment]
        self.number(per_segment)
        out = []
        for p, ms in zip(pairs, per_segment, strict=True):
            out.append((ms, apply_mentions(p.src, ms, self.ops, self.scope_key(p))))
        return out

    def scope_key(self, pair: SegmentPair) -> str:
        return {"segment": pair.id, "document": pair.doc, "corpus": ""}[self.scope]

