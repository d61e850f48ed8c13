"""The Portuguese dictionary as the test of an ordinary word, for telling names from words.

wordfreq counts the names frequent in news as words (a president's given name, a footballer's nickname, a
philosopher's surname), so its top words (the common list) cannot tell a name from a word. Hunspell's pt_PT
lemmas in lower case can: a word the dictionary holds, an inflection of one (plural, feminine: ``covas``,
``advogada``) or a conjugated verb whose infinitive it holds (``envie``: enviar) is a word of the language.
``NameTest.is_name`` adds what the document and the other lists say: a capitalized word is a name when it is
none of those, the document never writes it in lower case, it is no role, closed-class word or place, and
(unless a name list knows it) it has no derived ending and is not frequent in English (a loan word:
``Software``). Used by ``recognizers/fallback_lone_name.py`` and ``recognizers/person.py``.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from ..text import fold
from .chains import ChainRules
from .lexicons import DERIVED_ENDINGS, _read

# a name: letters only, an apostrophe inside (d'Almeida, O'Neill); no hyphen (Trata-se, Wi-Fi)
NAME_WORD = regex.compile(r"^\p{Lu}\p{Ll}+(?:['’]\p{Lu}?\p{Ll}+)*$")
# a hyphenated name: two or three capitalized parts of two letters or more, none a clitic (Merleau-Ponty, Moo-Hyun)
HYPHENATED_NAME = regex.compile(r"^\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+){1,2}$")
# inflections back to a lemma: (ending, replacement) -- plural, feminine, feminine plural (covas, advogada), the
# feminine of an agent noun (fornecedora: fornecedor)
INFLECTIONS = (("s", ""), ("es", ""), ("a", "o"), ("as", "o"), ("ns", "m"), ("ões", "ão"), ("ães", "ão"),
               ("is", "l"), ("eis", "el"), ("ais", "al"), ("inha", "a"), ("inho", "o"), ("dora", "dor"),
               ("doras", "dor"))
INFINITIVES = ("ar", "er", "ir")
# a derived word is a word of the language even where the dictionary lists only its stem (certificação)
FOLDED_DERIVED_ENDINGS = tuple(fold(e) for e in DERIVED_ENDINGS)
KNOWN_WORDS_KEPT = 100_000  # NameTest remembers this many words' dictionary test, then starts again
ROLE_PREFIXES = ("co", "vice", "sub")  # glued on a role noun: Copresidentes, Vicepresidente, Subdiretora


def prefixed_role(folded: str, roles: set[str] | frozenset[str]) -> bool:
    """A role noun with a prefix glued on, singular or plural (``copresidentes``, ``vicepresidente``,
    ``subdiretora``, ``cocoordenadores``): a role, not a name."""
    for prefix in ROLE_PREFIXES:
        if folded.startswith(prefix):
            rest = folded[len(prefix):]
            if any(r in roles for r in (rest, rest[:-1], rest[:-2]) if r):
                return True
    return False


@lru_cache(maxsize=1)
def dictionary_words() -> frozenset[str]:
    """The folded lower-case lemmas of hunspell's pt_PT dictionary, shipped as ``data/lemmas_pt.txt`` (built by
    ``python -m paranon.anonymize.lexicons``), so that a run gives the same result with or without hunspell."""
    return frozenset(_read("lemmas_pt.txt"))


def lemma_or_inflection(folded: str, words: frozenset[str] | None = None) -> bool:
    """A lemma of the dictionary or an inflection of one (plural, feminine: ``covas``, ``advogada``)."""
    words = dictionary_words() if words is None else words
    return folded in words or any(
        folded.endswith(end) and len(folded) - len(end) >= 3
        and folded[:len(folded) - len(end)] + rep in words for end, rep in INFLECTIONS)


def unknown_name(word: str, lex) -> bool:
    """A capitalized word that no dictionary knows (lemma or inflection), no place and no acronym: a name in a
    title (``Código de Conduta da Sonae``), where a code of law has words and places (``Código de Processo
    Civil``, ``Lei Orgânica do Distrito Federal``); wordfreq is no judge, it counts company names as words."""
    f = fold(word.rstrip("."))
    return word[:1].isupper() and not word.isupper() and not lemma_or_inflection(f) \
        and not f.endswith(FOLDED_DERIVED_ENDINGS) and not lex.is_place(word)


@lru_cache(maxsize=1 << 16)
def english_zipf(word: str) -> float:
    """wordfreq's English frequency of a word (Zipf scale), cached: one home for both sides (the recall fall-backs
    and the English side's plausible names)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en")


