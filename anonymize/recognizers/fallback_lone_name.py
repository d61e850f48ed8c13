"""Recall fall-back ``fallback_lone_name``: a lone capitalized word that the Portuguese dictionary does not know,
in a person's position, is a person's name; so is a name with a regnal number.

wordfreq counts the names frequent in news as words, so the common-word list (wordfreq's top words) makes them
ordinary and ``fallback_compound`` leaves them visible when they stand alone; the dictionary test
(``anonymize/dictionary.py``: hunspell's lemmas, their inflections and conjugated verbs, what the document
writes in lower case) tells them from words. Such a word is a name only:

* ``speaker``: next to a verb of saying (``person.speech_verbs``: ``disse Nandinho``, ``Kowalczyk afirmou``,
  ``segundo Quevedo``) or right after a +HUM noun, an occupation or kin in lower case (``person.hum_nouns``,
  ``person.name_nouns``: ``a testemunha Nandinho``, ``o avançado Nandinho``, ``a tia Quitéria``);
* a word of the language is a ``speaker`` too where the document never writes it in lower case (``disse
  Coelho``, ``o avançado Leão``; not after ``person.speech_prepositions``: ``segundo Regulamento``);
* a word of the language is a ``speaker`` too as a bare subject: capitalized, no article, after a conjunction or a
  comma and before a verb in the singular (``que Pardal tomará``, ``, Cotovia já``; not a plural word: ``Pelotas
  é``; not in legal acts);
* ``speaker`` holds in the whole document: once a word is a speaker, it is a name wherever it stands alone
  (a sentence's first word too);
* ``initial-subject``: a sentence's first word (four letters or more; wordfreq may know it) before its verb (a
  conjugated verb of the dictionary that is no noun's form, a clitic glued on or not, or
  ``fallbacks.predicate_openers``: ``Nandinho foi``, ``Kowalczyk construirá``, ``Nandinho tornou-se``,
  ``Kowalczyk nunca``) or its relative clause (``Nandinho, que``), and wordfreq does not know it; one a name
  list knows (``Kowalczyk com``); or the first of a list of such words (``Nandinho, Kowalczyk e``); option
  ``sentence_initial`` (default true);
* ``unknown-words``: two or three capitalized words inside a sentence, none of them a word (``estavam Nandinho
  Kowalczyk``: wordfreq may know both; ``fallback_compound`` counts such words as ordinary);
* ``unknown-word``: one such word inside a sentence, even one wordfreq counts (``dá de ombros Nandinho``, ``a
  equipa de Kowalczyk``), unless a bare ``em`` before it makes it a place (``em Quixeramobim``), or wordfreq knows
  the word and the document is a legal act (programmes and agencies: ``Erasmus``, ``Europol``) or the word is as
  frequent as everyday words (``fallbacks.lone_name_max_zipf``: ``Dessa``, ``Faço``, spellings hunspell lacks);
* ``unknown-and-word``: two capitalized words inside a sentence, one of them no word of the dictionary but one
  wordfreq knows (not ``Amicus Curiae``) and the other no role nor a
  derived noun before it (``Revolução Francesa``), not both frequent in English (``Voodoo Child``): ``Nandinho
  Coelho``, ``Rosa Kowalczyk``; outside legal acts;
* ``role-unknown-words``: one to three such words after an occupation, kin or rank written capitalized
  (``person.name_nouns``: ``o Rei Nandinho``, ``a Tia Kowalczyk``), the role left visible;
* ``regnal``: before a Roman numeral, one to three such words or given names (``Tutmósis III``,
  ``Ataulfo II``), never after a role or an ordinary word (``Anexo III``, ``Turma II``).

Places, countries and legal concepts are left to their rules (public).
"""

from __future__ import annotations

import regex

from ...text import fold
from ..dictionary import NameTest, english_zipf
from ..lexicons import zipf
from ..recognizer import Recognizer, Segment, register
from .fallback_compound import PLACE_PREPOSITION

