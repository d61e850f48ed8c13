"""LEGAL_REFERENCE: citations of laws and case law (``art. 240, § 2º, do CPC``, ``Lei Orgânica do Distrito
Federal``, ``Portaria MPS nº 204/2008``, ``Súmula nº 503 do colendo Superior Tribunal de Justiça``).

A citation is public text. Its capitalized words (a code's acronym, the state in a law's title, the court that
issued a precedent) look like organisations to the later recognizers and fall-backs, so this recognizer claims
them first. LEGAL_REFERENCE is not an anonymisation category: its mentions only shield, and are dropped
before replacement (add the category in the config to see them in the audit). Numbers are never shielded:
the ``nameid`` recognizer (PUBLIC_ID, optional) has run before, and the identifier fall-back comes after (a
case number can point at a person's case). A private party ends a citation (``Lei do Sr. João``,
``Regulamento Interno da Associação X``): a first name, a company's or institution's head, a legal-form tail.
"""

from __future__ import annotations

import regex

from ...text import fold
from ..chains import multiword_places
from ..dictionary import unknown_name
from ..recognizer import Gated, Recognizer, Segment, alternation, case_blind_gate, literal_gate, register

NUMBER = r"(?i:n\s?\.?\s?[º°o]\s?\.?\s*|n\.\s*|número\s+)?\d(?:[\d.]|[/-](?=\d))*(?:\s?/\s?\p{Lu}{2,}(?![\p{L}]))?"
CAPITALIZED = regex.compile(r"\p{Lu}[\p{L}\p{M}'’.-]*")
TRAILING_JOINERS = regex.compile(r"(?:[\s,]+(?i:de|do|da|dos|das|e|desta|deste|pelo|pela)?)+$")
DIGIT = regex.compile(r"\d")  # (case folding leaves digits as they are)
NUMBER_TOKEN = regex.compile(r"\d[\p{L}\d./ºª°-]*")
CAP_WORD = r"\p{Lu}[\p{L}\p{M}'’-]*\.?"
ACRONYM = r"\p{Lu}{2,}[\p{Lu}\d]*(?:[/-]\p{Lu}{2,})?(?![\p{L}\d])"
JOINER = r"(?i:de|do|da|dos|das|e)"
# not a word of a longer capitalized name (Comissão de Constituição e Justiça)
NOT_INSIDE_NAME = r"(?<![\p{L}])(?<!\p{Lu}[\p{L}\p{M}]*\s+(?i:de|da|do|dos|das|e)\s+)"
# the enumeration after an article word: numbers, ordinals, Roman numerals, paragraph signs, "caput", "e", commas
ENUMERATION = (r"(?:[\s,;.“”\"'`´]|\d+[ºª°o]?(?![\p{L}\d])|[IVXLC]+(?![\p{L}\d])|[a-z]\)|§+|único|caput|e|ou|"
               r"inc\.|incisos?|alíneas?|parágrafos?|arts?\s?\.|artigos?|todos|todas)*")


