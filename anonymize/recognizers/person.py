"""PERSON: names after titles and +HUM nouns, names the lexicons know, inverted ``SURNAME, Given`` forms.

The title (``Sr.``, ``Dr.ª``) stays visible: only the name is replaced.
"""

from __future__ import annotations

import regex

from ...text import fold
from ..chains import Chain
from ..dictionary import NameTest
from ..recognizer import Recognizer, Segment, register


def person_rule(ch: Chain, honorifics: frozenset[str] | set[str] = frozenset()) -> str:
    """Why a chain is a person's name, or '' when the safe person rules do not apply."""
    content = len(ch.content)
    named = ch.first_names + ch.surnames
    if ch.org_head or ch.org_tail or content == 0:
        return ""
    if ch.common - ch.extra.get("ambiguous", 0) >= content and not ch.all_upper and fold(ch.title) not in honorifics:
        return ""  # "Deputado Distrital", "Presidente da República": a title before ordinary words (a surname
        # that is also a word does not count: "Ministro Castro Meira")
    if ch.title and not ch.sentence_initial:  # a title makes even a place-like word a name (Sr. Valadares)
        return "title"
    if ch.places == content or ch.extra.get("concept") or ch.extra.get("territory"):
        return ""
    if ch.inverted:
        return "inverted"
    if ch.title and not ch.sentence_initial or (ch.title or ch.hum) and named + ch.unknown + (ch.all_upper and content > 1) > 0:
        return "title" if ch.title else "hum_noun"
    first = ch.content[0]
    if content == 1 and ch.all_upper and len(first) <= 8:
        return ""  # one word in capitals (ESMA, IMO, OLAF) is an acronym, whatever a name list says
    # after a first name, a place name is a surname as often as not (MARTA SEQUEIRA LOBATO, Rui Braga)
    if ch.first_names and (first in ch.words[:1]) and named + ch.unknown + ch.places >= max(1, content - ch.common):
        if content > 1 or not ch.sentence_initial or not ch.common:
            return "lexicon:first-name"
    if content >= 2 and named == content:
        return "lexicon:all-name-words"
    return ""


# a particle and a word in lower case after a capitalized word: its complement (a name's particle comes before a
# capitalized surname)
NOUN_COMPLEMENT = regex.compile(r"\s+d[aeo]s?\s+\p{Ll}")
# an identifier right after a word: a code in capitals or a number ("Norma EN ISO 12402", "Norma 3"), which a noun
# takes before it and a given name does not
CODE_AFTER = regex.compile(r"\s+(?:\p{Lu}{2,}|\d)")
# a capitalized word and a contracted article before a chain: the chain ends a title's phrase ("Salvaguarda da Vida
# Humana no Mar", "Prémio ao Mérito"), no person's name
TITLE_PHRASE_BEFORE = regex.compile(r"\p{Lu}\p{Ll}+\s+(?:n[oa]s?|pel[oa]s?|aos?|às?)\s+\Z")
# a particle right before a chain: the chain is the complement of the title before it (Presidente do Brasil)
PARTICLE_BEFORE = regex.compile(r"(?<!\p{L})d[aeo]s?\s+\Z")


WORD = regex.compile(r"[\p{L}\p{M}'’.-]+")
PARTICLES = frozenset({"de", "da", "do", "das", "dos", "e"})
COMPLEMENT_BEFORE = regex.compile(r"(?<![\p{L}])d[aeo]s?\s+\Z")  # a title's complement: "Presidente dos ..."
# a regnal number right after a name, before a full stop too (the chains end a capitals word there as an
# abbreviation): "Rainha Margarida II.", "Carlos IX.", "Napoleão I,"
# the word in lower case right before a chain (a +HUM noun or an occupation: "a deputada", "o avançado")
LOWER_WORD_BEFORE = regex.compile(r"(?<![\p{L}])(\p{Ll}[\p{Ll}-]+)\s+\Z")
REGNAL_AFTER = regex.compile(r"\s(?:X{0,3}(?:IX|IV|V?I{1,3})|X{1,3}|V)(?![\p{L}\p{N}])")


