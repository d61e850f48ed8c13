"""``paranon audit OUTDIR``: is any original of ``keys.sqlite`` visible in a public output?

Every original string (both sides) is folded (lowercase, accents removed) and the folded forms become one
trie-shaped regular expression, matched on word boundaries in one pass over each public text, also
folded (``audit_scan.Scanner``: the corpus records of ``corpus.jsonl`` and the indexes that store them again
are scanned in one job, each distinct unit of text matched once; the other files each in a job of its own).
Public texts are read as a reader sees them:

* ``*.jsonl`` / ``*.json`` (corpus, report, ``stems.json``, ``translations.json``, ``hot/*.terms.json``):
  every string, keys and values, after JSON decoding (``\\u00e3`` escapes are undone);
* ``*.tmx`` / ``*.html``: XML/HTML entities undone (``Silva &amp; Filhos``);
* a Whoosh index (a folder with a ``_*.toc``): its stored fields and the terms of every indexed field,
  read through Whoosh (the segment files are compressed: grepping their bytes would find nothing);
* ``hot/*.bin``: arrays of document numbers and encoded positions, no text; listed as not scanned;
* ``alignments.pharaoh``: its lines of links (token positions: any number would match) are skipped, any
  other line is scanned;
* any other file: as UTF-8 text.

``keys.sqlite``, ``review.yaml``, the run's checkpoints (``.work``) and what a complete run keeps of them for
``paranon apply`` (``.checkpoint``) are private by design (owner-only, never served); they are not scanned.

A hit is a leak unless it is public text on its own: it lies inside an allowed string (a masked "União"
inside an allowed "União Europeia"), or the original is a number that is not identifier-shaped or one
ordinary word (``PublicForms``). Such hits are listed as "also public text", never hidden. The result holds categories, files and counts; originals only with ``show=True``.
"""

from __future__ import annotations

import html
import json
import os
import re
import sqlite3
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods
from pathlib import Path
from typing import Any

from .anonymize.consistency import identifier_form
from .anonymize.lexicons import DATA, _read
from .audit_scan import Scanner, join_tokens, trie_pattern, word_matcher
from .audit_state import AuditState, Units, prior_units
from .parallel import Workers
from .settings import Settings
from .text import fold_same_length
from .yaml_files import read_yaml

PRIVATE = {"keys.sqlite", "review.yaml", ".work", ".checkpoint"}  # never public: not scanned
NOT_TEXT = re.compile(r"\.bin$")  # hot postings: int arrays and encoded positions
WHOOSH_TOC = "_*.toc"
TANTIVY_META = "meta.json"  # beside ".managed.json": a tantivy index folder
MIN_FORM = 2  # a folded original needs this many letters or digits to be looked for
ORDINARY_ZIPF = 3.5  # wordfreq frequency (pt or en) from which a one-word original is also an ordinary word
PHARAOH_LINE = re.compile(r"^(?:\d+[-?p]\d+(?:-p)?(?: +|$))*\s*$")  # links i-j, i-j-p, i?j
WORD_CHARS = re.compile(r"\w")
RECORDS = (".jsonl", " segments)")  # the corpus records and the indexes that store them again: one job
TERM_SEPARATOR = "\x1f"  # between index terms: neither a word character nor white space

__all__ = ["audit", "allow_forms", "form_key", "public_sources", "trie_pattern", "word_matcher"]


def form_key(text: str) -> str:
    return " ".join(fold_same_length(text).split())


@dataclass
class Originals:
    """The folded forms of ``keys.sqlite``'s originals, with their categories and one original each."""

    categories: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    shown: dict[str, str] = field(default_factory=dict)
    too_short: int = 0

    @classmethod
    def load(cls, keys: Path) -> Originals:
        if not keys.exists():
            raise FileNotFoundError(f"{keys}: no key store (not a paranon output folder?)")
        out = cls()
        db = sqlite3.connect(f"file:{keys}?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT category, original, COUNT(*) FROM mentions GROUP BY category, original")
            for cat, original, n in rows:
                key = form_key(original)
                if len(WORD_CHARS.findall(key)) < MIN_FORM:
                    out.too_short += 1
                    continue
                out.categories[key][cat] += n
                out.shown.setdefault(key, " ".join(original.split()))
        finally:
            db.close()
        return out

    def category(self, key: str) -> str:
        return self.categories[key].most_common(1)[0][0]


def allow_forms(cfg: dict[str, Any]) -> set[str]:
    """The run's allow-list (``anonymize.allow`` and ``allow_files``), folded as the anonymizer folds it."""
    a = Settings.of(cfg).anonymize
    allow = list(a.allow)
    for f in a.allow_files:
        p = Path(f) if Path(f).exists() else DATA / f
        allow += read_yaml(p) or []
    return {form_key(str(x)) for x in allow if str(x).strip()}