ROMAN_NUMERAL = regex.compile(r"^(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})$")
# the words and commas of a text, for finding speakers (a word, then a comma or nothing between it and the next)
WORD_OR_COMMA = regex.compile(r"[\p{L}'’-]+|,")
NAME_FORM = regex.compile(r"\p{Lu}\p{Ll}+")  # a capitalized word (a name's form)
NEXT_LOWER_WORD = regex.compile(r" (\p{Ll}[\p{Ll}-]*)\b")  # the word after a chain, in lower case
# after a sentence's first word: a relative clause ("Nandinho, que ...", "Kowalczyk, cujo pai ...")
ENGLISH_PHRASE_ZIPF = 2.5  # two capitalized words both this frequent in English are an English phrase
LIST_NEXT = regex.compile(r"\s*[,;]\s*(\p{Lu}\p{Ll}+)\b")  # the next item of a list of capitalized words
RELATIVE_AFTER = regex.compile(r"\s*,\s*(?:que|quem|cuj[oa]s?)\b")
# a bare capitalized word after a conjunction or a comma, before its verb: a subject without an article, a name
# ("que Pardal tomará posse", ", Cotovia já marcou", "enquanto Girassol cresceu"); groups: the word, the next word
BARE_SUBJECT = regex.compile(r"(?:,|\b(?i:que|e|nem|enquanto|quando|se|mas|porque|como|onde))\s+(\p{Lu}\p{Ll}+)"
                             r"\s+(\p{Ll}+)\b")
CLITIC = regex.compile(r"-(?:me|te|se|nos|vos|lhe|lhes|o|a|os|as|lo|la|los|las|no|na)$")  # deixa-nos, tornou-se


