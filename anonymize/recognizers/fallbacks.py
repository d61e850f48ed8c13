"""Recall fall-backs from the literature (Bick & Barreiro, Table 7), each switchable in the config.

* ``upper``: remaining all-uppercase proper nouns -> ORGANIZATION (unless every word is an
  ordinary Portuguese word, a defined term such as ``a CONTA``, or a public place);
* ``compound``: remaining multi-word capitalized sequences with a word that is not an
  ordinary word -> PERSON; a lone unknown capitalized word inside a sentence -> PERSON;
* ``numeric``: remaining identifier-shaped numbers -> NAMEID.
"""

from __future__ import annotations

import regex

from ...text import fold
from ..chains import ORDINAL
from ..lexicons import zipf
from ..recognizer import Recognizer, Segment, register
from .organization import chain_rules, chains_of

ROMAN = regex.compile(r"^(?=[MDCLXVI])M*(C[MD]|D?C{0,3})(X[CL]|L?X{0,3})(I[XV]|V?I{0,3})$")
# long digit runs or letter-digit codes; amounts (1.234.567,89), percentages and years are left alone
ID_SHAPE = regex.compile(
    r"(?<![\p{L}\d.,/-])(?:\d{6,}|(?=[\p{L}\d/-]*\d[\p{L}\d/-]*\d[\p{L}\d/-]*\d)(?=[\d/-]*\p{L})[\p{L}\d]+(?:[/-][\p{L}\d]+)+"
    r"|\d{2,}[/-]\d{2,}[/-]?[\p{L}\d]*)(?![\p{L}\d]|[.,]\d)")
MONEY = regex.compile(r"^\d{1,3}(?:[.\s]\d{3})+(?:,\d+)?$")
YEAR_RANGE = regex.compile(r"^(?:19|20)\d{2}-(?:(?:19|20)\d{2}|\d{2})$")  # a period, 2015-2017, 2019-20


def ordinary_phrase(lex, words: list[str], min_zipf: float) -> bool:
    """Whether capitalized words read as a heading or a titled concept rather than a name: two or more
    words, every one ordinary (see ``Lexicons.is_ordinary``), one of them at most a surname that is also a
    common word (``Chefe do Poder Executivo``; ``Tarcísio Vieira de Carvalho Neto`` has three and stays a
    name); never a first name."""
    words = [w.strip(".,;:()") for w in words if len(w.strip(".,;:()")) > 2]
    if len(words) < 2:
        return False
    surnames = 0
    for w in words:
        if not lex.is_ordinary(w, min_zipf):
            if not lex.is_ordinary(w, min_zipf, surnames_too=True):
                return False
            surnames += 1
    return surnames <= 1


def ordinary_min_zipf(rules) -> float:
    """The wordfreq frequency from which a word is ordinary (``fallbacks.ordinary_min_zipf`` in the rules).

    wordfreq is imported and its Portuguese list loaded here, when the recognizer is built, not at the first
    word looked up: the pipeline builds its recognizers before it forks its workers, which then share the
    list instead of each spending half a second of CPU loading it again."""
    zipf("de")
    return float(rules.get("fallbacks", {}).get("ordinary_min_zipf", 1.5))


