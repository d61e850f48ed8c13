"""English titles quoted in a Portuguese legal act (the names of foreign standards, guides and circulars an
annex's tables keep in English: ``Standard for Floating Electric Waterlights``, ``Navigation and Vessel Inspection
Circular``, ``Marine Safety Manual``) are public text, no person's or company's name.

Only in a document that is a legal act (its first unit is an act's numbered title). A title is a run of
capitalized words with a document's noun among them (``document_nouns`` of ``en.yaml``: Standard, Guide, Code,
Manual, Circular, Requirements ...), or one that is most of its unit (a table's cell in English):

* ``linked``: joined by an English function word (``for``, ``of the``, ``and``, ``on``), which no Portuguese name
  holds;
* ``english-words``: or three words or more, most of them (two at least) more frequent in English than in
  Portuguese (wordfreq) and frequent in English, the others no name of the name lists (``Marine Safety Manual``,
  ``Lifesaving Appliances Code Testing Guide``; ``Mary Ann Smith``, ``Peter Hill Brown`` stay names);

and never one with a given name before a name (``Peter Hill``: a person) or with a company's legal tail or a body's or an association's head noun (``organizations.legal_tails``,
``body_heads`` and ``association_heads`` of ``en.yaml``: ``American Society for Testing``, ``Coast Guard Marine
Safety Center``), which the organisation rules judge."""

from __future__ import annotations

import regex

from ...text import fold
from ...yaml_files import read_yaml
from ..dictionary import english_zipf
from ..lexicons import zipf
from ..recognizer import Recognizer, Segment, alternation, register

CAPITALIZED = r"\p{Lu}[\p{L}\p{M}'’-]*"
# English function words between a title's capitalized words ("Standard for Floating ...", "Code of the Sea")
ENGLISH_LINK = r"(?:for|of|and|on|to|in|with|at|by)(?:\s+the)?"
TITLE_RUN = regex.compile(rf"(?<![\p{{L}}\d]){CAPITALIZED}(?:\s+(?:{ENGLISH_LINK}\s+)?{CAPITALIZED})+")
LINKED = regex.compile(rf"\s(?:{ENGLISH_LINK})\s")
WORD = regex.compile(r"[\p{L}\p{M}'’-]+")
ENGLISH_WORD_ZIPF = 3.0  # frequent in English (wordfreq Zipf), and more than in Portuguese
MIN_ENGLISH_WORDS = 3
EN_DATA = "en.yaml"


@register("english_title")
class EnglishTitleRecognizer(Recognizer):
    assigns = ("LEGAL_REFERENCE",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        from pathlib import Path

        orgs = read_yaml(Path(__file__).resolve().parent.parent / "data" / EN_DATA).get("organizations", {})
        self.org_words = frozenset(fold(w.rstrip(".")) for key in ("legal_tails", "body_heads", "association_heads")
                                   for w in orgs.get(key, []))
        self.joiners = frozenset(fold(w) for w in orgs.get("name_openers", []))
        self.document_noun = regex.compile(rf"(?<![\p{{L}}])(?:{alternation(orgs.get('document_nouns', []))})(?![\p{{L}}])")

    def find(self, seg: Segment) -> list:
        if not seg.memory.act_document:
            return []
        out = []
        for m in TITLE_RUN.finditer(seg.text):
            if not (self._cell(seg.text, m) or self.document_noun.search(m.group())):
                continue  # (most runs: a Portuguese name or heading, no document's title)
            content = [w for w in WORD.findall(m.group()) if w[:1].isupper() and fold(w) not in self.joiners]
            folded = [fold(w.rstrip(".")) for w in content]
            if len(content) < 2 or seg.covered(m.start(), m.end()) or self._person_in(content) \
                    or not self.org_words.isdisjoint(folded):
                continue
            if LINKED.search(m.group()) and any(self._english(w) for w in content):
                out.append(self.mention(seg, m.start(), m.end(), "LEGAL_REFERENCE", "english-title:linked"))
            elif len(content) >= MIN_ENGLISH_WORDS and self._english_run(content):
                out.append(self.mention(seg, m.start(), m.end(), "LEGAL_REFERENCE", "english-title:english-words"))
        return out

    @staticmethod
    def _cell(text: str, m) -> bool:
        """The run is three quarters of its segment at least: a table's cell or a heading in English, not a name in
        a Portuguese sentence."""
        return 4 * len(m.group()) >= 3 * len(text.strip())

    def _person_in(self, content: list[str]) -> bool:
        """A given name before a name (``Peter Hill``, ``Mary Ann``, ``John WHITE``): a person among the words."""
        return any(fold(a) in self.lex.first and self.lex.is_name(b) for a, b in zip(content, content[1:], strict=False))

    def _english_run(self, content: list[str]) -> bool:
        """Most words English (two at least), and the others no name: words of either language (``Manual``) or
        English compounds wordfreq barely knows (``Lifesaving``)."""
        english = [self._english(w) for w in content]
        return sum(english) >= max(2, (len(content) + 1) // 2) \
            and not any(self.lex.is_name(w) for w, e in zip(content, english, strict=False) if not e)

    @staticmethod
    def _english(word: str) -> bool:
        low = word.lower()
        return english_zipf(low) >= ENGLISH_WORD_ZIPF and english_zipf(low) > zipf(low)