@register("legal_reference")
class LegalReferenceRecognizer(Recognizer):
    assigns = ("LEGAL_REFERENCE",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        r = rules.get("legal_reference", {})
        arts = alternation([w.rstrip(".") for w in r.get("article_words", [])])
        laws = alternation(r.get("law_nouns", []))
        cases = alternation(r.get("case_nouns", []))
        titles = alternation(r.get("title_words", []))
        epithets = alternation(r.get("epithets", []))
        pre = rf"(?:\s*,)?\s+(?i:{JOINER})\s+(?:(?i:{epithets})\s+)*"
        # a code or a law named by its title: CPC, RISTF, Lei Orgânica do Distrito Federal
        named = rf"(?:{ACRONYM}|(?i:{laws})(?:\s+(?i:{titles}))*(?:{pre}{CAP_WORD}(?:\s+(?:{JOINER}\s+)?{CAP_WORD}){{0,5}})?)"
        # an issuer: a court or body named by acronym or capitalized words
        issuer = rf"(?:{ACRONYM}|{CAP_WORD}(?:\s+(?:{JOINER}\s+)?{CAP_WORD}){{0,5}})"
        o = rules["organization"]
        self.private_heads = {fold(h) for sub in ("COMPANY", "INSTITUTION") for h in o["heads"].get(sub, [])}
        self.tails = {fold(t).rstrip(".") for t in o["tails"]}
        # each pattern with a necessary condition read in ``Segment.folded``: its case-blind nouns, or a digit
        art_words, law_words = [w.rstrip(".") for w in r.get("article_words", [])], r.get("law_nouns", [])
        self.gates = {"article": case_blind_gate(art_words), "law": case_blind_gate(law_words), "case": DIGIT}
        self.patterns = [
            ("article", regex.compile(
                rf"(?<![\p{{L}}])(?i:{arts})\s?\.?(?=\s*[\d§IVXLC])(?:{ENUMERATION})(?:{pre}|\s+|,\s*){named}"
                rf"(?:\s+(?i:e)\s+(?i:{JOINER})\s+{named})*")),
            # a law by its title, no number: Lei Orgânica do Distrito Federal, Constituição do Estado do Paraná
            # (with a number, the issuer after it is an organisation: Lei 4041/2007 do TCDF); never inside a
            # name (Comissão de Constituição e Justiça)
            ("law", regex.compile(
                rf"{NOT_INSIDE_NAME}(?i:{laws})(?:\s+(?i:{titles}))*{pre}{CAP_WORD}(?:\s+(?:{JOINER}\s+)?{CAP_WORD}){{0,5}}")),
            # the issuer's acronym before the number: Portaria MPS nº 204/2008, Resolução-TSE n° 23.549
            ("law", regex.compile(
                rf"{NOT_INSIDE_NAME}(?i:{laws})(?:\s*-\s*{ACRONYM}|\s+(?:{JOINER}\s+)?{ACRONYM})(?=\s*{NUMBER})")),
            ("case", regex.compile(
                rf"(?<![\p{{L}}])(?i:{cases})\s*{NUMBER}(?:{pre}{issuer})?")),
            # an act cited with its issuer: Regulamento (CE) n.o 1/2003 do Parlamento Europeu e do Conselho,
            # Decisão do Comité Misto do EEE (a private party named in it ends the citation, as above)
            ("act", Gated(regex.compile(
                rf"(?<![\p{{L}}])(?:{alternation(rules['citation_act_nouns'])})(?:\s*\([^)]{{1,20}}\))?(?:\s*{NUMBER})?"
                rf"\s+(?:do|da|dos|das)\s+{issuer}(?:\s+e\s+(?:do|da|dos|das)\s+{issuer})?"),
                literal_gate(alternation(rules["citation_act_nouns"])))),
            ("title", regex.compile(rf"(?<![\p{{L}}])(?:{alternation(r.get('standalone', []))})(?![\p{{L}}])")),
        ]

    def find(self, seg: Segment) -> list:
        out = []
        for rule, pattern in self.patterns:
            if rule in self.gates and not self.gates[rule].search(seg.folded):
                continue
            for m in pattern.finditer(seg.text):
                end = m.end() if rule == "title" else self._before_private(seg.text, m.start(), m.end(), rule == "law")
                if end < m.end() and rule == "law":
                    continue  # a law named after a private party: no shield, the name rules see it all
                for s, e in self._uncovered(seg, m.start(), end):
                    if not any(x.start < e and s < x.end for x in out):
                        out.append(self.mention(seg, s, e, "LEGAL_REFERENCE", f"legal-reference:{rule}"))
        return out

    def _before_private(self, text: str, start: int, end: int, titled: bool = False) -> int:
        """Where a citation must end because a private party is named in it: a first name (``Lei do Sr. João
        Silva``), a company's or an institution's head noun or a legal-form tail (``Regulamento da Caixa Geral
        de Depósitos``, ``Estatuto da Associação X``). An article citation keeps what comes before, without the
        particle; a law's title is then no citation at all (its capitalized run is the name rules' to read).
        A place of several words (``Estado de Santa Catarina``) is no first name. In a law named by its title
        (``titled``), a capitalized word that is no word of the dictionary (wordfreq counts company names as words), no
        place and no acronym names a private
        body too: ``Código de Conduta da Sonae``, ``Regimento da Herdade Gonçalves`` (a code of law is titled with
        words and places: ``Código de Processo Civil``, ``Lei Orgânica do Distrito Federal``)."""
        words = list(CAPITALIZED.finditer(text, start, end))
        folded = [fold(w.group().rstrip(".")) for w in words]
        places = multiword_places(folded, self.lex)
        for k, (w, f) in enumerate(zip(words, folded, strict=True)):
            if k in places or k == 0:
                continue
            first_name = f in self.lex.first and not w.group().isupper()
            if first_name or titled and unknown_name(w.group(), self.lex) or f in self.private_heads or f in self.tails:
                return start + len(TRAILING_JOINERS.sub("", text[start:w.start()]))
        return end

    @staticmethod
    def _uncovered(seg: Segment, start: int, end: int) -> list[tuple[int, int]]:
        """The parts of [start, end) that no earlier mention holds and that are not numbers, trimmed of spaces.
        Numbers are left to the identifier fall-back: a case number can point at a person's case."""
        parts, pos = [], start
        for m in sorted(seg.found, key=lambda x: x.start):
            if m.end <= pos or m.start >= end:
                continue
            if m.start > pos:
                parts.append((pos, m.start))
            pos = max(pos, m.end)
        if pos < end:
            parts.append((pos, end))
        carved = []
        for s, e in parts:
            for m in NUMBER_TOKEN.finditer(seg.text, s, e):
                carved.append((s, m.start()))
                s = m.end()
            carved.append((s, e))
        out = []
        for s, e in carved:
            piece = seg.text[s:e]
            s, e = s + len(piece) - len(piece.lstrip()), e - (len(piece) - len(piece.rstrip()))
            if e > s:
                out.append((s, e))
        return out