@register("fallback_lone_name")
class LoneNameFallback(Recognizer):
    assigns = ("PERSON",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        self.names = NameTest(rules, lex)
        self.max_zipf = float(rules.get("fallbacks", {}).get("lone_name_max_zipf", 4.6))
        self.predicate_openers = {fold(w) for w in rules.get("fallbacks", {}).get("predicate_openers", [])}
        p = rules["person"]
        self.speech = frozenset(p.get("speech_verbs", []))
        # the words a speaker follows: verbs of saying, +HUM nouns, occupations and kin
        self.after = self.speech | frozenset(p["hum_nouns"]) | frozenset(p.get("name_nouns", []))
        self.speakers: set[str] = set()
        # speakers that are also words of the language: never after "segundo" (segundo Regulamento)
        self.prepositions = frozenset(p.get("speech_prepositions", []))
        self.determiners = frozenset(p.get("noun_determiners", []))  # "a outra Parte responde": a common noun
        self.word_speakers: set[str] = set()
        self.bare: set[str] = set()  # subjects without an article (``que Pardal tomará``): speakers outside acts
        # occupations, kin and ranks written capitalized before a name (o Rei Nandinho, o Atacante Kowalczyk)
        self.role_nouns = frozenset(fold(w) for w in p.get("name_nouns", []))

    def prepare(self, texts: list[str]) -> None:
        """The document's speakers: lone capitalized words after a verb of saying or a +HUM noun in lower case, or
        before a verb of saying (``disse Nandinho``, ``a testemunha Nandinho``, ``Nandinho afirmou``)."""
        self.speakers, self.word_speakers, self.bare = set(), set(), set()
        if not self.names.words:
            return
        for t in texts:
            if self.after.isdisjoint(t.replace(",", " ").split()):
                continue  # (most segments: no trigger word)
            words = [w for w in WORD_OR_COMMA.findall(t) if w != ","]
            for k, w in enumerate(words):
                if not NAME_FORM.fullmatch(w) or k + 1 < len(words) and words[k + 1][:1].isupper() \
                        or k and words[k - 1][:1].isupper():
                    continue  # not a capitalized word standing alone
                if k and words[k - 1].lower() in self.determiners:
                    continue  # a common noun's determiner: "a outra Parte responde", "cada Estado declara"
                if k and words[k - 1] in self.after or k + 1 < len(words) and words[k + 1] in self.speech:
                    self.speakers.add(fold(w))
                    if not (k and words[k - 1] in self.prepositions):
                        self.word_speakers.add(fold(w))
        self._bare_subjects(texts)

    def document_state(self) -> tuple[frozenset[str], ...]:
        return frozenset(self.speakers), frozenset(self.word_speakers), frozenset(self.bare)

    def _bare_subjects(self, texts: list[str]) -> None:
        """Speakers too: a capitalized word with no article after a conjunction or a comma and before a verb in the
        singular (``que Pardal tomará``, ``enquanto Cotovia cresceu``, ``, Girassol já``); a common noun as a
        subject takes an article (``que a cotovia cantou``). Not in legal acts (``que Autor é parte``)."""
        for t in texts:
            for m in BARE_SUBJECT.finditer(t):
                word, verb = fold(m.group(1)), fold(CLITIC.sub("", m.group(2)))
                if not self.names.is_dictionary_word(word) or word.endswith("s") \
                        and self.names.lemma_or_inflection(word[:-1]):
                    continue  # (a word no dictionary knows has its own rules; a plural before a singular verb
                    # names a town or a club: Pelotas é, Palmeiras venceu)
                if verb.endswith("m") or verb in ("sao", "foram", "eram"):
                    continue  # a plural verb: a plural subject, no one person
                if verb in self.predicate_openers or not self.names.lemma_or_inflection(verb) \
                        and self.names.verb_form(verb):
                    self.bare.add(word)

    def find(self, seg: Segment) -> list:
        if not self.names.words:
            return []
        out = []
        lower = seg.memory.lower_vocab
        for ch in seg.analysis.chains:
            if ch.all_upper or ch.places or ch.org_head or ch.org_tail or ch.extra.get("territory") \
                    or ch.extra.get("concept") or seg.covered(ch.start, ch.end) or len(ch.words) == 1 \
                    and seg.memory.act_document and self.names.technical(fold(ch.words[0])):
                continue  # (a technical compound in an act's annex is a word: Ecobatímetro, Girobússolas)
            if len(ch.words) == 1 and not ch.title and self._speaker(seg, fold(ch.words[0])) \
                    and (self.names.is_name(ch.words[0], lower) or self._word_speaker(seg, ch.words[0])):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:speaker", score=0.4))
            elif self.options.get("sentence_initial", True) and len(ch.words) == 1 and ch.sentence_initial \
                    and not ch.title and self._subject(seg, ch):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:initial-subject", score=0.4))
            elif len(ch.words) == 1 and not ch.sentence_initial and not ch.title and self._unknown_word(seg, ch):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:unknown-word", score=0.4))
            elif 2 <= len(ch.words) <= 3 and len(ch.content) == len(ch.words) and not ch.sentence_initial \
                    and not ch.title and all(self.names.is_name(w, lower) for w in ch.words):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:unknown-words", score=0.4))
            elif self._name_and_word(seg, ch):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:unknown-and-word", score=0.4))
            elif 2 <= len(ch.words) <= 4 and fold(ch.words[0]) in self.role_nouns and not ch.sentence_initial \
                    and all(self.names.is_name(w, lower) for w in ch.words[1:]):
                start = seg.text.index(ch.words[1], ch.start + len(ch.words[0]))  # (the role stays visible)
                out.append(self.mention(seg, start, ch.end, "PERSON", "fallback:role-unknown-words", score=0.4))
            elif 2 <= len(ch.words) <= 4 and ROMAN_NUMERAL.match(ch.words[-1]) and all(
                    self.lex.is_name(w) and not self.names.is_dictionary_word(fold(w))
                    or self.names.is_name(w, lower) for w in ch.words[:-1]):
                out.append(self.mention(seg, ch.start, ch.end, "PERSON", "fallback:regnal", score=0.4))
        return out

    def _subject(self, seg: Segment, ch) -> bool:
        """A sentence's first word that the dictionary does not know, four letters or more: one a name list knows,
        the first of a list of such words, or one wordfreq does not know either before its verb (a conjugated
        verb of the dictionary or a predicate opener: ``Nandinho marcou``, ``Kowalczyk nunca``) or its relative
        clause (``Nandinho, que``)."""
        if len(ch.words[0]) < 4 or not self.names.is_name(ch.words[0], seg.memory.lower_vocab):
            return False
        if self.lex.is_name(ch.words[0]):
            return True  # a name list's word that no dictionary knows (Kowalczyk com ...)
        nxt = LIST_NEXT.match(seg.text, ch.end)
        if nxt and self.names.is_name(nxt.group(1), seg.memory.lower_vocab):
            return True  # the first of a list of names (Nandinho, Kowalczyk e ...)
        if self.lex.is_common(ch.words[0]):
            return False
        if RELATIVE_AFTER.match(seg.text, ch.end):
            return True  # "Nandinho, que ...": a relative clause after a person
        nxt = NEXT_LOWER_WORD.match(seg.text, ch.end)
        if not nxt:
            return False
        f = fold(CLITIC.sub("", nxt.group(1)))
        return f in self.predicate_openers or not self.names.lemma_or_inflection(f) and self.names.verb_form(f)

    def _speaker(self, seg: Segment, folded: str) -> bool:
        return folded in self.speakers or folded in self.bare and not seg.memory.act_document

    def _word_speaker(self, seg: Segment, word: str) -> bool:
        """A speaker that is also a word of the language (``disse Coelho``, ``o avançado Leão``): the document
        never writes it in lower case, and it is no role, body's head, closed-class word, place or derived word."""
        f = fold(word)
        return (f in self.word_speakers or f in self.bare) and len(word) >= 4 and f not in seg.memory.lower_vocab \
            and f not in self.names.roles and (f,) not in seg.analysis.rules.org_heads \
            and f not in self.role_nouns and f not in self.lex.closed and not self.lex.is_place(word) \
            and not f.endswith(self.names.endings)

    def _name_and_word(self, seg: Segment, ch) -> bool:
        """Two capitalized words inside a sentence of a text that is no legal act, one no dictionary knows but
        wordfreq does (names in the news), neither a role: a given name and a surname that is also a word, or the reverse (``Nandinho Coelho``,
        ``Rosa Kowalczyk``)."""
        if len(ch.words) != 2 or len(ch.content) != 2 or ch.sentence_initial or ch.title or ch.places \
                or seg.memory.act_document:
            return False
        unknown = [self.names.is_name(w, seg.memory.lower_vocab) for w in ch.words]
        if unknown.count(True) != 1:
            return False
        if not self.lex.is_common(ch.words[unknown.index(True)]):
            return False  # (a word wordfreq does not know either beside a word: a Latin or technical phrase)
        other = fold(ch.words[unknown.index(False)])
        if len(other) < 3 or other in self.lex.closed or not unknown[0] and other.endswith(self.names.endings) \
                or any(f in self.names.roles or f in self.role_nouns for f in map(fold, ch.words)):
            return False  # (a derived noun first heads a phrase: Revolução Francesa, Operação Barbarossa)
        # two words frequent in English are an English phrase (a work's title: Voodoo Child, Eye Saver)
        return min(english_zipf(w.lower()) for w in ch.words) < ENGLISH_PHRASE_ZIPF

    def _unknown_word(self, seg: Segment, ch) -> bool:
        """A lone word inside a sentence that the dictionary does not know (``NameTest.is_name``), four letters or
        more, not after a bare ``em`` (a place: ``em Quixeramobim``)."""
        word = ch.words[0]
        if len(word) < 4 or self.lex.is_common(word) and (
                seg.memory.act_document or zipf(word.lower()) >= self.max_zipf):
            return False  # (a legal act names programmes and bodies wordfreq knows, Erasmus, Europol, not people;
            # an everyday word of another spelling is frequent: Dessa, Faço)
        return self.names.is_name(word, seg.memory.lower_vocab) \
            and not PLACE_PREPOSITION.search(seg.text, max(0, ch.start - 4), ch.start)
