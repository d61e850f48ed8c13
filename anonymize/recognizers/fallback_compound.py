"""Recall fall-back ``fallback_compound``: remaining multi-word capitalized sequences with a word that is not
an ordinary word -> PERSON (ORGANIZATION when an acronym is among them); a lone unknown capitalized word
inside a sentence -> PERSON."""

from __future__ import annotations

import regex

from ...text import fold
from ..chains import ChainRules
from ..dictionary import NameTest, english_zipf, prefixed_role
from ..lexicons import zipf
from ..ordinary import ordinary_min_zipf, ordinary_phrase, spaced_letters
from ..recognizer import Recognizer, Segment, register

# a capitalized word with a capitals part: ICP-Brasil, CREA/DF, CAU/DF
DOUBLE_CAPITAL = regex.compile(r"\p{Lu}\p{Lu}")  # UFIRs, SiasgNET: an acronym's capitals in a word
# the bare locative preposition right before a word (no article: "em Nairobi", not "na Xpto")
PLACE_PREPOSITION = regex.compile(r"(?<![\p{L}])em\s+\Z")
NUMBER_AFTER = regex.compile(r"\s*\d")
HEADING_END = regex.compile(r"[\s\d.,;:()–—-]*")  # after a heading: punctuation or a number only (no verb: a sentence)
# before a heading's words: its number, and capitalized words only (a sentence's first word is no chain's; not an
# article: "A Pereira Comercial pagou")
HEADING_START = regex.compile(r"[\s\d.,;:()–—-]*(?:\p{Lu}[\p{L}\p{M}-]{3,}\s+(?:(?:d[aeo]s?|e)\s+)?)*")
MIXED_ACRONYM = regex.compile(r"^(?=.*\p{Lu}{2})[\p{L}]+(?:[-/][\p{L}]+)+$")
# an English word on the Portuguese side: this frequent in English (wordfreq) and more frequent than in Portuguese
ENGLISH_WORD_ZIPF = 3.0
ENGLISH_CONNECTORS = frozenset({"of", "and", "the", "for", "on", "in", "to"})


