"""What a request asks for: the search's filters read from the URL, in one place.

The page, the JSON API and the downloads read the same filters with the same names, so a link built from
the page's arguments downloads exactly the pairs the page counts.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request

from .budget import QueryError
from .search import CATEGORIES

#: every argument that decides which pairs a search finds (a download takes all of them)
FILTER_ARGS = ("q", "lang", "category", "translation", "case", "exact", "doc")
LANGUAGES = ("both", "pt", "en")
SORTS = ("left", "right", "corpus")


def search_filters() -> dict[str, Any]:
    """The search's filters as ``Searcher.search`` takes them (a bad value raises ``QueryError``)."""
    a = request.args
    category = a.get("category") or None
    if category and category.upper() not in CATEGORIES:
        raise QueryError(f"Unknown category {category!r}.")
    return {"q": a.get("q", ""), "lang": a.get("lang", "both"), "category": category,
            "translation": a.get("translation") or None, "case_sensitive": a.get("case") == "1",
            "exact": a.get("exact") == "1", "doc": a.get("doc") or None}


def paging() -> tuple[int, int]:
    """The page asked for and the hits per page (capped by the app's ``MAX_PER_PAGE``)."""
    a = request.args
    try:
        page = max(1, int(a.get("page", 1)))
        per_page = int(a.get("per_page", current_app.config["PER_PAGE"]))
    except ValueError:
        raise QueryError("page and per_page must be whole numbers.") from None
    return page, max(1, min(per_page, current_app.config["MAX_PER_PAGE"]))


def search_args() -> dict[str, Any]:
    """Filters and paging together: ``Searcher.search``'s keyword arguments. ``distinct=0`` lists every hit;
    by default, as on the page, each distinct pair once with its count."""
    page, per_page = paging()
    return {**search_filters(), "page": page, "per_page": per_page, "distinct": request.args.get("distinct") != "0"}


def download_filters() -> tuple[str, dict[str, Any]]:
    """A download's format and the filters of the page it was asked from."""
    from .downloads import FORMATS

    fmt = request.args.get("format", "tmx")
    if fmt not in FORMATS:
        raise QueryError(f"unknown format {fmt!r}: use {', '.join(FORMATS)}")
    return fmt, search_filters()


def filter_args(args: Any) -> dict[str, str]:
    """The filters among a page's URL arguments (non-empty ones), for the links that keep them."""
    return {k: args[k] for k in FILTER_ARGS if args.get(k)}
