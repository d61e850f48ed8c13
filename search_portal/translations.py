"""What a searched word is translated as: one hit's aligned words, and the index's table of them.

A hit's translation is the other side's words aligned to its hit words (from the stored word alignment,
over ``paranon.align.transfer.tokenize`` tokens). The translations panel counts these over a search's hits;
for a search made only of words (inflected forms and wildcards included) it reads them from
``translations.json``, written beside the index: per side, per index term, how often each translation
occurs over the whole corpus. Counting them per search would mean reading and aligning every hit (a
common word has thousands).
"""

from __future__ import annotations

import json
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path
from typing import Any

from whoosh import query as wq

from ..align.content_words import WORD_CHARACTER, function_words
from ..corpora.model import parse_pharaoh
from ..text import PLACEHOLDER as PLACEHOLDER_TOKEN
from ..text import phrase_key, tokenize

TABLE_FILE = "translations.json"
TABLE_TOP = 50  # translations kept per term (the panel shows 30)
PANEL_TOP = 30  # translations the panel shows
MAX_PHRASE_GAP = 3  # hits this far apart, only function words and punctuation between, are one phrase
Span = tuple[int, int]


def pair_tokens(rec: dict[str, Any]) -> tuple[dict[str, list[Span]], list[tuple[int, int]]]:
    """A pair's tokens per side (the alignment's tokenization) and its links."""
    return {side: tokenize(rec[side]) for side in ("src", "tgt")}, parse_pharaoh(rec.get("alignment", ""))


def pack_tokens(toks: dict[str, list[Span]], links: list[tuple[int, int]]) -> bytes:
    """``pair_tokens`` as bytes, stored with each pair in the index: highlighting a hit then needs no
    tokenizing and no alignment parsing (two thirds of its cost)."""
    flat = array("I", (len(toks["src"]), len(toks["tgt"]), len(links)))
    for part in (toks["src"], toks["tgt"], links):
        flat.extend(chain.from_iterable(part))
    return flat.tobytes()


def unpack_tokens(data: bytes) -> tuple[dict[str, list[Span]], list[tuple[int, int]]]:
    flat = array("I")
    flat.frombytes(data)
    n_src, n_tgt, n_links = flat[0], flat[1], flat[2]
    a, b, c = 3, 3 + 2 * n_src, 3 + 2 * (n_src + n_tgt)
    return ({"src": list(zip(flat[a:b:2], flat[a + 1:b:2], strict=True)),
             "tgt": list(zip(flat[b:c:2], flat[b + 1:c:2], strict=True))},
            list(zip(flat[c:c + 2 * n_links:2], flat[c + 1:c + 2 * n_links:2], strict=True)))


def link_maps(links: Iterable[tuple[int, int]], side: str | None = None) -> dict[str, dict[int, list[int]]]:
    """Per side (or only ``side``), each token's aligned tokens on the other side."""
    src: dict[int, list[int]] = {}
    tgt: dict[int, list[int]] = {}
    if side is None:  # both in one pass (the highlight of every shown hit asks for both)
        for i, j in links:
            if i in src:
                src[i].append(j)
            else:
                src[i] = [j]
            if j in tgt:
                tgt[j].append(i)
            else:
                tgt[j] = [i]
    elif side == "src":
        for i, j in links:
            src.setdefault(i, []).append(j)
    else:
        for i, j in links:
            tgt.setdefault(j, []).append(i)
    maps = {"src": src, "tgt": tgt}
    return maps


class Words:
    """Which tokens of one language can stand alone as a translation: content words (a letter or digit, not
    a closed-class word of ``align/data/function_words.yaml``). Remembered per word (words recur)."""

    def __init__(self, lang: str) -> None:
        self.function = function_words(lang)
        self._seen: dict[str, bool] = {}

    def content(self, word: str) -> bool:
        got = self._seen.get(word)
        if got is None:
            if len(self._seen) > 200_000:
                self._seen.clear()
            got = self._seen[word] = WORD_CHARACTER.search(word) is not None and word.lower() not in self.function
        return got