@register("fallback_upper")
class UppercaseFallback(Recognizer):
    assigns = ("ORGANIZATION",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        # trigger words, taxes, document parts; and role nouns and titles standing alone (IMPETRANTE, RELATOR)
        crules = chain_rules(rules)
        self.not_names = crules.not_names | crules.hum | crules.titles
        self.min_zipf = ordinary_min_zipf(rules)
        self.derived = tuple(rules.get("fallbacks", {}).get("derived_endings", []))

    def find(self, seg: Segment) -> list:
        out = []
        for ch in chains_of(seg, self.rules, self.lex):
            if not ch.all_upper or seg.covered(ch.start, ch.end):
                continue
            content = [w.rstrip(".") for w in ch.content]
            content = [w for w in content if len(w) > 1 and not ROMAN.match(w)]
            # a capitals word without a vowel (STF, MPS, CJM) is an acronym even if a word list knows it
            content = [w for w in content if not any(c.isdigit() for c in w)]
            acronym = any(len(w) > 2 and not VOWELS.search(w) and fold(w) not in self.not_names for w in content) \
                or "/" in ch.words \
                or self._lone_acronym(seg, ch, content)
            # ("/": CREA/DF, RPPS/MT, a body and its state, whatever a word list says of the parts)
            if not acronym and all(fold(w) in self.not_names or self.lex.is_common(w) for w in content):
                continue
            if not content or not acronym and ch.common + ch.places >= len(ch.content):
                continue
            if not acronym and ordinary_phrase(self.lex, content, self.min_zipf):
                continue  # a heading: NEGO PROVIMENTO AO RECURSO DE APELAÇÃO
            if not acronym and self._heading(seg, content):
                continue
            start = ch.start
            if ch.start_tok > 0 and ORDINAL.match(seg.doc[ch.start_tok - 1].text):
                start = seg.doc[ch.start_tok - 1].idx  # "3ª CJM/SP": a numbered body
            out.append(self.mention(seg, start, ch.end, "ORGANIZATION", "fallback:all-upper", score=0.6))
        if "-" in seg.text:
            for m in NUMBERED_ACRONYM.finditer(seg.text):
                if fold(m.group("acr")) not in self.not_names and not seg.covered(m.start(), m.end()) \
                        and not any(x.start < m.end() and m.start() < x.end for x in out):
                    out.append(self.mention(seg, m.start(), m.end(), "ORGANIZATION", "fallback:numbered-acronym",
                                            score=0.5))
        return out

    def _lone_acronym(self, seg: Segment, ch, content: list[str]) -> bool:
        """A short capitals word in running text (``o CREA e o CAU têm``, ``Acórdão 2.634/2016 - TCU``) that the
        document never writes in lower case and that is rare as a word (a wordfreq Zipf below 3.5): an acronym,
        though a word list knows a word spelt so (``crea``, ``cau``); ``a CONTA`` is a frequent word. A rare word in capitals
        that the document never writes otherwise is masked too (``o ÔNUS``): recall first."""
        if len(content) != 1 or not 3 <= len(content[0]) <= 5 or ch.end_tok - ch.start_tok != 1:
            return False
        w, doc = content[0], seg.doc
        f = fold(w)
        if f in self.not_names or f in seg.memory.lower_vocab or self.lex.is_name(w) or self.lex.is_place(w) \
                or zipf(w.lower()) >= 3.5:
            return False
        running = seg.__dict__.get("running_text")
        if running is None:  # (once per segment: several capitals words may ask)
            words = [t.text for t in doc if t.text.isalpha() and len(t.text) > 1]
            running = seg.__dict__["running_text"] = sum(t.islower() for t in words) * 2 > len(words)
        return running  # running text, not a heading in capitals

    def _heading(self, seg: Segment, content: list[str]) -> bool:
        """A run of capitals words, no first name among them, every one ordinary but one at most, and that
        one with the ending of a derived word (``fallbacks.derived_endings``): a heading (``REDISCUSSÃO DA
        MATÉRIA``, ``DENEGATÓRIA DO DIREITO DE RECORRER EM LIBERDADE``; ``ATRIBUIÇÕES DA ADASA`` stays).
        Besides the lexicons, a word is ordinary if the document also writes it in lower case and no name
        list knows it; a hyphenated word if each part is (``VOTO-VISTA``)."""
        words = [w for w in content if len(w) > 2]
        if len(words) == 1 and "-" in words[0]:  # VOTO-VISTA; not CREA-DF, TJ-SP
            parts = words[0].split("-")
            return all(len(p) > 3 and self._ordinary(seg, p) for p in parts)
        if len(words) < 2 or any(fold(w) in self.lex.first for w in words):
            return False
        odd = [w for w in words if not all(self._ordinary(seg, p) for p in w.split("-") if p)]
        return not odd or len(odd) == 1 and len(odd[0]) >= 7 and odd[0].lower().endswith(self.derived)

    def _ordinary(self, seg: Segment, word: str) -> bool:
        f = fold(word)
        return f in self.not_names or self.lex.is_ordinary(word, self.min_zipf, surnames_too=True) or (
            f in seg.memory.lower_vocab and not self.lex.is_name(word))


def spaced_letters(words: list[str]) -> bool:
    """``R E L A T Ó R I O``, ``V O T O``: a heading typed letter by letter (three single letters in a row)."""
    run = 0
    for w in words:
        run = run + 1 if len(w) == 1 and w.isalpha() else 0
        if run >= 3:
            return True
    return False


VOWELS = regex.compile(r"[AEIOUYÁÉÍÓÚÂÊÔÃÕÀÜaeiouy]")
# a capitalized word with a capitals part: ICP-Brasil, CREA/DF, CAU/DF
MIXED_ACRONYM = regex.compile(r"^(?=.*\p{Lu}{2})[\p{L}]+(?:[-/][\p{L}]+)+$")


@register("fallback_compound")
class CompoundFallback(Recognizer):
    assigns = ("PERSON", "ORGANIZATION")

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        self.min_zipf = ordinary_min_zipf(rules)
        crules = chain_rules(rules)
        self.heads = crules.org_heads
        self.roles = {t.rstrip(".") for t in crules.titles | crules.hum}

    def find(self, seg: Segment) -> list:
        out = []
        single = self.options.get("single_unknown", True)
        for ch in chains_of(seg, self.rules, self.lex):
            if ch.all_upper or seg.covered(ch.start, ch.end) or spaced_letters(ch.words) \
                    or ch.extra.get("territory") or ch.extra.get("concept"):
                continue  # (countries and legal concepts, Reino da Dinamarca, Direito do Mar, are public)
            content = ch.content
            odd = ch.unknown + ch.first_names + ch.surnames
            named = ch.first_names + ch.surnames
            if len(content) == 1 and MIXED_ACRONYM.match(content[0]) and not ch.all_upper:
                out.append(self.mention(seg, ch.start, ch.end, "ORGANIZATION", "fallback:acronym-compound",
                                        score=0.5))
            elif len(content) >= 2 and odd and ch.places < len(content) and (named or ch.unknown > ch.common) \
                    and odd > ch.extra.get("ambiguous", 0):
                if any(w.isupper() and len(w) > 1 for w in content):  # "Estados do APE SADC": acronyms name bodies
                    out.append(self.mention(seg, ch.start, ch.end, "ORGANIZATION", "fallback:compound-acronym",
                                            score=0.5))
                else:
                    out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:compound", score=0.5))
            elif len(content) >= 2 and named and ch.places < len(content) and all(
                    self.lex.is_name(w) or self.lex.is_place(w) for w in content):
                # every word a name or a place, one at least a name: "Moura e Abrantes" (surnames that are also
                # ordinary words or towns, which the ambiguity guard above lets pass)
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:name-words", score=0.4))
            elif len(content) >= 3 and not ch.sentence_initial and ch.places < len(content) \
                    and not ordinary_phrase(self.lex, content, self.min_zipf):
                # "Infraestrutura de Chaves Públicas Brasileira": three capitalized words mid-sentence name
                # something, unless every word is an ordinary one ("Chefe do Poder Executivo", a title)
                out.append(self.mention(seg, ch.start, ch.end, "ORGANIZATION", "fallback:titlecase-phrase",
                                        score=0.4))
            elif len(content) == 1 and "-" in content[0] and (fold(content[0]),) in self.heads:
                # a compound head alone names the body of the context: "a Procuradoria-Geral"
                out.append(self.mention(seg, ch.start, ch.end, "ORGANIZATION", "fallback:head-alone", score=0.5))
            elif single and len(content) == 1 and not ch.sentence_initial and (ch.unknown or ch.surnames) \
                    and not ch.places and len(content[0]) > 2 and not self._abbreviation(seg, ch) \
                    and not self._compound_role(content[0]):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:unknown-proper-noun",
                                        score=0.4))
        return out

    def _compound_role(self, word: str) -> bool:
        """``Juiz-Auditor``, ``Ministro-Relator``, ``Subprocuradora-Geral``, ``Estado-autor``: a hyphenated
        word whose parts are titles, role nouns or ordinary words (the first part may carry a prefix), unless
        the whole is an organisation head (``a Procuradoria-Geral``)."""
        parts = [p for p in word.split("-") if p]
        if len(parts) < 2 or (fold(word),) in self.heads:  # Procuradoria-Geral names a body
            return False
        for k, p in enumerate(parts):
            f = fold(p)
            if f in self.roles or self.lex.is_ordinary(p, self.min_zipf) and not self.lex.is_name(p):
                continue
            if k == 0 and any(f.startswith(x) and fold(f[len(x):]) in self.roles for x in ("sub", "vice", "co")):
                continue
            return False
        return True

    @staticmethod
    def _abbreviation(seg: Segment, ch) -> bool:
        """``Fls.``, ``Rel.``, ``Agte.``: a short unknown word with a full stop glued on is an abbreviation."""
        word = ch.content[0]
        nxt = seg.text[ch.end:ch.end + 2]
        return len(word.rstrip(".")) <= 4 and (word.endswith(".") or nxt[:1] == "." or nxt == " .") \
            and not ch.surnames


# an acronym numbered with a hyphen, "SBDI-2", "SDI-1", "TRT-15": a body's section (not COVID-19: not_names)
NUMBERED_ACRONYM = regex.compile(r"(?<![\p{L}\d-])(?P<acr>\p{Lu}{2,6})-\d{1,2}(?![\p{L}\d/-])")


@register("fallback_numeric")
class NumericFallback(Recognizer):
    assigns = ("NAMEID",)

    def find(self, seg: Segment) -> list:
        out = []
        for m in ID_SHAPE.finditer(seg.text):
            if MONEY.match(m.group()) or YEAR_RANGE.match(m.group()) or seg.covered(m.start(), m.end()):
                continue
            out.append(self.mention(seg, m.start(), m.end(), "NAMEID", "fallback:numeric", score=0.5))
        return out
