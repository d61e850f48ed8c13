"""Recall fall-back ``fallback_lone_name``: a lone capitalized word that the Portuguese dictionary does not know,
in a person's position, is a person's name; so is a name with a regnal number.

wordfreq counts the names frequent in news as words (a president's given name, a footballer's nickname, a
philosopher's surname), so the common-word list (wordfreq's top words) makes them ordinary and
``fallback_compound`` leaves them visible when they stand alone. The dictionary (hunspell's pt_PT lemmas in
lower case) is the test of an ordinary word here: a word it holds or an inflection of one (plural, feminine,
a conjugated verb whose infinitive it holds: ``Covas``, ``Envie``) is a word of the language; so is a word
the document writes in lower case elsewhere, a word frequent in English (a loan word: ``Software``) unless a
name list knows it, a closed-class word and a word with a derived ending. Such a word is a name only:

* ``speaker``: next to a verb of saying (``person.speech_verbs``: ``disse Nandinho``, ``Kowalczyk afirmou``,
  ``segundo Quevedo``) or right after a +HUM noun (``person.hum_nouns``: ``a testemunha Nandinho``);
* ``speaker`` holds in the whole document: once a word is a speaker, it is a name wherever it stands alone
  (a sentence's first word too);
* ``initial-subject``: a sentence's first word that wordfreq does not know either (four letters or more), before
  its verb (a conjugated verb of the dictionary, or ``fallbacks.predicate_openers``: ``Nandinho foi``,
  ``Kowalczyk nunca``); option ``sentence_initial`` (default true);
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
# a lone capitalized word (no capitalized word before or after it) after a verb of saying or a +HUM noun in lower
# case, or before a verb of saying: "disse Nandinho", "o avançado Nandinho", "Nandinho afirmou"
SPEAKER = (r"(?:(?<![\p{{L}}-])(?:{speech}|{hum})[\s,]+(?P<name>\p{{Lu}}\p{{Ll}}+)(?![\p{{L}}'’-]|\s+\p{{Lu}})"
           r"|(?<!\p{{Lu}}\p{{L}}*\s+)(?<![\p{{L}}'’-])(?P<name>\p{{Lu}}\p{{Ll}}+)[\s,]+(?:{speech})(?![\p{{L}}-]))")
NEXT_LOWER_WORD = regex.compile(r" (\p{Ll}[\p{Ll}-]*)\b")  # the word after a chain, in lower case
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
        self.function_words = crules.function_words
        fb = rules.get("fallbacks", {})
        self.endings = tuple(fold(e) for e in fb.get("derived_endings", []))
        self.verb_endings = tuple(sorted((fold(e) for e in fb.get("verb_endings", [])), key=len, reverse=True))
        self.english_max_zipf = float(fb.get("lone_name_english_max_zipf", 4.0))
        self.predicate_openers = {fold(w) for w in fb.get("predicate_openers", [])}
        self.words = dictionary_words()
        speech = "|".join(sorted(map(regex.escape, rules["person"].get("speech_verbs", [])), key=len, reverse=True))
        hum = "|".join(sorted(map(regex.escape, rules["person"]["hum_nouns"]), key=len, reverse=True))
        self.speaker = regex.compile(SPEAKER.format(speech=speech, hum=hum), regex.V1) if speech else None
        self.speakers: set[str] = set()

    def prepare(self, texts: list[str]) -> None:
        """The document's speakers: lone capitalized words next to a verb of saying or after a +HUM noun."""
        self.speakers = {fold(m.group("name")) for t in texts for m in self.speaker.finditer(t)} \
            if self.speaker and self.words else set()

    def find(self, seg: Segment) -> list:
        if not self.words:
            return []
        out = []
        for ch in seg.analysis.chains:
            if ch.all_upper or ch.places or ch.org_head or ch.org_tail or ch.extra.get("territory") \
                    or ch.extra.get("concept") or seg.covered(ch.start, ch.end):
                continue
            if len(ch.words) == 1 and not ch.title and fold(ch.words[0]) in self.speakers \
                    and self.is_name(ch.words[0], seg.memory.lower_vocab):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:speaker", score=0.4))
            elif self.options.get("sentence_initial", True) and len(ch.words) == 1 and ch.sentence_initial \
                    and not ch.title and self._subject(seg, ch):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:initial-subject", score=0.4))
            elif 2 <= len(ch.words) <= 4 and ROMAN_NUMERAL.match(ch.words[-1]) and all(
                    self.lex.is_name(w) and not self.is_dictionary_word(fold(w))
                    or self.is_name(w, seg.memory.lower_vocab) for w in ch.words[:-1]):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:regnal", score=0.4))
        return out

    def _subject(self, seg: Segment, ch) -> bool:
        """A sentence's first word that no dictionary knows, four letters or more, before a word in lower case
        that is no function word (its verb: ``Nandinho marcou``, ``Kowalczyk escreveu``), never written in lower
        case in the document."""
        nxt = NEXT_LOWER_WORD.match(seg.text, ch.end)
        if not nxt or len(ch.words[0]) < 4 or self.lex.is_common(ch.words[0]):
            return False
        f = fold(nxt.group(1))
        verb = f in self.predicate_openers or not self._lemma_or_inflection(f) and self._verb_form(f)
        return verb and self.is_name(ch.words[0], seg.memory.lower_vocab)

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
        return self._lemma_or_inflection(folded) or self._verb_form(folded)

    def _lemma_or_inflection(self, folded: str) -> bool:
        return folded in self.words or any(
            folded.endswith(end) and len(folded) - len(end) >= 3
            and folded[:len(folded) - len(end)] + rep in self.words for end, rep in INFLECTIONS)

    def _verb_form(self, folded: str) -> bool:
        for end in self.verb_endings:
            if folded.endswith(end) and len(folded) - len(end) >= 2:
                stem = folded[:len(folded) - len(end)]
                if any(stem + inf in self.words for inf in INFINITIVES):
                    return True
        return False