def occurrences(hits: list[int], text: str, toks: list[Span], words: Words) -> list[list[int]]:
    """The hit tokens grouped into occurrences: runs of different words next to each other, or apart only by
    function words and punctuation (a phrase ``taxa de juro`` whose ``de`` is no index term) is one
    occurrence; a word met again starts a new one (``regulamento que altera o regulamento``)."""
    runs: list[list[int]] = []
    for k in hits:
        word = phrase_key(text[slice(*toks[k])])
        if runs and k - runs[-1][-1] <= MAX_PHRASE_GAP \
                and all(phrase_key(text[slice(*toks[g])]) != word for g in runs[-1]) \
                and all(not words.content(text[slice(*toks[g])]) for g in range(runs[-1][-1] + 1, k)):
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def occurrence_span(occ: list[int], maps: dict[str, dict[int, list[int]]], searched: str, rec: dict[str, Any],
                    toks: dict[str, list[Span]], words: dict[str, Words]) -> list[int]:
    """The other side's tokens that translate one occurrence, the way phrase tables are extracted: the
    stretch between its first and last aligned token when no token in it is aligned outside the
    occurrence (unaligned tokens inside belong to it); else its aligned tokens that are aligned to nothing
    else (``Acordo EEE`` / ``EEA Agreement``: ``acordo`` is ``Agreement``). For an occurrence with a content
    word, function words and punctuation are trimmed from the ends and never stand alone: only they
    aligned is no translation (``[]``)."""
    other = "tgt" if searched == "src" else "src"
    fwd, back = maps[searched], maps[other]
    text, other_text, other_toks = rec[searched], rec[other], toks[other]
    if len(occ) == 1 and len(fwd.get(occ[0], ())) == 1:  # one word, one link (most): the same, sooner
        j, (a, b) = fwd[occ[0]][0], toks[searched][occ[0]]
        if j >= len(other_toks):
            return []
        c, d = other_toks[j]
        if other_text[c] == "<" and text[a] != "<" and PLACEHOLDER_TOKEN.fullmatch(other_text, c, d):
            return []
        return [j] if words[other].content(other_text[c:d]) or not words[searched].content(text[a:b]) else []
    found = sorted({j for k in occ for j in fwd.get(k, ()) if j < len(other_toks)})
    if found and not any(text[toks[searched][k][0]] == "<" for k in occ):
        # a word is not translated by a placeholder: such links are the aligner's noise
        found = [j for j in found if other_text[other_toks[j][0]] != "<"
                 or not PLACEHOLDER_TOKEN.fullmatch(other_text, *other_toks[j])]
    if not found:
        return []
    inside = set(occ)
    lo, hi = found[0], found[-1]
    if hi - lo <= 2 * len(occ) + 2 and all(i in inside for j in range(lo, hi + 1) for i in back.get(j, ())):
        span = list(range(lo, hi + 1))
    else:
        own = [j for j in found if all(i in inside for i in back.get(j, ()))]
        span = own or found
    if any(words[searched].content(text[slice(*toks[searched][k])]) for k in occ):
        content = [words[other].content(other_text[slice(*other_toks[j])]) for j in span]
        if not any(content):
            return []
        if span == list(range(lo, hi + 1)):  # a stretch: trim its ends
            first, last = content.index(True), len(content) - 1 - content[::-1].index(True)
            span = span[first:last + 1]
        else:
            span = [j for j, c in zip(span, content, strict=True) if c]
    return span


def span_text(text: str, toks: list[Span], span: list[int]) -> str:
    """A span's text: a stretch as written between its ends, scattered tokens joined by a space."""
    if not span:
        return ""
    if span[-1] - span[0] == len(span) - 1:
        return text[toks[span[0]][0]:toks[span[-1]][1]]
    return " ".join(text[slice(*toks[j])] for j in span)


