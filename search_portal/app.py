"""The portal: ``create_app(config)`` with three blueprints (pages, JSON API, downloads).

Only anonymized text is served: everything comes from the index and
``corpus.jsonl``; ``keys.sqlite`` is never opened here.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request, url_for
from markupsafe import Markup
from markupsafe import escape as html_escape

from ..text import PLACEHOLDER
from .budget import Budget
from .downloads import FORMATS, download, downloads
from .params import filter_args, search_args
from .search import CATEGORIES, QueryError, Searcher

pages = Blueprint("pages", __name__)
api = Blueprint("api", __name__, url_prefix="/api")
# every response: no script at all (the pages have none), styles and images from the portal only, no
# framing; and no content sniffing (a download is what its type says)
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def searcher() -> Searcher:
    return current_app.extensions["paranon_searcher"]


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """``config`` needs ``OUTDIR``; ``PER_PAGE``, ``MAX_PER_PAGE``, ``SEARCH_CACHE`` (searches remembered,
    0 for none) and ``BUDGET`` (a search's work budget: ``budget.Budget``'s fields) are optional."""
    app = Flask(__name__)
    app.config.update({"PER_PAGE": 20, "MAX_PER_PAGE": 100})
    app.config.update(config or {})
    app.extensions["paranon_searcher"] = Searcher(app.config["OUTDIR"], int(app.config.get("SEARCH_CACHE", 128)),
                                                  Budget.from_config(app.config.get("BUDGET")))
    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(downloads)
    app.jinja_env.filters["marked"] = marked
    app.jinja_env.globals.update(filter_args=filter_args, formats=FORMATS)

    @app.errorhandler(404)
    def not_found(e):
        if request.path.startswith("/api/"):
            return jsonify(error="not found"), 404
        return render_template("message.html", title="Not found", message="There is no such page or pair."), 404

    @app.errorhandler(500)
    def server_error(e):  # a generic message: what failed inside is not for the client
        if request.path.startswith("/api/"):
            return jsonify(error="internal error"), 500
        return render_template("message.html", title="Error", message="Something went wrong on the server."), 500

    @app.after_request
    def security_headers(resp: Response) -> Response:
        for k, v in SECURITY_HEADERS.items():
            resp.headers.setdefault(k, v)
        return resp

    return app


def marked(text: str, spans: list[list[int]] | None = None) -> Markup:
    """Escaped text with highlight spans as <mark> and placeholders as styled tags."""
    spans = sorted(spans or [])
    out: list[str] = []
    pos = 0
    for s, e in spans:
        if s < pos:
            continue
        out.append(_tags(text[pos:s]))
        out.append(f"<mark>{_tags(text[s:e])}</mark>")
        pos = e
    out.append(_tags(text[pos:]))
    return Markup("".join(out))


def _tags(text: str) -> str:
    parts = []
    pos = 0
    for m in PLACEHOLDER.finditer(text):
        parts.append(str(html_escape(text[pos:m.start()])))
        cat = m.group(2).split("_")[0].lower()
        parts.append(f'<span class="ph ph-{cat}" title="entity {m.group(1)}">{html_escape(m.group(2))}'
                     f'<sub>{m.group(1)}</sub></span>')
        pos = m.end()
    parts.append(str(html_escape(text[pos:])))
    return "".join(parts)


# -- pages -----------------------------------------------------------------
@pages.route("/")
def index():
    args = request.args
    if not args.get("q"):
        return render_template("search.html", args={}, result=None, error=None, categories=CATEGORIES)
    try:
        a = search_args()
        result = searcher().search(**a)
    except QueryError as exc:
        return render_template("search.html", args=request.args, result=None, error=str(exc),
                               categories=CATEGORIES), 400
    view = args.get("view", "pairs")
    if view == "kwic":
        return render_template("kwic.html", args=request.args, result=result, lines=_kwic(result, args.get("sort", "right")),
                               categories=CATEGORIES)
    return render_template("search.html", args=request.args, result=result, error=None, categories=CATEGORIES)


def _kwic(result: dict[str, Any], sort: str) -> list[dict[str, Any]]:
    lines = []
    for h in result["hits"]:
        side = "src" if h["src_hl"] else "tgt"
        other = "tgt" if side == "src" else "src"
        spans = h[f"{side}_hl"]
        if not spans:
            continue
        s, e = spans[0][0], spans[-1][1]
        text = h[side]
        lines.append({"id": h["id"], "left": text[max(0, s - 60):s], "kw": text[s:e], "right": text[e:e + 60],
                      "translation": h["translation"], "other": h[other], "other_hl": h[f"{other}_hl"]})
    if sort == "left":
        lines.sort(key=lambda x: x["left"][::-1].lower())
    elif sort == "right":
        lines.sort(key=lambda x: x["right"].lower())
    return lines


@pages.route("/pair/<path:pair_id>")
def pair_page(pair_id: str):
    rec = searcher().pair(pair_id)
    if rec is None:
        abort(404)
    return render_template("pair.html", rec=rec)


@pages.route("/corpus")
def corpus_page():
    return render_template("corpus.html", stats=searcher().stats())


# -- JSON API --------------------------------------------------------------
@api.route("/search")
def api_search():
    try:
        result = searcher().search(**search_args())
    except QueryError as exc:
        return jsonify(error=str(exc)), 400
    result.pop("searched", None)
    return jsonify(result)


@api.route("/pairs/<path:pair_id>")
def api_pair(pair_id: str):
    rec = searcher().pair(pair_id)
    if rec is None:
        return jsonify(error=f"no pair {pair_id!r}"), 404
    return jsonify(rec)


@api.route("/stats")
def api_stats():
    return jsonify(searcher().stats())


@api.route("/download")
def api_download():
    return download()


@api.route("/openapi.json")
def openapi():
    q = {"name": "q", "in": "query", "schema": {"type": "string"}}
    return jsonify({
        "openapi": "3.0.3", "info": {"title": "paranon search API", "version": "0.1.0"},
        "paths": {
            "/api/search": {"get": {"summary": "Search pairs", "parameters": [
                {**q, "required": True}, {"name": "lang", "in": "query", "schema": {"type": "string", "enum": ["pt", "en", "both"]}},
                {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                {"name": "per_page", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
                {"name": "category", "in": "query", "schema": {"type": "string", "enum": list(CATEGORIES)}},
                {"name": "translation", "in": "query", "schema": {"type": "string"}}],
                "responses": {"200": {"description": "hits, highlights and translations: `total`, `took_ms`, `hits` "
                                                     "(`id`, `doc`, `src`, `tgt`, `src_hl`, `tgt_hl`, `translation`, "
                                                     "`categories`), `translations` (`text`, `count`), "
                                                     "`translations_sampled` (null: counted over every hit; else the "
                                                     "number of first hits counted)"},
                              "400": {"description": "malformed query"}}}},
            "/api/pairs/{id}": {"get": {"summary": "One pair", "parameters": [
                {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "the pair"}, "404": {"description": "unknown id"}}}},
            "/api/stats": {"get": {"summary": "Corpus statistics", "responses": {"200": {"description": "stats"}}}},
            "/api/download": {"get": {"summary": "Download corpus or search result", "parameters": [
                {"name": "format", "in": "query", "schema": {"type": "string", "enum": list(FORMATS)}}, q],
                "responses": {"200": {"description": "file"}, "400": {"description": "bad format or query"}}}},
        }})


__all__ = ["create_app", "escape", "url_for"]
