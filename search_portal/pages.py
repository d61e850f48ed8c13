"""The HTML pages: home, results (pairs or concordance), a pair, the corpus, the query syntax.

The pages have no script: sorting, paging and filtering are links and a form that keep the filters.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, abort, render_template, request

from .budget import QueryError
from .kwic import SORT_KEYS, SORT_LIMIT, concordance
from .params import paging, search_filters
from .search import CATEGORIES

pages = Blueprint("pages", __name__)
PAGE_LINKS = 2  # numbered links either side of the current page (and the first and last always)
NEIGHBOURS = 2  # segments shown before and after a pair, from its document
OPAQUE_ID = re.compile(r"^(?P<doc>.+):(?P<n>\d+)$")  # doc-0001:17 (ids: opaque)


def searcher():
    from .app import searcher as current

    return current()


def page_numbers(page: int, last: int, around: int = PAGE_LINKS) -> list[int | None]:
    """The page numbers to link (None: a gap shown as an ellipsis): the first, the last, and ``around``
    either side of ``page``."""
    keep = sorted({1, last, *range(max(1, page - around), min(last, page + around) + 1)})
    out: list[int | None] = []
    for k, n in enumerate(keep):
        if k and n - keep[k - 1] > 1:
            out.append(None)
        out.append(n)
    return out if last > 1 else []


@pages.route("/")
def index():
    args = request.args
    if not args.get("q"):
        return render_template("home.html", args=args, stats=searcher().stats(), categories=CATEGORIES)
    view = "kwic" if args.get("view") == "kwic" else "pairs"
    try:
        filters = search_filters()
        page, per_page = paging()
        sort = args.get("sort", "corpus")
        if sort not in SORT_KEYS:
            raise QueryError(f"Unknown sort {sort!r}: use {', '.join(SORT_KEYS)}.")
        if view == "kwic" and sort != "corpus":  # ordered over the first SORT_LIMIT hits, then paged
            result = searcher().search(**filters, page=1, per_page=SORT_LIMIT, distinct=False)
            lines = concordance(result["hits"], sort)
            shown, last = lines[(page - 1) * per_page:page * per_page], -(-len(lines) // per_page)
        else:  # the concordance has a line per hit, the result list a row per distinct pair
            result = searcher().search(**filters, page=page, per_page=per_page, distinct=view == "pairs")
            shown, last = None, -(-result["distinct" if view == "pairs" else "total"] // per_page)
    except QueryError as exc:
        return render_template("search.html", args=args, result=None, error=str(exc), categories=CATEGORIES), 400
    common = {"args": args, "result": result, "categories": CATEGORIES, "page": page,
              "pages": page_numbers(page, max(last, 1)), "last": last}
    if view == "kwic":
        lines = shown if shown is not None else concordance(result["hits"], "corpus")
        return render_template("kwic.html", lines=lines, sort=sort, sorted_over=min(result["total"], SORT_LIMIT)
                               if sort != "corpus" else None, **common)
    return render_template("search.html", error=None, **common)


@pages.route("/pair/<path:pair_id>")
def pair_page(pair_id: str):
    rec = searcher().pair(pair_id)
    if rec is None:
        abort(404)
    return render_template("pair.html", rec=rec, links=alignment_lines(rec), before=neighbours(rec, -1),
                           after=neighbours(rec, 1))


def neighbours(rec: dict[str, Any], step: int) -> list[dict[str, Any]]:
    """Up to ``NEIGHBOURS`` segments of the pair's document before (``step`` -1) or after it, in document
    order; found by their opaque ids (``doc-0001:17``: a run with ``ids: keep`` shows none)."""
    m = OPAQUE_ID.match(rec["id"])
    if m is None:
        return []
    out = []
    for k in range(1, NEIGHBOURS + 1):
        n = int(m.group("n")) + step * k
        other = searcher().pair(f"{m.group('doc')}:{n}") if n > 0 else None
        if other is None or other["doc"] != rec["doc"]:
            break
        out.append(other)
    return out[::-1] if step < 0 else out


def alignment_lines(rec: dict[str, Any]) -> list[dict[str, Any]]:
    """The pair's links as rows a reader can follow: each source token with the target tokens it is
    aligned to (tokens as the alignment counts them)."""
    from ..corpora.model import parse_pharaoh
    from ..text import tokenize

    src, tgt = tokenize(rec["src"]), tokenize(rec["tgt"])
    to: dict[int, list[int]] = {}
    for i, j in parse_pharaoh(rec.get("alignment", "")):
        if i < len(src) and j < len(tgt):
            to.setdefault(i, []).append(j)
    return [{"src": rec["src"][a:b], "tgt": " ".join(rec["tgt"][tgt[j][0]:tgt[j][1]] for j in sorted(to.get(i, []))),
             "i": i, "js": sorted(to.get(i, []))} for i, (a, b) in enumerate(src)]


@pages.route("/corpus")
def corpus_page():
    return render_template("corpus.html", stats=searcher().stats())


@pages.route("/help")
def help_page():
    return render_template("help.html", categories=CATEGORIES)
