"""Proper-noun chains: the capitalized token runs that person, organisation and fall-back recognizers classify.

A chain is a maximal run of capitalized tokens, joined by name particles (``da``,
``dos``, ``van`` ...), hyphens and ``&``. Each chain carries the cues the
literature's rules look at: a title or +HUM noun on its left, an organisation head
noun or legal-form tail, first names and surnames from the lexicons, whether its
words are ordinary Portuguese words (``a CONTA``) or public place names, and
whether it starts a sentence. The analysis runs once per segment and is shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

import regex
from spacy.attrs import IDX, LENGTH, SPACY
from spacy.tokens import Doc

from ..text import fold
from .lexicons import Lexicons, zipf
from .territories import long_form

OPENERS = {'"', "“", "«", "(", "[", "‘", "'"}
# a word a name can be made of: letters, inner apostrophes, dots (initials) and hyphens; no brackets or digits
NAME_WORD = regex.compile(r"^[\p{L}][\p{L}\p{M}'’.·-]*(?:(?<=\p{Ll})-\d{1,2})?$")  # (an office's number: Braga-1)
# a verb with an enclitic pronoun (Trata-se, Revogam-se, Junte-se): an ordinary word, never a name
ORDINAL = regex.compile(r"^\d{1,3}\.?\s?[ªºaª]\.?$")
ROMAN_NUMERAL = regex.compile(r"^(?=[IVXL])X{0,3}(?:IX|IV|V?I{0,3})$|^L$")  # Subseção II, Turma IV
LOWER_WORD = regex.compile(r"(?<![\p{L}-])\p{Ll}[\p{L}\p{M}-]+")  # a word written in lower case
# a gerund (SUBLINHANDO, Considerando, Reconhecendo): the verb that opens a preamble's clause
GERUND = regex.compile(r"^\p{L}{3,}(?:ando|endo|indo)$", regex.IGNORECASE)
CLITIC_VERB = regex.compile(r"^\p{L}{3,}-(?:se|lhe|lhes|lo|la|los|las|nos|vos|me|te|o|a|os|as)$", regex.IGNORECASE)
HEAD_LINKS = {"em", "para", "contra", "sobre"}  # prepositions inside a body's name (see analyse)
HEAD_CONTRACTIONS = {"à", "às", "ao", "aos"}  # "Associação de Apoio à Vítima": a preposition and article, as written
SENTENCE_END = {".", "!", "?", ":", ";", "•", "-", "–", "—"}


@dataclass
class Chain:
    start_tok: int
    end_tok: int  # exclusive
    start: int
    end: int
    words: list[str]
    title: str = ""
    hum: str = ""
    org_head: tuple[str, str] | None = None  # (subtype, head)
    org_tail: str = ""
    first_names: int = 0
    surnames: int = 0
    common: int = 0
    places: int = 0
    unknown: int = 0
    all_upper: bool = False
    sentence_initial: bool = False
    in_parens: bool = False
    inverted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @cached_property  # (read a hundred thousand times per 8,000 segments; ``words`` never changes after making)
    def content(self) -> list[str]:
        return [w for w in self.words if w[:1].isupper() or w[:1].isdigit()]


class ChainRules:
    """Folded lookup sets built once from the YAML rules."""

    def __init__(self, rules: dict[str, Any]) -> None:
        p, o = rules["person"], rules["organization"]
        self.titles = {fold(t) for t in p["titles"]}
        self.hum = {fold(t) for t in p["hum_nouns"]}
        self.honorifics = {fold(t) for t in p.get("honorifics", [])}
        self.particles = {fold(t) for t in p["particles"]}
        self.person_tails = {fold(t) for t in p["tails"]}
        self.org_tails = {fold(t) for t in o["tails"]}
        self._tails_lower = {t.lower() for t in o["tails"]}
        self._tails_exact = set(o["tails"])
        self.org_heads: dict[tuple[str, ...], str] = {}
        for subtype, heads in o["heads"].items():
            for h in heads:
                self.org_heads.setdefault(tuple(fold(x) for x in h.split()), subtype)
        self.max_head = max(len(k) for k in self.org_heads)
        # bodies named by one expression with no head + name (Plenário, União, Distrito Federal)
        self.standalone = {" ".join(fold(x) for x in b.split()): sub
                           for sub, bodies in o.get("standalone", {}).items() for b in bodies}
        self.function_words = {fold(t) for t in rules.get("function_words", [])}
        self.not_names = {fold(t) for t in rules.get("not_names", [])}
        self.sub_heads = {tuple(fold(x) for x in h.split()) for h in o["sub_heads"]}
        self.long_form_openers = [tuple(fold(x) for x in op.split())
                                  for op in rules.get("places", {}).get("long_form_openers", [])]
        self.opener_words = {op[0] for op in self.long_form_openers}
        self.concept_heads = {tuple(fold(x) for x in h.split()) for h in p.get("concept_heads", [])}

    def is_tail(self, word: str) -> bool:
        """A legal-form tail (``Lda.``, ``S.A.``, ``GmbH``) as companies write it: accents count (``Sá`` is a
        surname, not ``SA``), and a short tail without a dot is written in capitals or as listed (``As`` is an
        article, ``AS`` a Norwegian company)."""
        w = word.lower()
        if w not in self._tails_lower:
            return False
        return len(word) > 3 or not word.isalpha() or word.isupper() or word in self._tails_exact

    def head_at(self, toks: list, k: int, end: int) -> bool:
        folded = tuple(fold(t.text) for t in toks[k:min(end, k + self.max_head)])
        return any(folded[:n] in self.org_heads for n in range(1, len(folded) + 1))


@lru_cache(maxsize=1 << 17)  # asked a dozen times per token by the chain rules; words recur
def is_cap(text: str) -> bool:
    c = text[2:3] if text[:2] in ("d'", "d’") else text[:1]  # (an elided particle glued on: "Chave d'Ouro")
    return c.isupper() and any(ch.isalpha() for ch in text) and NAME_WORD.match(text) is not None


@lru_cache(maxsize=1 << 17)
def is_upper_word(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def _case_break(first: str, prev: str, word: str, rules: ChainRules, lex: Lexicons) -> bool:
    """An all-capitals name does not run on into a capitalized word (``BRITO Revisor``), nor a
    capitalized name into an acronym the lexicons do not know as a name (``Tribunal Federal ACO``)."""
    f = fold(word)
    if rules.is_tail(word) or f in rules.particles or ROMAN_NUMERAL.match(word) or ROMAN_NUMERAL.match(prev):
        return False
    if is_upper_word(first) and is_upper_word(prev) and not is_upper_word(word) \
            and sum(c.isalpha() for c in word) > 1:
        return True
    return not is_upper_word(prev) and is_upper_word(word) and f not in lex.first and f not in lex.last \
        and len(word) <= 5


def _starts_new_chain(toks: list, j: int, first: str, rules: ChainRules, lex: Lexicons) -> bool:
    """Whether capitalized token ``j`` starts a chain of its own instead of continuing the one begun by ``first``:
    a title ("GABINETE DO DESEMBARGADOR X" is a person's chain), a change of case (``BRITO Revisor``),
    capitals after ordinary capitalization that open an organisation ("da União TRIBUNAL DE JUSTIÇA"), a
    case code (``ACO 2821``). Not after "/" (``CREA/DF``), nor a case change after an ordinal (``11ª CJM``)."""
    t, prev = toks[j].text, toks[j - 1].text
    if prev == "/":
        return False
    return fold(t) in rules.titles and not (fold(t) in ("senhora", "senhor") and (fold(prev) == "nossa" or j + 1 < len(toks) and toks[j + 1].text in ("da", "do", "dos", "das"))) \
        or not ORDINAL.match(prev) and _case_break(first, prev, t, rules, lex) \
        or not is_upper_word(prev) and is_upper_word(t) and rules.head_at(toks, j, len(toks)) \
        or _code_or_abbreviation(toks, j, lex)


def _role(word: str, rules: ChainRules) -> bool:
    f = fold(word)
    return (f in rules.hum or f in rules.titles or f in rules.not_names) and f not in rules.person_tails


def _code_or_abbreviation(toks: list, j: int, lex: Lexicons) -> bool:
    """``ACO 2821``, ``HC 123``: a capitals word before a number is a case code; ``AGTE.``, ``PROC.``: a short
    capitals word with a full stop glued on is an abbreviation. Neither belongs to the name before it."""
    t = toks[j]
    nxt = toks[j + 1] if j + 1 < len(toks) else None
    if nxt is None or not is_upper_word(t.text):
        return False
    f = fold(t.text)
    if f in lex.first or f in lex.last:
        return False
    # case codes are short (ACO, ADI, HC, REsp): a long word before a date is a name (LEWANDOWSKI 16/03/2018)
    return nxt.text[:1].isdigit() and len(t.text) <= 6 or (nxt.text == "." and (
        not t.whitespace_ and len(t.text) <= 5 or len(t.text) <= 4))


def lower_vocabulary(texts: list[str]) -> set[str]:
    """Words a document writes in lower case: the same word capitalized elsewhere is an ordinary word."""
    out: set[str] = set()
    for t in texts:
        out.update(fold(w) for w in LOWER_WORD.findall(t))
    return out

TOKEN_ATTRS = [IDX, LENGTH, SPACY]


class Tok(NamedTuple):
    """A token's text, offset and trailing space, read once from spaCy (``Token.text`` builds a new
    string on every access, and the chain rules look at each token's text a dozen times)."""

    text: str
    idx: int
    whitespace_: str


def analyse(doc: Doc, rules: ChainRules, lex: Lexicons, lower_vocab: set[str] | None = None,
            text: str | None = None) -> list[Chain]:
    """The capitalized runs (chains) of a tokenized text, with what the rules see in them. ``text`` is the
    doc's text when the caller has it (``Doc.text`` joins every token's text again)."""
    if text is None:
        text = doc.text
    # read the tokens' offsets, lengths and trailing spaces in one array: a token's text is the doc's text
    # there (spaCy's tokenization never changes a character), and walking ``doc`` made a Token object each
    toks = [Tok(text[idx:idx + length], idx, " " if space else "")
            for idx, length, space in doc.to_array(TOKEN_ATTRS).tolist()]
    n = len(toks)
    chains: list[Chain] = []
    i = 0
    while i < n:
        tok = toks[i]
        if not is_cap(tok.text) or fold(tok.text) in rules.titles and i + 1 < n and is_cap(toks[i + 1].text):
            i += 1
            continue
        j = _chain_end(toks, i, rules, lex)
        k, title = _name_start(toks, i, j, rules, lex)
        if k < j and fold(toks[k].text) not in rules.titles and fold(toks[k].text) not in rules.function_words:
            ch = _make_chain(doc, toks, k, j, rules, lex, lower_vocab or set())
            if title and not ch.title:
                ch.title = title
            if k > i:
                ch.extra["run_start"] = next(x for x in range(i, k + 1) if x == k or fold(toks[x].text) not in rules.function_words)  # (ordinary words left out, no article: a company's name may claim them)
            if k > i and toks[k - 1].text not in SENTENCE_END:
                ch.sentence_initial = ch.sentence_initial or all(
                    fold(t.text) in rules.function_words or fold(t.text) in lex.common for t in toks[i:k]) and (
                    i == 0 or toks[i - 1].text in SENTENCE_END)
                if ch.sentence_initial and all(fold(t.text) in lex.closed for t in toks[i:k]):
                    ch.extra["after_opener"] = True  # "Segundo Ptolomeu", "Para Khomeini": a preposition opens
            chains.append(ch)
        i = j
    _merge_company(chains, toks, doc, rules, lex, lower_vocab or set())
    _merge_inverted(chains, toks, doc, lex)
    return chains


def _joins(toks: list, i: int, j: int, rules: ChainRules, lex: Lexicons) -> int:
    """How many tokens from ``j`` join the chain begun at ``i`` (0: the chain ends before ``j``)."""
    n = len(toks)
    t = toks[j]
    prev = toks[j - 1]
    if is_cap(t.text) and _starts_new_chain(toks, j, toks[i].text, rules, lex):
        return 0
    if is_cap(t.text) and prev.whitespace_ or (is_cap(t.text) and prev.text in "-'’&/"):
        return 1
    if (fold(t.text) in rules.particles and j + 1 < n and is_cap(toks[j + 1].text)
            and not t.text[:1].isupper()
            and not (fold(t.text) == "e" and (fold(toks[j + 1].text) in lex.first
                                              or fold(toks[j + 1].text) in rules.not_names))
            and not rules.is_tail(prev.text)):
        return 1
    # (the run may open with a sentence's article: "O Centro de Atendimento à Família")
    head = i + (fold(toks[i].text) in rules.function_words and i + 1 < j)
    if ((fold(t.text) in HEAD_LINKS or t.text.lower() in HEAD_CONTRACTIONS) and rules.head_at(toks, head, j)
            and j + 1 < n and (is_cap(toks[j + 1].text) or j + 2 < n and toks[j + 1].text in ("a", "o", "as", "os")
                 and is_cap(toks[j + 2].text))):
        # "Subseção II Especializada em Dissídios Individuais", "Juizados de Violência Doméstica contra a
        # Mulher": inside a body's name, a preposition before capitalized words
        return 1 if is_cap(toks[j + 1].text) else 2
    if (fold(t.text) == "e" and j + 2 < n and fold(toks[j + 1].text) in rules.particles
            and is_cap(toks[j + 2].text) and rules.head_at(toks, i, j)):
        return 2  # "Tribunal de Justiça do Distrito Federal e dos Territórios"
    if (fold(t.text) in rules.particles and j + 2 < n and ORDINAL.match(toks[j + 1].text)
            and is_cap(toks[j + 2].text) and rules.head_at(toks, i, j)):
        return 2  # "Auditoria da 11ª CJM": an organisation numbered within another
    return _joins_by_sign(toks, j, rules)


def _joins_by_sign(toks: list, j: int, rules: ChainRules) -> int:
    """Signs inside a name: a hyphen or apostrophe, ``CREA/DF``, ``&``, a legal-form tail (after a comma)."""
    n = len(toks)
    t = toks[j]
    prev = toks[j - 1]
    if t.text in ("-", "'", "’") and not prev.whitespace_ and j + 1 < n and is_cap(toks[j + 1].text):
        return 1
    if t.text == "/" and not prev.whitespace_ and not t.whitespace_ and is_upper_word(prev.text) \
            and j + 1 < n and is_upper_word(toks[j + 1].text):
        return 1  # "CREA/DF", "SEE/DF": an acronym with its state
    if t.text == "&" and j + 1 < n and is_cap(toks[j + 1].text):
        return 1
    if t.text in (",",) and j + 1 < n and rules.is_tail(toks[j + 1].text):
        return 2
    if t.text[:1].isupper() and rules.is_tail(t.text):
        return 1
    return 0


def _chain_end(toks: list, i: int, rules: ChainRules, lex: Lexicons) -> int:
    """The end (exclusive) of the capitalized run that starts at ``i``, dangling particles and trailing roles
    left out."""
    n = len(toks)
    j = i + 1
    while j < n:
        t = toks[j]
        if is_cap(t.text) and fold(toks[j - 1].text) in rules.particles and is_upper_word(t.text) \
                and fold(t.text) not in rules.titles and rules.head_at(toks, i, j):
            j += 1  # "Secretaria de Recursos do TCU": the acronym of the parent body ends the name
            continue
        step = _joins(toks, i, j, rules, lex)
        if not step:
            break
        j += step
        if rules.is_tail(toks[j - 1].text) and j - 1 > i and not (
                j < n and toks[j].text == "," and j + 1 < n and rules.is_tail(toks[j + 1].text)):
            break  # a legal-form tail ends the organisation name
    while j - 1 > i and fold(toks[j - 1].text) in rules.particles:
        j -= 1  # a particle left dangling before a title
    if is_upper_word(toks[i].text):
        # "LEWANDOWSKI AGRAVANTE", "BARROSO FILHO RELATOR": a trailing ordinary capitalized word is a role
        while j - 1 > i and is_upper_word(toks[j - 1].text) and _role(toks[j - 1].text, rules) \
                and not rules.head_at(toks, i, j):
            j -= 1
    return j


def _name_start(toks: list, i: int, j: int, rules: ChainRules, lex: Lexicons) -> tuple[int, str]:
    """Where the name in the run ``toks[i:j]`` starts, and the title before it: leading titles, articles and
    (at a sentence start) ordinary words are context, not name."""
    n = len(toks)
    k = i
    title = ""
    # "SERRÃO CALADO, Matilde": before ", Given" every word is a surname, however ordinary
    inverted_next = j + 1 < n and toks[j].text == "," and fold(toks[j + 1].text) in lex.first \
        and is_upper_word(toks[i].text)
    # after a title ("Des.: WALDIR LEÔNCIO", "Min. FORTUNA GRION") the first word is a name, however ordinary
    after_title = any(fold(t.text) in rules.titles for t in toks[max(0, i - 3):i])
    # a company's name keeps its first word however ordinary ("Cartonagem do Vouga, S.A." after a colon)
    company = rules.is_tail(toks[j - 1].text)
    while k + 1 < j and not inverted_next:
        f = fold(toks[k].text)
        initial = (k == 0 or toks[k - 1].text in SENTENCE_END or toks[k - 1].text in OPENERS) \
            and not (k == i and after_title)
        if f in rules.titles:
            title = toks[k].text
        elif rules.head_at(toks, k, j) and f not in rules.function_words:
            break  # "EMENTA: TRIBUNAL DE JUSTIÇA ...": an organisation head is the name's first word
        elif f not in rules.function_words and rules.head_at(toks, k + 1, j):
            break  # "Supremo Tribunal Federal": the word before an organisation head belongs to the name
        elif not (f in rules.function_words or initial and f in lex.common and f not in lex.last and not company):
            break
        k += 1
    return k, title


def _merge_company(chains: list[Chain], toks: list, doc: Doc, rules: ChainRules, lex: Lexicons,
                   lower_vocab: set[str]) -> None:
    """A company's name broken by a change of case: an organisation head and the acronym after it
    (``Grupo RX``, ``Banco BPI``) are one name, and a legal-form tail claims every capitalized run that
    touches it on the left (``Grupo RX Engenharia e Obras Ltda.``, ``Sol OK Mar, Lda.``)."""
    k = 0
    while k + 1 < len(chains):
        a, b = chains[k], chains[k + 1]
        head_alone = tuple(fold(w) for w in a.words) in rules.org_heads
        if a.end_tok == b.start_tok and head_alone and is_upper_word(b.words[0]) and not b.title:
            chains[k:k + 2] = [_remake(a, b, toks, doc, rules, lex, lower_vocab)]
            continue
        k += 1
    k = len(chains) - 1
    while k > 0:
        a, b = chains[k - 1], chains[k]
        between = [t.text for t in toks[a.end_tok:b.start_tok]]
        # touching, or joined by a dash ("Teixeira Irmãos – Comércio de Equipamentos, Lda.") or, in a list of
        # partners' names before "&", a comma ("MOTA, PINTO & ASSOCIADOS – SROC, LDA.")
        joined = not between or between in (["–"], ["—"], ["-"]) or between == ["e"] and not (a.org_tail or a.org_head) \
            or between == [","] and len(a.words) <= 3 and "&" in b.words and not a.org_tail  # (partners: "X Y, Z & W")
        if (b.org_tail or between == [","] and "&" in b.words) and joined and not b.title and fold(b.words[0]) not in rules.titles:
            # a company's name keeps its first words however ordinary ("QUINTA DA FRAGA – VINHOS, S.A.")
            start = a.extra.get("run_start", a.start_tok) if between and not a.title else a.start_tok
            chains[k - 1:k + 1] = [_remake(a, b, toks, doc, rules, lex, lower_vocab, start)]
        k -= 1


def _remake(a: Chain, b: Chain, toks: list, doc: Doc, rules: ChainRules, lex: Lexicons, lower_vocab: set[str],
            start: int | None = None) -> Chain:
    ch = _make_chain(doc, toks, a.start_tok if start is None else start, b.end_tok, rules, lex, lower_vocab)
    ch.title = ch.title or a.title
    ch.sentence_initial = a.sentence_initial
    return ch


def _make_chain(doc: Doc, toks: list, i: int, j: int, rules: ChainRules, lex: Lexicons,
                lower_vocab: set[str]) -> Chain:
    words = [t.text for t in toks[i:j]]
    ch = Chain(i, j, toks[i].idx, toks[j - 1].idx + len(toks[j - 1].text), words)
    _left_context(ch, toks, i, rules)
    prev = toks[i - 1].text if i > 0 else ""
    ch.sentence_initial = i == 0 or prev in SENTENCE_END or prev in OPENERS and (i < 2 or toks[i - 2].text in SENTENCE_END)
    ch.in_parens = prev == "(" and j < len(toks) and toks[j].text == ")"
    folded = [fold(w) for w in words]
    ch.org_head = _org_head(ch, words, folded, rules)
    if rules.is_tail(words[-1]) and len(ch.content) > 1:
        ch.org_tail = words[-1]
    letters = [w for w in words if any(c.isalpha() for c in w)]
    ch.all_upper = bool(letters) and all(w.isupper() for w in letters if len(w) > 1 or w.isalpha())
    if tuple(folded[:1]) in rules.concept_heads or tuple(folded[:2]) in rules.concept_heads:
        ch.extra["concept"] = True  # Direito do Mar, Princípio da Legalidade: a concept, not a person
    _count_words(ch, words, folded, rules, lex, lower_vocab)
    content = [fold(w) for w in ch.content]
    if len(content) > 1 and " ".join(content) in lex.places:
        ch.places = len(content)  # a place of several words: Mato Grosso, Santa Catarina
    if " ".join(folded) in lex.territories or folded[0] in rules.opener_words and long_form(
            folded, rules.long_form_openers, lex.territories):
        # a country or territory, short or official (Estados Unidos da América, Reino da Dinamarca)
        ch.places = len(ch.content)
        ch.org_head = None
        ch.extra["territory"] = True
    return ch


def _left_context(ch: Chain, toks: list, i: int, rules: ChainRules) -> None:
    """The title or +HUM noun on the chain's left, allowing an article, comma or colon between (``Des.: WALDIR``)."""
    k = i - 1
    skipped = 0
    while k >= 0 and skipped < 3:
        f = fold(toks[k].text)
        if f in rules.titles and not ch.title:
            ch.title = toks[k].text
        elif f in rules.hum and not ch.hum:
            ch.hum = toks[k].text
        elif f in ("o", "a", "os", "as", ",", ".", ":", "do", "da", "pelo", "pela", "ao", "à", "the", "dr", "sr"):
            pass
        elif not (ch.title or ch.hum):
            break
        skipped += 1
        k -= 1


def _org_head(ch: Chain, words: list[str], folded: list[str], rules: ChainRules) -> tuple[str, str] | None:
    """(subtype, head) when the chain opens with an organisation head noun and has more words after it; a
    head may follow one adjective (Supremo Tribunal)."""
    for at in range(min(2, len(folded))):
        for n in range(min(rules.max_head, len(folded) - at), 0, -1):
            sub = rules.org_heads.get(tuple(folded[at:at + n]))
            # (more name words after the head: counted as content words, a head of several words holds
            # particles: "Direção de Finanças de Lisboa")
            if sub and len(ch.content) > sum(1 for w in words[:at + n] if w[:1].isupper() or w[:1].isdigit()):
                return sub, " ".join(words[at:at + n])
    return None


def _count_words(ch: Chain, words: list[str], folded: list[str], rules: ChainRules, lex: Lexicons,
                 lower_vocab: set[str]) -> None:
    """Count the chain's capitalized words by kind: first names, surnames, ordinary words, places, unknown."""
    in_place = multiword_places(folded, lex)
    for k, (w, f) in enumerate(zip(words, folded, strict=True)):
        if not (w[:1].isupper()) or f in rules.particles or rules.is_tail(w):
            continue
        if k == 0 and ch.sentence_initial and ordinary_opener(w, f, lex):
            ch.common += 1  # "Durante as reuniões", "Nada no presente Acordo", "SUBLINHANDO a importância"
            continue
        if k in in_place:  # "... do Estado de Mato Grosso": Mato is no first name here
            ch.places += 1
            continue
        if f.replace(".", "") in rules.not_names and w.isupper():  # IBAN, NIF, B.I.: trigger words, not names
            ch.common += 1
            continue
        known = False
        if f in lex.first:
            ch.first_names += 1
            known = True
        elif f in lex.last:
            ch.surnames += 1
            known = True
            if f in lex.common:
                ch.extra["ambiguous"] = ch.extra.get("ambiguous", 0) + 1  # Poder, Rocha: surname and noun
        if f in lex.places:
            ch.places += 1
        elif f in lex.common or f in rules.not_names or CLITIC_VERB.match(w) or (
                f in lower_vocab and not known and (not w.isupper() or len(w) > 3)):
            ch.common += 1
        elif not known:
            ch.unknown += 1


def ordinary_opener(word: str, folded: str, lex: Lexicons) -> bool:
    """A sentence's first word that is an ordinary word whatever a name list says: a closed-class word
    (``Durante``, ``Nada``, ``Contudo``: prepositions, adverbs, pronouns) or a gerund of a frequent verb that
    is no given name (``SUBLINHANDO``, ``Considerando``; ``Fernando`` and ``Armando`` are names)."""
    if folded in lex.closed:
        return True
    return bool(GERUND.match(word)) and folded not in lex.first and zipf(word.lower()) >= 2.0


def multiword_places(folded: list[str], lex: Lexicons) -> set[int]:
    """Indexes of the words that make up a place of two to four words inside a run (Mato Grosso, Santa
    Catarina, Rio de Janeiro)."""
    out: set[int] = set()
    for i in range(len(folded) - 1):
        for n in range(min(4, len(folded) - i), 1, -1):
            if folded[i + n - 1] not in ("de", "do", "da") and " ".join(folded[i:i + n]) in lex.places:
                out.update(range(i, i + n))
                break
    return out


def _merge_inverted(chains: list[Chain], toks: list, doc: Doc, lex: Lexicons) -> None:
    """``PÉREZ RODRÍGUEZ, Pedro`` -> one chain marked inverted."""
    k = 0
    while k + 1 < len(chains):
        a, b = chains[k], chains[k + 1]
        if (a.end_tok + 1 == b.start_tok and toks[a.end_tok].text == "," and a.all_upper and not b.all_upper
                and fold(b.words[0]) in lex.first and len(a.words) <= 4 and not a.org_head and not a.org_tail):
            merged = Chain(a.start_tok, b.end_tok, a.start, b.end, a.words + [","] + b.words, title=a.title,
                           hum=a.hum, first_names=a.first_names + b.first_names, surnames=a.surnames + b.surnames,
                           common=a.common + b.common, unknown=a.unknown + b.unknown,
                           sentence_initial=a.sentence_initial, inverted=True)
            chains[k:k + 2] = [merged]
        k += 1