class PublicForms:
    """Which originals are also ordinary public text, by class:

    * a number that is not identifier-shaped (``identifier_form``: the pipeline's own test for an identifier
      masked wherever it appears), such as an article number or a year: ``ALWAYS``;
    * one word of the language (the project's common-word list, or wordfreq's Portuguese or English at
      ``ORDINARY_ZIPF`` or more) that no name list knows: ``ALWAYS``;
    * such a word that is also a first name or surname (Costa, Rosa): ``LOWERCASE`` (only a hit written in
      lowercase is the ordinary word).
    """

    ALWAYS, LOWERCASE = "always", "lowercase"

    def __init__(self) -> None:
        self.known: dict[str, str | None] = {}
        self._lex: tuple[set[str], set[str]] | None = None

    def _names(self) -> set[str]:
        if self._lex is None:
            self._lex = (_read("common_pt.txt"), _read("names_first.txt") | _read("names_last.txt"))
        return self._lex[1]

    def __call__(self, key: str) -> str | None:
        if key not in self.known:
            self.known[key] = self._classify(key)
        return self.known[key]

    def _classify(self, key: str) -> str | None:
        if not any(c.isalpha() for c in key):
            return None if identifier_form(key) else self.ALWAYS
        if " " in key or not key.isalpha():
            return None
        names = self._names()
        assert self._lex is not None
        from wordfreq import zipf_frequency

        ordinary = key in self._lex[0] or max(zipf_frequency(key, "pt"), zipf_frequency(key, "en")) >= ORDINARY_ZIPF
        if not ordinary:
            return None
        return self.LOWERCASE if key in names else self.ALWAYS


# -- reading the public files as text ----------------------------------------------------------

def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from _strings(v)


