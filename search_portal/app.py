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
from werkzeug.exceptions import HTTPException

from ..settings import PortalSettings
from ..text import PLACEHOLDER
from .budget import Budget
from .downloads import FORMATS, download, downloads
from .pages import pages
from .params import filter_args, search_args
from .search import CATEGORIES, QueryError, Searcher

api = Blueprint("api", __name__, url_prefix="/api")
# every response: no script at all (the pages have none), styles and images from the portal only, no
# framing; and no content sniffing (a download is what its type says)
ERROR_MESSAGES = {  # status -> the page's title and one line saying what to do
    400: ("Bad request", "The request is malformed."),
    404: ("Not found", "There is no such page or pair."),
    405: ("Not allowed", "This address only answers GET requests."),
    414: ("Address too long", "The address is too long: shorten the query or remove some filters."),
    429: ("Too many requests", "Too many requests: wait a moment and try again."),
    500: ("Error", "Something went wrong on the server."),
    503: ("Unavailable", "The portal is busy or restarting: try again in a moment."),
}
MAX_URL_CHARS = 4000  # longer addresses are a 414 page (a query is at most the budget's 500 characters)
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def searcher() -> Searcher:
    return current_app.extensions["paranon_searcher"]


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """``config`` needs ``OUTDIR``; ``PER_PAGE``, ``MAX_PER_PAGE`` (default: ``portal:`` of defaults.yaml),
    ``SEARCH_CACHE`` (searches remembered, 0 for none) and ``BUDGET`` (a search's work budget:
    ``budget.Budget``'s fields) are optional."""
    app = Flask(__name__)
    portal = PortalSettings.of({})  # defaults.yaml's portal: section (the command line passes the user's)
    app.config.update({"PER_PAGE": portal.per_page, "MAX_PER_PAGE": portal.max_per_page})
    app.config.update(config or {})
    app.extensions["paranon_searcher"] = Searcher(app.config["OUTDIR"], int(app.config.get("SEARCH_CACHE", 128)),
                                                  Budget.from_config(app.config.get("BUDGET")))
    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(downloads)
    app.jinja_env.filters["marked"] = marked
    app.jinja_env.globals.update(filter_args=filter_args, formats=FORMATS)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        """Every error status as a page of the portal (JSON under ``/api/``); what failed inside a 500 is
        not for the client (Flask logs it, with the path and not the query)."""
        code = e.code or 500
        title, message = ERROR_MESSAGES.get(code, (e.name, "The request could not be answered."))
        if request.path.startswith("/api/"):
            return jsonify(error=message), code
        return render_template("message.html", title=title, message=message, code=code), code

    @app.before_request
    def url_length():
        if len(request.full_path) > MAX_URL_CHARS:
            abort(414)

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


def _filter_params() -> list[dict[str, Any]]:
    """The search's filters as OpenAPI parameters (the search and the download take the same)."""
    def p(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
        return {"name": name, "in": "query", "schema": schema, "description": description}

    return [p("q", {"type": "string"}, "the query (syntax: /help); empty with a download: the corpus"),
            p("lang", {"type": "string", "enum": ["pt", "en", "both"]}, "the side searched"),
            p("category", {"type": "string", "enum": list(CATEGORIES)}, "pairs with a placeholder of the category"),
            p("translation", {"type": "string"}, "hits whose aligned translation is this"),
            p("case", {"type": "string", "enum": ["1"]}, "case-sensitive"),
            p("exact", {"type": "string", "enum": ["1"]}, "exact form (no inflected forms)"),
            p("doc", {"type": "string"}, "one document's pairs")]


@api.route("/openapi.json")
def openapi():
    filters = _filter_params()
    return jsonify({
        "openapi": "3.0.3", "info": {"title": "paranon search API", "version": "0.1.0"},
        "paths": {
            "/api/search": {"get": {"summary": "Search pairs", "parameters": [
                {**filters[0], "required": True}, *filters[1:],
                {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                {"name": "per_page", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
                {"name": "distinct", "in": "query", "schema": {"type": "integer", "enum": [0, 1]},
                 "description": "1 (default): pages of distinct pairs (same source and target), each with `same`, "
                               "its number of hits; 0: every hit"}],
                "responses": {"200": {"description": "hits, highlights and translations: `total` (every hit), "
                                                     "`distinct` (distinct pairs; null with distinct=0), `took_ms`, "
                                                     "`hits` (`id`, `doc`, `src`, `tgt`, `src_hl`, `tgt_hl`, "
                                                     "`translation`, `categories`, `same`), `translations` (`text`, "
                                                     "`count`), "
                                                     "`translations_sampled` (null: counted over every hit; else the "
                                                     "number of first hits counted)"},
                              "400": {"description": "malformed query, saying what to change"}}}},
            "/api/pairs/{id}": {"get": {"summary": "One pair", "parameters": [
                {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "the pair"}, "404": {"description": "unknown id"}}}},
            "/api/stats": {"get": {"summary": "Corpus statistics", "responses": {"200": {"description": "stats"}}}},
            "/api/download": {"get": {"summary": "The pairs a search finds (the same filters), as a file",
                                      "parameters": [{"name": "format", "in": "query", "schema": {
                                          "type": "string", "enum": list(FORMATS)}}, *filters],
                "responses": {"200": {"description": "file; moses and pharaoh links index the white-space words of "
                                                     "the Moses lines"},
                              "400": {"description": "bad format or query"}}}},
        }})


__all__ = ["create_app", "escape", "url_for"]