def translate(rec: dict[str, Any], toks: dict[str, list[Span]], searched: str, hits: list[int],
              maps: dict[str, dict[int, list[int]]], words: dict[str, Words], one_word: bool = False
              ) -> tuple[list[int], str]:
    """The other side's tokens that translate the ``hits`` tokens of side ``searched`` and the pair's one
    translation: the most frequent (case-folded) among its occurrences', the first on a tie; ``""`` when no
    occurrence is aligned to a word that may stand alone. Only the longest occurrences count: a phrase's,
    not its words' met alone elsewhere in the pair (``no prazo de`` is ``within``, not the ``de`` of
    ``artigo 5 de``). ``one_word``: the hits are one word's (an index term), each its own occurrence."""
    tokens: set[int] = set()
    texts: list[str] = []
    other = "tgt" if searched == "src" else "src"
    if one_word:
        found = [[k] for k in hits]
    else:
        found = occurrences(hits, rec[searched], toks[searched], words[searched])
        longest = max(len(occ) for occ in found) if found else 0
        found = [occ for occ in found if len(occ) == longest]
    other_text, other_toks = rec[other], toks[other]
    for occ in found:
        span = occurrence_span(occ, maps, searched, rec, toks, words)
        if span:
            tokens.update(span)
            texts.append(span_text(other_text, other_toks, span))
    if len(texts) <= 1:
        return sorted(tokens), texts[0] if texts else ""
    keys = Counter(map(phrase_key, texts))
    return sorted(tokens), max(texts, key=lambda t: keys[phrase_key(t)])


def side_words(rec: dict[str, Any], cache: dict[str, Words]) -> dict[str, Words]:
    """``Words`` per side of a record, by its ``src_lang``/``tgt_lang`` (pt and en when it names none)."""
    out = {}
    for side, default in (("src", "pt"), ("tgt", "en")):
        lang = rec.get(f"{side}_lang") or default
        got = cache.get(lang)
        if got is None:
            got = cache[lang] = Words(lang)
        out[side] = got
    return out


def aligned(rec: dict[str, Any], toks: dict[str, list[Span]], searched: str, hits: list[int],
            maps: dict[str, dict[int, list[int]]], words: dict[str, Words] | None = None
            ) -> tuple[list[list[int]], str]:
    """``translate`` as character spans of the other side (the highlight), and the translation.
    ``maps``: ``link_maps`` of both sides."""
    tokens, text = translate(rec, toks, searched, hits, maps, words or side_words(rec, {}))
    other = "tgt" if searched == "src" else "src"
    return [list(toks[other][k]) for k in tokens], text


class Tally:
    """Translations counted case-folded, each shown in its most frequent written form."""

    def __init__(self) -> None:
        self.forms: dict[str, Counter] = {}

    def add(self, translation: str, n: int = 1) -> None:
        if translation:
            self.forms.setdefault(phrase_key(translation), Counter())[translation] += n

    def most_common(self, n: int | None = None) -> list[tuple[str, int]]:
        # a form's most frequent writing, ties by the writing: the same whatever order the counts came in
        rows = [(min(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0], sum(forms.values()))
                for forms in self.forms.values()]
        rows.sort(key=lambda r: (-r[1], r[0]))
        return rows[:n] if n is not None else rows

    def total(self) -> int:
        return sum(sum(f.values()) for f in self.forms.values())


def panel(tally: Tally, hits: int, top: int = PANEL_TOP) -> dict[str, Any]:
    """The translations panel as the API returns it: each translation's count and share of ``hits`` (all
    the hits counted, aligned or not), and the hits with no translation as their own row."""
    rows = tally.most_common(top)
    aligned_hits = tally.total()
    hits = max(hits, aligned_hits)
    share = (lambda n: round(n / hits, 4)) if hits else (lambda n: 0.0)
    missing = hits - aligned_hits
    return {"translations": [{"text": t, "count": n, "share": share(n)} for t, n in rows],
            "translations_hits": hits,
            "translations_not_aligned": {"count": missing, "share": share(missing)}}


