"""PERSON: a name written with initials, ``J. P. Almeida``, ``T. Vidigal``, ``M.-L. Kowalczyk``: one to three
capital letters each with its full stop, then one to three capitalized words (a particle may stand between them:
``T. de Vidigal``, ``F. von der Heyde``). The words must not be a role or title (``V. Exa.``), a body's head or
legal-form tail, a word of the dictionary no name list holds (``C. Civil``; a heading's enumeration, ``B. Contexto``)
or a derived word, and the last must be no place (a club or a body named by its town: ``S. C. Braga``). A single
``S.`` is São before a saint's or a town's name (``S. Bento``), no initial; a single letter opening a text labels
an item of a list (``B. Vidigal`` as a text's first words). Names joined by ``e`` are two names (``M. Vidigal e
T. Kowalczyk``).
"""

from __future__ import annotations

import regex

from ...text import fold
from ..chains import ChainRules
from ..dictionary import lemma_or_inflection
from ..recognizer import Recognizer, Segment, register

# a name's particle before a capitalized word (T. de Vidigal, F. von der Heyde)
PARTICLE = r"(?:d[aeo]s?\s+|d[’']|v[ao]n\s+(?:de[rn]\s+)?|de\s+la\s+)"
# a capitalized word, hyphenated or after an elided particle (Heyde-Albrecht, D'Ávila)
# (not an abbreviation with its ordinal sign or ending, "V. Ex.ª", "V. Ex.as", nor a code's part before a slash, "Ac/TE")
NAME = r"(?:\p{Lu}['’])?\p{Lu}\p{Ll}+(?:-\p{Lu}?\p{Ll}+)*(?![\p{L}/]|\.?[ªº]|\.\p{Ll})"
# initials, then capitalized words; groups: the initials, the words
INITIALS_NAME = regex.compile(
    rf"(?<![\p{{L}}.])(?P<initials>(?:\p{{Lu}}\.\s?(?:-\s?)?){{1,3}})\s*"
    rf"(?P<words>{PARTICLE}?{NAME}(?:\s+{PARTICLE}?{NAME}){{0,2}})")
NAME_WORD = regex.compile(r"\p{Lu}[\p{L}'’-]+")
SAINT_INITIALS = frozenset({"s."})  # São before a saint's or a town's name


@register("person_initials")
class InitialsNameRecognizer(Recognizer):
    assigns = ("PERSON",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        crules = self.chain_rules = ChainRules(rules)
        p = rules["person"]
        self.roles = {t.rstrip(".") for t in crules.titles | crules.hum} \
            | {fold(w) for w in p.get("name_nouns", [])} | {fold(w) for w in rules.get("not_names", [])}
        self.heads = {h[0] for h in crules.org_heads}
        self.endings = tuple(fold(e) for e in rules.get("fallbacks", {}).get("derived_endings", []))

    def find(self, seg: Segment) -> list:
        t = seg.text
        if "." not in t:
            return []
        out = []
        for m in INITIALS_NAME.finditer(t):
            if seg.covered(m.start(), m.end()) or not self._name_words(m) \
                    or len(m.group("initials").strip()) == 2 and not t[:m.start()].strip():
                continue  # (or a list's label: "B. Quaresma" opening the text)
            out.append(self.mention(seg, m.start(), m.end(), "PERSON", "initials", score=0.8))
        return out

    def _name_words(self, m: regex.Match) -> bool:
        """Whether the words after the initials are a name: no role, body's head or tail, no word of the dictionary
        or derived word that no name list holds, and no place last; and the initials are no saint's abbreviation."""
        if fold(m.group("initials").replace(" ", "")) in SAINT_INITIALS:
            return False
        words = NAME_WORD.findall(m.group("words"))
        folded = [fold(w) for w in words]
        if any(f in self.roles or f in self.heads or self.chain_rules.is_tail(w) for w, f in zip(words, folded, strict=True)):
            return False
        if self.lex.is_place(words[-1]):
            return False  # (a club or a body named by its town: "S. C. Braga", "F. C. Porto")
        return not any((f.endswith(self.endings) or lemma_or_inflection(f)) and f not in self.lex.last
                       and f not in self.lex.first for f in folded)
