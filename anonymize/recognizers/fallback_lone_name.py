"""Recall fall-back ``fallback_lone_name``: a lone capitalized word that the Portuguese dictionary does not know,
in a person's position, is a person's name; so is a name with a regnal number.

wordfreq counts the names frequent in news as words (a president's given name, a footballer's nickname, a
philosopher's surname), so the common-word list (wordfreq's top words) makes them ordinary and
``fallback_compound`` leaves them visible when they stand alone. The dictionary (hunspell's pt_PT lemmas in
lower case) is the test of an ordinary word here: a word it holds or an inflection of one (plural, feminine,
a conjugated verb whose infinitive it holds: ``Covas``, ``Envie``) is a word of the language; so is a word
the document writes in lower case elsewhere, a word frequent in English (a loan word: ``Software``) unless a
name list knows it, a closed-class word and a word with a derived ending. Such a word is a name only:

* ``speech``: next to a verb of saying (``person.speech_verbs``: ``disse Nandinho``, ``Kowalczyk afirmou``,
  ``segundo Quevedo``) or right after a +HUM noun or title in lower case (``o avançado Nandinho``);
* ``regnal``: before a Roman numeral, one to three such words or given names (``Tutmósis III``,
  ``Ataulfo II``), never after a role or an ordinary word (``Anexo III``, ``Turma II``).

Places, countries and legal concepts are left to their rules (public).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import regex

from ...text import fold
from ..chains import ChainRules
from ..recognizer import Recognizer, Segment, register

HUNSPELL_DIC = Path("/usr/share/hunspell/pt_PT.dic")
# a name: letters only, an apostrophe inside (d'Almeida, O'Neill); no hyphen (Trata-se, Wi-Fi)
NAME_WORD = regex.compile(r"^\p{Lu}\p{Ll}+(?:['’]\p{Lu}?\p{Ll}+)*$")
ROMAN_NUMERAL = regex.compile(r"^(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})$")
PREVIOUS_WORD = regex.compile(r"([\p{L}-]+)[\s,]*$")
NEXT_WORD = regex.compile(r"[\s,]*([\p{L}-]+)")
# inflections back to a lemma: (ending, replacement) -- plural, feminine, feminine plural (covas, advogada)
INFLECTIONS = (("s", ""), ("es", ""), ("a", "o"), ("as", "o"), ("ns", "m"), ("ões", "ão"), ("ães", "ão"),
               ("is", "l"), ("eis", "el"), ("ais", "al"), ("inha", "a"), ("inho", "o"))
INFINITIVES = ("ar", "er", "ir")


@lru_cache(maxsize=2)
def dictionary_words(path: Path = HUNSPELL_DIC) -> frozenset[str]:
    """The folded lower-case lemmas of the hunspell dictionary (empty when it is not installed)."""
    if not path.exists():
        return frozenset()
    with open(path, encoding="utf-8") as fh:
        next(fh, None)
        words = {line.split("/", 1)[0].split("\t", 1)[0].strip() for line in fh}
    return frozenset(fold(w) for w in words if w.islower() and w.isalpha())


@lru_cache(maxsize=50_000)
def english_zipf(word: str) -> float:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en")


@register("fallback_lone_name")
class LoneNameFallback(Recognizer):
    assigns = ("PERSON",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        crules = ChainRules(rules)
        self.roles = crules.titles | crules.hum
        self.speech = {fold(v) for v in rules["person"].get("speech_verbs", [])}
        fb = rules.get("fallbacks", {})
        self.endings = tuple(fold(e) for e in fb.get("derived_endings", []))
        self.verb_endings = tuple(sorted((fold(e) for e in fb.get("verb_endings", [])), key=len, reverse=True))
        self.english_max_zipf = float(fb.get("lone_name_english_max_zipf", 4.0))
        self.words = dictionary_words()

    def find(self, seg: Segment) -> list:
        if not self.words:
            return []
        out = []
        for ch in seg.analysis.chains:
            if ch.all_upper or ch.places or ch.org_head or ch.org_tail or ch.extra.get("territory") \
                    or ch.extra.get("concept") or seg.covered(ch.start, ch.end):
                continue
            if len(ch.words) == 1 and not ch.title and self._speech(seg, ch) \
                    and self.is_name(ch.words[0], seg.memory.lower_vocab):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:speech", score=0.4))
            elif 2 <= len(ch.words) <= 4 and ROMAN_NUMERAL.match(ch.words[-1]) and all(
                    self.lex.is_name(w) and not self.is_dictionary_word(fold(w))
                    or self.is_name(w, seg.memory.lower_vocab) for w in ch.words[:-1]):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:regnal", score=0.4))
        return out

    def _speech(self, seg: Segment, ch) -> bool:
        """Next to a verb of saying, or after a +HUM noun or title written in lower case."""
        before = PREVIOUS_WORD.search(seg.text, max(0, ch.start - 40), ch.start)
        after = NEXT_WORD.match(seg.text, ch.end)
        prev = before.group(1) if before else ""
        return fold(prev) in self.speech or prev.islower() and fold(prev) in self.roles \
            or bool(after) and fold(after.group(1)) in self.speech

    def is_name(self, word: str, lower_vocab: set[str] | frozenset[str]) -> bool:
        """A capitalized word that is no word of the language (see the module's docstring)."""
        if len(word) < 3 or not NAME_WORD.match(word):
            return False
        f = fold(word)
        if f in lower_vocab or f in self.roles or f in self.lex.closed or self.lex.is_place(word) \
                or self.is_dictionary_word(f):
            return False
        return self.lex.is_name(word) or not f.endswith(self.endings) \
            and english_zipf(word.lower()) < self.english_max_zipf

    def is_dictionary_word(self, folded: str) -> bool:
        """A lemma, an inflection of one, or a conjugated verb whose infinitive is one (``envie``: enviar)."""
        if folded in self.words:
            return True
        if any(folded.endswith(end) and len(folded) - len(end) >= 3
               and folded[:len(folded) - len(end)] + rep in self.words for end, rep in INFLECTIONS):
            return True
        for end in self.verb_endings:
            if folded.endswith(end) and len(folded) - len(end) >= 2:
                stem = folded[:len(folded) - len(end)]
                if any(stem + inf in self.words for inf in INFINITIVES):
                    return True
        return False