class TableBuilder:
    """Counts, per side and index term, the translations of the pairs containing it: what a search for that
    one term would count over all its hits (one translation per pair, ``translate``)."""

    def __init__(self, terms_of: Callable[[str], Iterable[str]]) -> None:
        self.terms_of = terms_of  # the index's analyzer, word by word
        self._cache: dict[str, tuple[str, ...]] = {}
        self._words: dict[str, Words] = {}
        self.counts: dict[str, Counter] = {"src": Counter(), "tgt": Counter()}  # (term, translation) -> pairs

    def _terms(self, word: str) -> tuple[str, ...]:
        got = self._cache.get(word)
        if got is None:
            if len(self._cache) > 200_000:
                self._cache.clear()
            got = self._cache[word] = tuple(t for t in self.terms_of(word) if not t.startswith("<"))
        return got

    def add(self, rec: dict[str, Any], toks: dict[str, list[Span]], links: list[tuple[int, int]]) -> None:
        """One pair, with its ``pair_tokens``."""
        maps = link_maps(links)
        if not maps["src"]:
            return
        words = side_words(rec, self._words)
        for side, other in (("src", "tgt"), ("tgt", "src")):
            text, side_toks = rec[side], toks[side]
            by_term: dict[str, list[int]] = {}
            cache, links, n_side = self._cache, maps[side], len(side_toks)
            for k in sorted(links):  # the aligned tokens only: an unaligned hit has no translation
                if k >= n_side:
                    continue
                a, b = side_toks[k]
                word = text[a:b]
                terms = cache.get(word)  # _terms, its hit inlined: a million words a 40,000-pair corpus
                for term in (self._terms(word) if terms is None else terms):
                    if term in by_term:
                        by_term[term].append(k)
                    else:
                        by_term[term] = [k]
            counts = self.counts[side]
            other_text, other_toks = rec[other], toks[other]
            content, searched_content = words[other].content, words[side].content
            n_other = len(other_toks)
            for term, hits in by_term.items():
                texts = []  # one per aligned hit (``translate`` with ``one_word``, its one-link case inlined)
                for k in hits:
                    js = links[k]
                    if len(js) == 1:
                        if js[0] < n_other:
                            a, b = other_toks[js[0]]
                            word, (c, d) = other_text[a:b], side_toks[k]
                            if (other_text[a] != "<" or text[c] == "<" or not PLACEHOLDER_TOKEN.fullmatch(word)) \
                                    and (content(word) or not searched_content(text[c:d])):
                                texts.append(word)
                        continue
                    span = occurrence_span([k], maps, side, rec, toks, words)
                    if span:
                        texts.append(span_text(other_text, other_toks, span))
                if len(texts) == 1:
                    counts[term, texts[0]] += 1
                elif texts:
                    keys = Counter(map(phrase_key, texts))
                    counts[term, max(texts, key=lambda t: keys[phrase_key(t)])] += 1

    def write(self, folder: Path, previous: dict[str, dict[str, list]] | None = None,
              terms: dict[str, set[str]] | None = None) -> None:
        """``translations.json``: per side and term, its translations case-folded, most frequent first, each
        in its most frequent written form. ``previous``: the table as it was before the counts of ``terms``
        changed (``index_update``): only those terms are tallied again."""
        tallies: dict[str, dict[str, Tally]] = {"src": {}, "tgt": {}}
        for side, counts in self.counts.items():
            wanted = None if terms is None else terms.get(side, set())
            for (term, translation), n in counts.items():
                if wanted is None or term in wanted:
                    tallies[side].setdefault(term, Tally()).add(translation, n)
        data = {side: {term: tally.most_common(TABLE_TOP) for term, tally in by_term.items()}
                for side, by_term in tallies.items()}
        if previous is not None and terms is not None:
            for side in data:
                kept = {t: rows for t, rows in previous.get(side, {}).items() if t not in terms.get(side, ())}
                data[side] = kept | data[side]
        (folder / TABLE_FILE).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True),
                                         encoding="utf-8")


def load_table(folder: Path) -> dict[str, dict[str, list[tuple[str, int]]]] | None:
    """The index's translations table, or None for an index built before it existed (the panel then counts
    a sample of hits)."""
    path = folder / TABLE_FILE
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def table_counts(table: Any, parsed: Any) -> Tally | None:
    """The panel for a query of words only (terms, their inflected forms, wildcards): the index table's
    counts for its terms, over all their hits. None for any other query, or an index without a table."""
    if table is None or parsed is None:
        return None
    terms: set[tuple[str, str]] = set()

    def walk(q) -> bool:
        if type(q) is wq.Term:
            terms.add((q.fieldname, q.text))
        elif type(q) is wq.Or:
            return all(walk(c) for c in q.subqueries)
        else:
            return False
        return True

    if not walk(parsed):
        return None
    counts = Tally()
    for field, text in terms:
        for translation, n in table.get(field, {}).get(text, ()):
            counts.add(translation, n)
    return counts