@register("fallback_compound")
class CompoundFallback(Recognizer):
    assigns = ("PERSON", "ORGANIZATION")

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        self.min_zipf = ordinary_min_zipf(rules)
        crules = ChainRules(rules)
        self.heads = crules.org_heads
        self.names = NameTest(rules, lex)  # (technical compounds: Girobússola, Ecobatímetro are words, no names)
        self.roles = {t.rstrip(".") for t in crules.titles | crules.hum}
        self.endings = tuple(fold(e) for e in rules.get("fallbacks", {}).get("derived_endings", []))
        self.adjective_endings = self.endings + tuple(
            fold(e) for e in rules.get("fallbacks", {}).get("adjective_plural_endings", []))

    def find(self, seg: Segment) -> list:
        out = []
        single = self.options["single_unknown"]
        for ch in seg.analysis.chains:
            if ch.all_upper or seg.covered(ch.start, ch.end) or spaced_letters(ch.words) \
                    or ch.extra.get("territory") or ch.extra.get("concept"):
                continue  # (countries and legal concepts, Reino da Dinamarca, Direito do Mar, are public)
            content = ch.content
            # technical compounds hunspell lacks are words of the language in a legal act's annex (Ecobatímetro e
            # Odómetro); elsewhere such a word names a company or a brand as often (Telemundo, Radiolar)
            technical = sum(1 for w in content if not (self.lex.is_name(w) or self.lex.is_common(w))
                            and self.names.technical(fold(w))) if ch.unknown and seg.memory.act_document else 0
            odd = ch.unknown - technical + ch.first_names + ch.surnames
            named = ch.first_names + ch.surnames
            if len(content) == 1 and MIXED_ACRONYM.match(content[0]) and not ch.all_upper:
                out.append(self.mention(seg, ch.start, ch.end, "ORGANIZATION", "fallback:acronym-compound",
                                        score=0.5))
            elif len(content) >= 2 and odd and ch.places < len(content) and (named or ch.unknown - technical > ch.common) \
                    and odd > ch.extra.get("ambiguous", 0) \
                    and not self._ordinary_heading(content, HEADING_START.fullmatch(seg.text, 0, ch.start) is not None
                                                   and HEADING_END.fullmatch(seg.text, ch.end) is not None):
                # (not a heading: "Unidades de Tratamento de Águas Residuais", "Jangadas Pneumáticas Autoendireitantes")
                if any(w.isupper() and len(w) > 1 for w in content):  # "Estados do APE SADC": acronyms name bodies
                    out.append(self.mention(seg, ch.start, ch.end, "ORGANIZATION", "fallback:compound-acronym",
                                            score=0.5))
                elif not self._english_words(seg, content):  # ("Fire Safety Guidance": an English title in an act)
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
            elif single and len(content) == 1 and (ch.unknown or ch.surnames) and self._lone_name(seg, ch) \
                    and not self._english_words(seg, content):
                if DOUBLE_CAPITAL.search(content[0]) and not ch.surnames:  # UFIRs, SporTV: a body's or thing's
                    out.append(self.mention(seg, ch.start, ch.end, "ORGANIZATION", "fallback:mixed-case",
                                            score=0.4))
                else:
                    out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:unknown-proper-noun",
                                            score=0.4))
        return out

    def _ordinary_heading(self, content: list[str], opens: bool) -> bool:
        """A title-case heading of the language's words: each a dictionary word or a word built with a
        derivational ending (``Residuais``, ``Pneumáticas``), one surname that is also a word at most (``Águas``),
        no first name, and among them one rare derived word at most (a technical adjective: ``Autoendireitantes``).
        ``Deloitte & Touche``, ``Cachupa Sabi``, ``M. Céu Vilhena`` stay names; and the surname only in a heading that
        ``opens`` its segment and ends it: in running text a head noun and a surname name a company (``a Metalúrgica Costa``)."""
        words = [w.strip(".,;:()") for w in content if len(w.strip(".,;:()")) > 2]
        if len(words) < 2 or any(fold(w) in self.lex.first for w in words):
            return False
        rare = surnames = 0
        for w in words:
            derived = fold(w).endswith(self.adjective_endings) and not self.lex.is_name(w)
            if self.lex.is_name(w):
                surnames += self.lex.is_common(w)
                if not self.lex.is_common(w):
                    return False
            elif derived and zipf(w.lower()) < self.min_zipf:
                rare += len(w) >= 9
                if len(w) < 9:
                    return False
            elif not (self.lex.is_common(w) or derived):
                return False
        return rare <= 1 and surnames <= opens and len(words) - rare - surnames >= 1

    def _english_words(self, seg: Segment, content: list[str]) -> bool:
        """Capitalized English words quoted in a legal act (the title of a foreign guidance document or standard,
        a body's English name in an annex: ``Fire Safety Guidance``, ``Transport``): every word frequent
        in English (wordfreq) and more so than in Portuguese or a common Portuguese word (``Manual``), and none a
        given name or a surname of the name lists (``Brown``, ``Baker``, ``Marine`` stay names)."""
        if not seg.memory.act_document:
            return False  # (outside legislation an English phrase names a band, a work or a company as often)
        words = [w.strip(".,;:()") for w in content if w.lower() not in ENGLISH_CONNECTORS]
        if not words or any(len(w) <= 2 or self.lex.is_name(w) for w in words):
            return False
        english = [english_zipf(w.lower()) >= ENGLISH_WORD_ZIPF and english_zipf(w.lower()) > zipf(w.lower())
                   for w in words]  # (a word of both languages, "Manual", "Central", may stand among them)
        return any(english) and all(e or self.lex.is_common(w) for e, w in zip(english, words, strict=False))

    def _lone_name(self, seg: Segment, ch) -> bool:
        """One capitalized word no lexicon knows as a word, read as a name (Bick & Barreiro's fall-back):
        inside a sentence or after the preposition that opens it (``disse Khomeini``, ``Segundo Ptolomeu``),
        not a place, an abbreviation, a compound role (``Juiz-Auditor``) nor a word built with a derivational
        or participle ending that wordfreq knows as a word (``Colegiado``, ``Diretivas``: nouns, adjectives).
        A mixed-case word (``UFIRs``, ``SporTV``) is read as a body's or product's name instead."""
        word = ch.content[0]
        if ch.sentence_initial and not ch.extra.get("after_opener") or ch.places or len(word) <= 2 \
                or not ch.surnames and seg.memory.act_document and self.names.technical(fold(word)):
            return False
        if ch.start >= 3 and PLACE_PREPOSITION.search(seg.text, max(0, ch.start - 4), ch.start) \
                and not NUMBER_AFTER.match(seg.text, ch.end) and not DOUBLE_CAPITAL.search(word):
            return False  # "reúnem-se em Nairobi", "e em Abidjan": a bare "em" before a name locates, a place (not
            # an address's first word before its number, "residentes em Room 2103"; nor a unit's, "em UFIRs")
        if not ch.surnames and fold(word).endswith(self.endings) and zipf(word.lower()) >= self.min_zipf:
            return False
        return not self._abbreviation(seg, ch) and not self._compound_role(word) and not prefixed_role(fold(word), self.roles)

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