@register("person")
class PersonRecognizer(Recognizer):
    assigns = ("PERSON",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        self.names = NameTest(rules, lex)
        # the states and unions a title's complement names before a person ("Copresidente da União Europeia Anna X")
        self.polities = set(lex.territories) | {fold(p) for p in rules.get("polities", [])}
        p = rules["person"]  # +HUM nouns, occupations and kin, in lower case before a name
        self.role_nouns = frozenset(fold(w) for w in p["hum_nouns"] + p.get("name_nouns", []))

    def find(self, seg: Segment) -> list:
        out = []
        for ch in seg.analysis.chains:
            if seg.covered(ch.start, ch.end):
                continue
            rule = person_rule(ch, seg.analysis.rules.honorifics)
            if not rule and ch.title and not ch.sentence_initial and not (ch.org_head or ch.org_tail) \
                    and ch.content and all(self.names.is_name(w, seg.memory.lower_vocab) for w in ch.content):
                rule = "title:unknown-words"  # "a Presidente Nandinha Kowalczyk": no word of the language
            if not rule and self._after_role_noun(seg, ch):
                rule = "role-noun:name-words"
            if rule == "lexicon:first-name" and len(ch.content) == 1 and self._common_noun(seg.text, ch):
                continue  # "Norma de ensaio", "Norma EN ISO ...", "Vida Humana no Mar": a noun, not a given name
            if rule == "title" and ch.places == len(ch.content) \
                    and PARTICLE_BEFORE.search(seg.text, max(0, ch.start - 5), ch.start):
                continue  # "Presidente do Brasil", "Rei de Espanha": a place after its title's particle, not a name
            if rule:
                regnal = REGNAL_AFTER.match(seg.text, ch.end)
                end = regnal.end() if regnal else ch.end
                out.append(self.mention(seg, self._after_polity(seg.text, ch.start, ch.end), end, "PERSON", rule))
        return out

    def _after_role_noun(self, seg: Segment, ch) -> bool:
        """Two to four capitalized words right after a +HUM noun or an occupation in lower case, one of them no word
        of the dictionary, none a role: a name whose words the name lists lack and wordfreq counts (``a deputada
        Nandinha Quaresma``, ``o avançado Kowalczyk Lisboa``: a place is a surname as often as not)."""
        if not 2 <= len(ch.content) <= 4 or ch.sentence_initial or ch.all_upper or ch.org_head \
                or ch.org_tail or ch.extra.get("concept") or ch.extra.get("territory"):
            return False
        before = LOWER_WORD_BEFORE.search(seg.text, max(0, ch.start - 30), ch.start)
        if not before or fold(before.group(1)) not in self.role_nouns:
            return False
        folded = [fold(w) for w in ch.content]
        if any(f in self.names.roles or f in self.role_nouns for f in folded):
            return False
        return any(self.names.is_name(w, seg.memory.lower_vocab) for w in ch.content)

    def _common_noun(self, text: str, ch) -> bool:
        """A lone given name that is also a word, used as the word: before its complement (``Norma de ensaio``,
        ``Rosa dos ventos``), before an identifier (``Norma EN ISO 12402``, ``Norma 3``) or closing a capitalized
        title after a contracted article (``Vida Humana no Mar``)."""
        if NOUN_COMPLEMENT.match(text, ch.end):
            return True
        return self.names.is_dictionary_word(fold(ch.content[0])) and (
            CODE_AFTER.match(text, ch.end) is not None
            or TITLE_PHRASE_BEFORE.search(text, max(0, ch.start - 40), ch.start) is not None)

    def _after_polity(self, text: str, start: int, end: int) -> int:
        """Where the name starts after the state or union that opens the span, the complement of the title before
        it ("Presidente dos Estados Unidos James HARRIS" -> "James HARRIS"); ``start`` when none does."""
        if not COMPLEMENT_BEFORE.search(text, max(0, start - 5), start):
            return start  # (no title's complement: "Sr. Portugal Ribeiro" is a surname)
        words = list(WORD.finditer(text, start, end))
        for k in range(len(words) - 1, 0, -1):
            head = " ".join(fold(w.group()) for w in words[:k] if w.group() not in PARTICLES)
            if head in self.polities and words[k].group()[:1].isupper() and words[k].group() not in PARTICLES:
                return words[k].start()
        return start
