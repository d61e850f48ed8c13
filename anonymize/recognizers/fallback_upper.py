"""Recall fall-back ``fallback_upper``: remaining all-uppercase proper nouns -> ORGANIZATION, unless every word
is an ordinary Portuguese word, a defined term such as ``a CONTA``, or a public place; and acronyms numbered
with a hyphen (``SBDI-2``)."""

from __future__ import annotations

import regex

from ...text import fold
from ..chains import ORDINAL, ChainRules
from ..dictionary import NameTest
from ..lexicons import zipf
from ..ordinary import ROMAN, VOWELS, ordinary_min_zipf, ordinary_phrase
from ..recognizer import Recognizer, Segment, register

# an acronym numbered with a hyphen, "SBDI-2", "SDI-1", "TRT-15": a body's section (not COVID-19: not_names)
PARTICLES = frozenset(("de", "do", "da", "dos", "das"))
NUMBERED_ACRONYM = regex.compile(r"(?<![\p{L}\d-])(?P<acr>\p{Lu}{2,6})-\d{1,2}(?![\p{L}\d/-])")



@register("fallback_upper")
class UppercaseFallback(Recognizer):
    assigns = ("ORGANIZATION",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        # trigger words, taxes, document parts; and role nouns and titles standing alone (IMPETRANTE, RELATOR)
        crules = ChainRules(rules)
        self.not_names = crules.not_names | crules.hum | crules.titles
        # (and countries' abbreviations, EUA, URSS: public places)
        self.not_names |= {fold(a.rstrip(".")) for a in rules.get("places", {}).get("abbreviations", [])}
        self.min_zipf = ordinary_min_zipf(rules)
        self.dictionary = NameTest(rules, lex)
        self.derived = tuple(rules.get("fallbacks", {}).get("derived_endings", []))

    def find(self, seg: Segment) -> list:
        out = []
        chains = seg.analysis.chains
        for k, ch in enumerate(chains):
            if not ch.all_upper or seg.covered(ch.start, ch.end):
                continue
            content = [w.rstrip(".") for w in ch.content]
            if content and all(fold(w.replace(".", "")) in self.not_names for w in content):
                continue  # (a dotted trigger word is its letters: C.C., B.I., N.I.F.)
            content = [w for w in content if len(w) > 1 and not ROMAN.match(w)]
            # a capitals word without a vowel (STF, MPS, CJM) is an acronym even if a word list knows it
            content = [w for w in content if not any(c.isdigit() for c in w)]
            acronym = any(len(w) > 2 and not VOWELS.search(w) and fold(w) not in self.not_names for w in content) \
                or "/" in ch.words and self._slash_acronym(ch.words) \
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
            start = self._acronym_after_heading(ch, content)
            if ch.start_tok > 0 and ORDINAL.match(seg.doc[ch.start_tok - 1].text):
                start = seg.doc[ch.start_tok - 1].idx  # "3ª CJM/SP": a numbered body
            long = self._long_form_before(seg, ch)
            if long is not None:  # "Associação Europeia do Pessoal Navegante (ECA)": its (translated) acronym
                seg.analysis.learn_acronym(ch.words[0], "ORGANIZATION", long.subtype, long.text)
            end = self._descriptor_end(seg, ch, chains[k + 1]) if k + 1 < len(chains) and len(ch.words) == 1 \
                and chains[k + 1].start_tok == ch.end_tok else ch.end
            out.append(self.mention(seg, start, end, "ORGANIZATION", "fallback:all-upper", score=0.6))
        if "-" in seg.text:
            for m in NUMBERED_ACRONYM.finditer(seg.text):
                if fold(m.group("acr")) not in self.not_names and not seg.covered(m.start(), m.end()) \
                        and not any(x.start < m.end() and m.start() < x.end for x in out):
                    out.append(self.mention(seg, m.start(), m.end(), "ORGANIZATION", "fallback:numbered-acronym",
                                            score=0.5))
        return out

    @staticmethod
    def _descriptor_end(seg: Segment, ch, nxt) -> int:
        """Where a body's acronym ends with the ordinary capitalized words that touch it ("a AFID Diferença", "a
        XPTO Comercial", "a ABC Portugal Global"): a brand's acronym and its descriptor are one name (a change of
        case breaks the chain); not a person's name, a title or capitals after it."""
        if nxt.all_upper or nxt.title or nxt.hum or nxt.first_names or len(nxt.content) > 3 \
                or seg.covered(nxt.start, nxt.end) or nxt.common + nxt.places < len(nxt.content) \
                or any(sum(c.isalpha() for c in w) < 3 for w in nxt.content):  # ("RECIBO N.º": an abbreviation)
            return ch.end
        return nxt.end

    @staticmethod
    def _long_form_before(seg: Segment, ch):
        """The organisation found right before a one-word acronym in brackets (the acronym names it, even when its
        letters are the initials of another language's name), or None."""
        if not ch.in_parens or len(ch.words) != 1 or len(ch.words[0]) < 3:
            return None
        before = seg.text[:ch.start].rstrip()
        if not before.endswith("("):
            return None
        end = len(before[:-1].rstrip())
        return next((m for m in seg.found if m.category == "ORGANIZATION" and m.end == end), None)

    def _acronym_after_heading(self, ch, content: list[str]) -> int:
        """Where the name starts in a capitals heading that ends with a body's acronym after ordinary words and a
        particle (``NORMAS DE ENSAIO DA USCG``, ``RELATÓRIO ANUAL DO BCE``): at the acronym, the heading's words
        stay visible; the chain's start otherwise."""
        words = ch.words
        last = words[-1]
        if len(words) < 3 or len(content) < 2 or fold(words[-2]) not in PARTICLES or not 2 <= len(last) <= 6 \
                or self._ordinary(None, last):
            return ch.start
        if not all(fold(w) in PARTICLES or self._ordinary(None, w) for w in content[:-1]):
            return ch.start
        return ch.end - len(last)

    @staticmethod
    def _slash_acronym(words: list[str]) -> bool:
        """A "/" between a body's acronym and its state (CREA/DF, RPPS/MT): a short or vowelless word beside it;
        not two long words (UNIÃO EUROPEIA/SUÍÇA, a heading's two parties)."""
        k = words.index("/")
        sides = [w for w in words[max(0, k - 1):k + 2] if w != "/"]
        return any(len(w) <= 4 or not VOWELS.search(w) for w in sides)

    def _lone_acronym(self, seg: Segment, ch, content: list[str]) -> bool:
        """A short capitals word in running text (``o CREA e o CAU têm``, ``Acórdão 2.634/2016 - TCU``) that the
        document never writes in lower case and that is rare as a word (a wordfreq Zipf below 3.5): an acronym,
        though a word list knows a word spelt so (``crea``, ``cau``); ``a CONTA`` is a frequent word; a frequent one
        that no dictionary knows is a body's acronym all the same (wordfreq counts acronyms as words: the ABVQ, the
        UNEFA). A rare word in capitals that the document never writes otherwise is masked too (``o ÔNUS``): recall
        first."""
        if len(content) != 1 or not 3 <= len(content[0]) <= 6 or ch.end_tok - ch.start_tok != 1:
            return False
        w = content[0]
        f = fold(w)
        if f in self.not_names or f in seg.memory.lower_vocab or self.lex.is_name(w) or self.lex.is_place(w) \
                or zipf(w.lower()) >= 3.5 and self.dictionary.is_dictionary_word(f):
            return False
        return seg.analysis.running_text  # running text, not a heading in capitals (once per segment)

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
            seg is not None and f in seg.memory.lower_vocab and not self.lex.is_name(word))