def _json_texts(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        if path.suffix == ".jsonl":
            for line in fh:
                if "\\" not in line:
                    yield line  # no escape: the JSON text holds every string as it reads
                    continue
                try:
                    yield from _strings(json.loads(line))
                except ValueError:
                    yield line
        else:
            data = fh.read()
            try:
                yield from _strings(json.loads(data))
            except ValueError:
                yield data


def _markup_texts(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            yield html.unescape(line)


def _plain_texts(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        yield from fh


def _pharaoh_texts(path: Path) -> Iterator[str]:
    """Lines that are not word alignments (``0-0 1-2``: token positions, no text; any number would match)."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not PHARAOH_LINE.match(line):
                yield line


def _whoosh_texts(folder: Path) -> Iterator[str]:
    """A Whoosh index's stored fields, then every indexed field's terms (one term per ``TERM_SEPARATOR``)."""
    from whoosh.filedb.filestore import FileStorage

    ix = FileStorage(str(folder), supports_mmap=False).open_index()
    with ix.reader() as reader:
        for stored in reader.all_stored_fields():
            yield from _strings({k: v for k, v in stored.items() if not isinstance(v, bytes)})
        for name in ix.schema.names():
            if not ix.schema[name].indexed:
                continue
            terms = (t.decode("utf-8", "replace") if isinstance(t, bytes) else str(t)
                     for t in reader.lexicon(name))
            yield TERM_SEPARATOR.join(terms)


def _tantivy_texts(folder: Path) -> Iterator[str]:
    """A tantivy index's stored documents (the record and the ids), then every indexed text field's terms
    (read through tantivy: its store is compressed)."""
    import tantivy

    searcher = tantivy.Index.open(str(folder)).searcher()
    schema = json.loads((folder / TANTIVY_META).read_text(encoding="utf-8")).get("schema", [])
    n = searcher.num_docs
    if n:
        for _score, address in searcher.search(tantivy.Query.all_query(), limit=n).hits:
            for values in searcher.doc(address).to_dict().values():
                for v in values:
                    if isinstance(v, bytes):
                        try:
                            v = v.decode("utf-8")
                        except UnicodeDecodeError:
                            continue  # packed token offsets: numbers only
                        if "\\" in v:  # JSON escapes: its strings as they read
                            try:
                                yield from _strings(json.loads(v))
                                continue
                            except ValueError:
                                pass
                    if isinstance(v, str):
                        yield v
    for spec in schema:
        if spec.get("type") == "text" and spec.get("options", {}).get("indexing"):
            yield TERM_SEPARATOR.join(t for t, _ in searcher.terms_with_prefix(spec["name"], ""))


def public_sources(outdir: Path) -> tuple[list[tuple[str, Any]], list[str]]:
    """(name relative to OUTDIR, text reader) for every public file or Whoosh index, and the files not
    scanned because they hold no text."""
    sources: list[tuple[str, Any]] = []
    skipped: list[str] = []
    link = outdir / "index"
    current = link.resolve() if link.is_symlink() else None

    def name(p: Path) -> str:  # the live index's files as index/..., whatever its dated folder is called
        rel = p.relative_to(outdir)
        if current is not None and rel.parts and (outdir / rel.parts[0]).resolve() == current:
            return str(Path("index", *rel.parts[1:]))
        return str(rel)

    indexes = {p.parent for p in outdir.rglob(WHOOSH_TOC) if not _private(p, outdir)}
    for ix in sorted(indexes):
        sources.append((f"{name(ix)}/ (Whoosh segments)", lambda ix=ix: _whoosh_texts(ix)))
    tantivies = {p.parent for p in outdir.rglob(TANTIVY_META) if (p.parent / ".managed.json").exists()
                 and not _private(p, outdir)}
    for ix in sorted(tantivies):
        sources.append((f"{name(ix)}/ (tantivy segments)", lambda ix=ix: _tantivy_texts(ix)))
    for p in sorted(outdir.rglob("*")):
        if not p.is_file() or p.is_symlink() or _private(p, outdir):
            continue
        rel = name(p)
        if p.parent in indexes and (p.suffix in (".seg", ".toc") or p.name.endswith("WRITELOCK")):
            continue  # read through Whoosh above
        if p.parent in tantivies:
            continue  # read through tantivy above
        if NOT_TEXT.search(p.name):
            skipped.append(rel)
        elif p.suffix in (".json", ".jsonl"):
            sources.append((rel, lambda p=p: _json_texts(p)))
        elif p.suffix == ".pharaoh":
            sources.append((rel, lambda p=p: _pharaoh_texts(p)))
        elif p.suffix in (".tmx", ".html", ".htm", ".xml"):
            sources.append((rel, lambda p=p: _markup_texts(p)))
        else:
            sources.append((rel, lambda p=p: _plain_texts(p)))
    return sources, skipped


def _private(p: Path, outdir: Path) -> bool:
    parts = p.relative_to(outdir).parts
    return bool(parts) and (parts[0] in PRIVATE or parts[0].startswith(".keys"))


# -- the audit -------------------------------------------------------------------------------

@dataclass
class AuditResult:
    leaks: Counter = field(default_factory=Counter)  # (category, file) -> hits
    public: Counter = field(default_factory=Counter)  # (category, file) -> hits that are also public text
    forms: dict[tuple[str, str, str], Counter] = field(default_factory=dict)  # (kind, category, file) -> originals
    files: list[str] = field(default_factory=list)
    not_scanned: list[str] = field(default_factory=list)
    originals: int = 0
    too_short: int = 0
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not self.leaks

    @property
    def leaked_originals(self) -> int:
        return len({o for (kind, _, _), c in self.forms.items() if kind == "leak" for o in c})

    def to_json(self) -> dict[str, Any]:
        """The result without originals (for report.json)."""

        def rows(c: Counter, kind: str) -> list[dict[str, Any]]:
            return [{"category": cat, "file": f, "hits": n, "originals": len(self.forms[(kind, cat, f)])}
                    for (cat, f), n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))]

        return {"clean": self.clean, "leaked_originals": self.leaked_originals, "leaks": rows(self.leaks, "leak"), "also_public": rows(self.public, "public"),
                "files_scanned": self.files, "not_scanned": self.not_scanned, "originals": self.originals,
                "originals_too_short": self.too_short, "seconds": round(self.seconds, 3)}

    def lines(self, show: bool = False) -> list[str]:
        """The result for a terminal: one line per (category, file); originals only with ``show``."""
        leaked = sum(self.leaks.values())
        out = [f"audit: {'CLEAN' if self.clean else 'LEAKS'}: {leaked} hits of {self.leaked_originals} originals "
               f"visible in public files ({len(self.files)} scanned, {self.originals} originals looked for, "
               f"{self.seconds:.1f} s)"]
        for kind, c in (("leak", self.leaks), ("also public text", self.public)):
            for (cat, f), n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])):
                forms = self.forms[("leak" if kind == "leak" else "public", cat, f)]
                line = f"  {kind:<16} {cat:<13} {f:<40} {n:>6} hits, {len(forms)} originals"
                if show:
                    line += ": " + "; ".join(f"{o} ({k})" for o, k in forms.most_common())
                out.append(line)
        if self.not_scanned:
            out.append(f"  not scanned (no text): {', '.join(self.not_scanned)}")
        if self.too_short:
            out.append(f"  {self.too_short} originals of fewer than {MIN_FORM} letters or digits not looked for")
        return out


class GroupScan:
    """A scanning job's worker: what every job looks for (built once, before the processes fork: they inherit
    it, the large matcher is not copied) and how to read each source. Called with a group of sources, it scans
    them one after the other with one scanner, so that the text they share is matched once (its cache is the
    group's). The corpus records' job (:func:`_groups`'s first) starts from ``prior`` (the units an earlier
    audit matched that still hold: ``audit_state``) and leaves its units to ``keep``."""

    def __init__(self, matcher: re.Pattern, allowed: re.Pattern | None, joins: frozenset[str],
                 readers: dict[str, Any], prior: Units | None = None, keep: Callable[[Units], None] | None = None
                 ) -> None:
        self.matcher, self.allowed, self.joins, self.readers = matcher, allowed, joins, readers
        self.prior, self.keep = prior or {}, keep

    def __call__(self, names: tuple[str, ...]) -> list[tuple[str, Counter]]:
        records = names[0].endswith(RECORDS)
        scanner = Scanner(self.matcher, self.allowed, self.joins, prior=self.prior if records else {})
        shared = len(names) > 1 or (records and (self.keep is not None or bool(self.prior)))
        out = [(name, scanner.scan(self.readers[name](), shared=shared)) for name in names]
        if records and self.keep is not None:
            self.keep(scanner.units())
        return out


def _groups(names: list[str]) -> list[tuple[str, ...]]:
    """The sources in scanning jobs: the corpus records (``*.jsonl``) with the indexes that store them again,
    first (the largest job); every other file a job of its own."""
    records = tuple(sorted((n for n in names if n.endswith(RECORDS)), key=lambda n: not n.endswith(".jsonl")))
    return ([records] if records else []) + [(n,) for n in names if n not in records]


def _scan_all(scan: GroupScan, names: list[str], workers: int) -> Iterator[tuple[str, Counter]]:
    """Each group of sources scanned in its own job: forked processes when there are cores to share, else here."""
    groups = _groups(names)
    if workers <= 1 or len(groups) <= 1 or "fork" not in get_all_start_methods():
        for group in groups:
            yield from scan(group)
        return
    with Workers(scan, min(workers, len(groups)), setup=False, start="fork") as pool:
        # as each job ends (the result does not depend on the order): the small files' hits are classified
        # while the largest job still runs
        for done in pool.as_done(groups):
            yield from done


def audit(outdir: str | Path, cfg: dict[str, Any] | None = None, workers: int | None = None,
          state: Path | None = None) -> AuditResult:
    """Scan every public file of ``outdir`` for the originals of its ``keys.sqlite``; ``workers`` processes
    (default: the config's ``workers``, 0 = every core). ``state``: a private file where what the corpus records'
    scan matched is kept, and taken from where it still holds (``audit_state``): the same result, less matching."""
    from .config import load_config

    t0 = time.perf_counter()
    outdir = Path(outdir)
    if not outdir.is_dir():
        raise FileNotFoundError(f"{outdir}: no such output folder")
    cfg = cfg if cfg is not None else load_config()
    if workers is None:
        workers = Settings.of(cfg).workers or os.cpu_count() or 1
    originals = Originals.load(outdir / "keys.sqlite")
    allow = allow_forms(cfg)
    res = AuditResult(originals=len(originals.categories), too_short=originals.too_short)
    sources, res.not_scanned = public_sources(outdir)
    res.files = [name for name, _ in sources]
    matcher = word_matcher(originals.categories)
    if matcher is None:
        res.seconds = time.perf_counter() - t0
        return res
    # only allowed strings that contain an original can make a hit public
    effective = frozenset(a for a in allow if a not in originals.categories and matcher.search(a))
    allowed = word_matcher(sorted(effective))
    public = PublicForms()
    keys = frozenset(originals.categories)
    keep = None if state is None else (lambda units: AuditState(keys, effective, units).save(state))
    scan = GroupScan(matcher, allowed, join_tokens([*originals.categories, *allow]), dict(sources),
                     prior_units(state, keys, effective), keep)
    for name, hits in _scan_all(scan, res.files, workers):
        for (key, inside, lower), n in hits.items():
            kind = public(key)
            is_public = inside or kind == PublicForms.ALWAYS or (kind == PublicForms.LOWERCASE and lower)
            cat = originals.category(key)
            (res.public if is_public else res.leaks)[(cat, name)] += n
            res.forms.setdefault(("public" if is_public else "leak", cat, name), Counter())[originals.shown[key]] += n
    res.seconds = time.perf_counter() - t0
    return res