class NameTest:
    """Whether a capitalized word is a name and not a word of the language (see the module's docstring)."""

    def __init__(self, rules, lex) -> None:
        crules = ChainRules(rules)
        self.lex = lex
        self.roles = {r.rstrip(".") for r in crules.titles | crules.hum}  # (Exmo. is a title: Exmo too)
        fb = rules.get("fallbacks", {})
        self.endings = tuple(fold(e) for e in fb.get("derived_endings", []))
        self.verb_endings = tuple(sorted((fold(e) for e in fb.get("verb_endings", [])), key=len, reverse=True))
        self.technical_prefixes = tuple(fold(e) for e in fb.get("technical_prefixes", []))
        self.technical_endings = tuple(fold(e) for e in fb.get("technical_endings", []))
        self.english_max_zipf = float(fb.get("lone_name_english_max_zipf", 4.0))
        self.words = dictionary_words()
        self._known: dict[str, bool] = {}  # folded word -> is_dictionary_word
        self._technical: dict[str, bool] = {}  # folded word -> technical
        if self.words:
            english_zipf("name")  # wordfreq's English list is read now, before the pipeline forks, not mid-run

    def is_name(self, word: str, lower_vocab: set[str] | frozenset[str]) -> bool:
        if "-" in word and HYPHENATED_NAME.match(word):
            # every part a name (Merleau-Ponty, Grimm-Hoffmann); a compound of words is none (Norte-Americano)
            return fold(word) not in lower_vocab and all(self.is_name(p, lower_vocab) for p in word.split("-"))
        if not self.words or len(word) < 3 or not NAME_WORD.match(word):
            return False
        f = fold(word)
        if f in lower_vocab or f in self.roles or prefixed_role(f, self.roles) or f in self.lex.closed or self.lex.is_place(word) \
                or self.is_dictionary_word(f):
            return False
        return self.lex.is_name(word) or not f.endswith(self.endings) \
            and english_zipf(word.lower()) < self.english_max_zipf

    def is_dictionary_word(self, folded: str) -> bool:
        """A lemma, an inflection of one, or a conjugated verb whose infinitive is one (``envie``: enviar);
        remembered per word (the recall fall-backs ask it of every lone capitalized word)."""
        known = self._known.get(folded)
        if known is None:
            if len(self._known) >= KNOWN_WORDS_KEPT:
                self._known.clear()
            known = self._known[folded] = self.lemma_or_inflection(folded) or self.verb_form(folded)
        return known

    def technical(self, folded: str) -> bool:
        """A technical compound hunspell lacks: a learned prefix before a word of the dictionary (``girobussola``:
        bússola) or a technical ending after three letters or more (``ecobatimetro``, ``hidrofone``)."""
        if len(folded) < 7:
            return False  # (the shortest: a four-letter word after a three-letter prefix, three letters before "metro")
        known = self._technical.get(folded)
        if known is None:
            if len(self._technical) >= KNOWN_WORDS_KEPT:
                self._technical.clear()
            known = self._technical[folded] = self._technical_compound(folded)
        return known

    def _technical_compound(self, folded: str) -> bool:
        if any(folded.endswith(e) and len(folded) - len(e) >= 3 for e in self.technical_endings):
            return True
        return any(folded.startswith(p) and len(folded) - len(p) >= 4 and self.lemma_or_inflection(folded[len(p):])
                   for p in self.technical_prefixes)

    def lemma_or_inflection(self, folded: str) -> bool:
        return lemma_or_inflection(folded, self.words)

    def verb_form(self, folded: str) -> bool:
        for end in self.verb_endings:
            if folded.endswith(end) and len(folded) - len(end) >= 2:
                stem = folded[:len(folded) - len(end)]
                if any(stem + inf in self.words for inf in INFINITIVES):
                    return True
        return False
