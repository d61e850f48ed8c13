"""``paranon review OUTDIR``: a private page over ``keys.sqlite`` and the corpus, for one reviewer.

Bound to 127.0.0.1 only, on a random port unless one is given; every request needs the random token
printed at start (in the URL the first time, then in an HttpOnly, SameSite=Strict cookie, so another site
cannot post decisions). Its own Flask app, never part of ``paranon serve``. Pages:

* ``/``: the entity table, riskiest first, filtered by category and rule;
* ``/entity``: one entity's mentions in context, with the actions "not an entity" (everywhere or in one
  document), "change category", "merge with entity N" (another entity of its scope and category: one number)
  and "split" (the forms chosen are another entity: a number of their own);
* ``/misses``: candidate misses, with "mask this span";
* ``/decisions``: ``review.yaml``'s decisions, each with "undo".
"""

from __future__ import annotations

import hmac
import secrets
import sys
from pathlib import Path
from typing import Any

from flask import Flask, abort, redirect, render_template_string, request

from .audit import allow_forms
from .review import (
    CATEGORIES,
    Decisions,
    candidate_misses,
    entity_table,
    mentions_of,
    risk_words,
    rule_names,
)
from .settings import Settings, load_settings

PER_PAGE = 100
COOKIE = "paranon_review"

LAYOUT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>paranon review</title>
<style>body{font-family:system-ui,sans-serif;margin:1.5em;max-width:80em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}th{background:#eef}
nav a{margin-right:1.2em}mark{background:#fd6}.risk{color:#a00;font-size:.85em}form.inline{display:inline}
.ctx{font-family:ui-monospace,monospace;font-size:.9em}.note{color:#555}</style>
<p class="note">PRIVATE: this page shows originals from keys.sqlite. {{ outdir }}</p>
<nav><a href="/">Entities</a><a href="/misses">Candidate misses</a><a href="/decisions">Decisions ({{ n_decisions }})</a></nav>
{{ body|safe }}</html>"""

ENTITIES = """<h1>Entities</h1>
<form method="get"><label>category <select name="category"><option value="">all</option>
{% for c in categories %}<option {{ 'selected' if c == category }}>{{ c }}</option>{% endfor %}</select></label>
<label>rule <select name="rule"><option value="">all</option>
{% for r in rules %}<option {{ 'selected' if r == rule }}>{{ r }}</option>{% endfor %}</select></label>
<button>filter</button></form>
<p>{{ total }} entities{% if total > shown|length %}; {{ first + 1 }}–{{ first + shown|length }} shown
{% if first + shown|length < total %}<a href="?category={{ category }}&rule={{ rule }}&page={{ page + 1 }}">next</a>{% endif %}
{% endif %}. Riskiest first: found only by a fall-back rule, one word, target side only, not transferred.</p>
<table id="entities"><thead><tr><th>form ({{ src }})</th><th>form ({{ tgt }})</th><th>category</th><th>mentions</th>
<th>documents</th><th>rules</th><th>risk</th></tr></thead><tbody>
{% for e in shown %}<tr><td><a href="/entity?scope={{ e.scope|urlencode }}&number={{ e.number }}">
{{ e.forms.src|join(' | ') or '—' }}</a></td><td>{{ e.forms.tgt|join(' | ') or '—' }}</td><td>{{ e.label }}</td>
<td>{{ e.mentions }}</td><td>{{ e.documents }}</td><td>{{ e.rules|join(', ') }}</td>
<td class="risk">{{ risk(e)|join(', ') }}</td></tr>{% endfor %}</tbody></table>"""

ENTITY = """<h1>{{ e.label }} #{{ e.number }} <small>({{ e.scope }})</small></h1>
<p>Forms: {% for f in forms %}<b>{{ f }}</b>{{ '; ' if not loop.last }}{% endfor %}.
Rules: {{ e.rules|join(', ') }}. <span class="risk">{{ risk(e)|join(', ') }}</span></p>
{% for f in forms %}<div class="actions" data-form="{{ f }}"><b>{{ f }}</b>:
<form class="inline" method="post" action="/decide"><input type="hidden" name="action" value="not_entity">
<input type="hidden" name="text" value="{{ f }}"><input type="hidden" name="next" value="{{ here }}">
<button name="scope_of" value="everywhere">not an entity (everywhere)</button></form>
{% for d in docs %}<form class="inline" method="post" action="/decide"><input type="hidden" name="action" value="not_entity">
<input type="hidden" name="text" value="{{ f }}"><input type="hidden" name="doc" value="{{ d }}">
<input type="hidden" name="next" value="{{ here }}"><button>not an entity in {{ d }}</button></form>{% endfor %}
<form class="inline" method="post" action="/decide"><input type="hidden" name="action" value="mask">
<input type="hidden" name="text" value="{{ f }}"><input type="hidden" name="next" value="{{ here }}">
<select name="category">{% for c in categories %}<option {{ 'selected' if c == e.label }}>{{ c }}</option>{% endfor %}</select>
<button>change category</button></form></div>{% endfor %}
{% if others %}<form id="merge" method="post" action="/decide"><input type="hidden" name="action" value="merge">
<input type="hidden" name="scope" value="{{ e.scope }}"><input type="hidden" name="number" value="{{ e.number }}">
<input type="hidden" name="next" value="{{ here }}"><label>merge with entity <select name="other">
{% for o in others %}<option value="{{ o.number }}">#{{ o.number }}: {{ o.forms.src|join(' | ') }}</option>{% endfor %}
</select></label> <button>merge</button> <span class="note">the two get one number (recorded by their forms)</span></form>{% endif %}
{% if e.forms.src|length > 1 %}<form id="split" method="post" action="/decide"><input type="hidden" name="action" value="split">
<input type="hidden" name="scope" value="{{ e.scope }}"><input type="hidden" name="number" value="{{ e.number }}">
<input type="hidden" name="next" value="{{ here }}">split: the forms ticked are a different entity:
{% for f in e.forms.src %}<label><input type="checkbox" name="form" value="{{ f }}"> {{ f }}</label> {% endfor %}
<button>split</button></form>{% endif %}
<h2>Mentions ({{ mentions|length }})</h2><table><thead><tr><th>unit</th><th>side</th><th>context</th><th>rule</th></tr></thead>
<tbody>{% for m in mentions %}<tr><td>{{ m.unit }}</td><td>{{ m.side }}</td>
<td class="ctx">{{ m.before }}<mark>{{ m.original }}</mark>{{ m.after }}</td><td>{{ m.rule }}</td></tr>{% endfor %}</tbody></table>"""

MISSES = """<h1>Candidate misses</h1>
<p>Spans left visible that look like names (capitalized words that are neither ordinary words nor places) or
identifiers (digit-bearing, identifier-shaped), most frequent first. "Mask" masks the string wherever it appears.</p>
<p>Show: <a href="/misses">all</a> <a href="/misses?kind=name">names</a> <a href="/misses?kind=identifier">identifiers</a></p>
<table id="misses"><thead><tr><th>text</th><th>looks like</th><th>occurrences</th><th>documents</th><th>units</th><th></th></tr></thead>
<tbody>{% for c in misses %}<tr data-text="{{ c.text }}"><td>{{ c.text }}</td><td>{{ c.kind }}</td><td>{{ c.count }}</td>
<td>{{ c.documents }}</td><td>{{ c.units|join(', ') }}</td><td><form class="inline" method="post" action="/decide">
<input type="hidden" name="action" value="mask"><input type="hidden" name="text" value="{{ c.text }}">
<input type="hidden" name="next" value="/misses"><select name="category">{% for cat in categories %}
<option {{ 'selected' if cat == (c.kind == 'identifier' and 'NAMEID' or 'PERSON') }}>{{ cat }}</option>{% endfor %}</select>
<button>mask this span</button></form></td></tr>{% endfor %}</tbody></table>"""

DECISIONS = """<h1>Decisions</h1><p>Recorded in <code>{{ path }}</code>. <code>paranon apply {{ outdir }}</code>
applies them: it recomputes the documents they reach.</p>{% if entries %}<table id="decisions"><thead><tr><th>text</th><th>decision</th><th></th></tr></thead><tbody>
{% for d in entries %}<tr><td>{{ d.text }}</td><td>{{ d.words }}</td><td><form class="inline" method="post" action="/decide">
<input type="hidden" name="action" value="undo"><input type="hidden" name="kind" value="{{ d.kind }}">
<input type="hidden" name="where" value="{{ d.where }}"><input type="hidden" name="text" value="{{ d.value }}">
<input type="hidden" name="next" value="/decisions"><button>undo</button></form></td></tr>{% endfor %}</tbody></table>
{% else %}<p>No decisions yet.</p>{% endif %}"""


class _Review:
    """The review pages of one output folder; its entity table and candidate misses are read once per
    state of the run's files (a ``paranon apply`` while the page is open shows the new numbers on reload)."""

    def __init__(self, out: Path, cfg: Settings | dict[str, Any]) -> None:
        self.out, self.cfg = out, cfg
        self.cache: dict[str, Any] = {}
        self.langs = {"src": "source", "tgt": "target"}

    def fresh(self) -> None:
        """Forget the cached table and misses when keys.sqlite or corpus.jsonl changed since they were read."""
        stamp = tuple((st.st_mtime_ns, st.st_size) for st in
                      ((self.out / name).stat() for name in ("keys.sqlite", "corpus.jsonl")))
        if self.cache.get("stamp") != stamp:
            self.cache = {"stamp": stamp}

    def table(self) -> list[dict[str, Any]]:
        self.fresh()
        if "table" not in self.cache:
            self.cache["table"] = entity_table(self.out)
        return self.cache["table"]

    def page(self, body: str, **ctx: Any) -> str:
        return render_template_string(LAYOUT, body=render_template_string(body, **ctx), outdir=self.out,
                                      n_decisions=len(Decisions.load(self.out).entries()))

    def entities(self) -> str:
        category, rule = request.args.get("category", ""), request.args.get("rule", "")
        pg = max(0, int(request.args.get("page", 0) or 0))
        table = self.table()
        rows = [e for e in table if (not category or e["label"] == category or e["category"] == category)
                and (not rule or any(r.split(":", 1)[0] == rule for r in e["rules"]))]
        shown = rows[pg * PER_PAGE:(pg + 1) * PER_PAGE]
        cats = sorted({e["label"] for e in table} | {e["category"] for e in table})
        return self.page(ENTITIES, categories=cats, rules=rule_names(table), category=category, rule=rule,
                         total=len(rows), shown=shown, first=pg * PER_PAGE, page=pg, risk=risk_words,
                         src=self.langs["src"], tgt=self.langs["tgt"])

    def entity(self) -> str:
        scope, number = request.args.get("scope", ""), int(request.args.get("number", 0) or 0)
        e = next((x for x in self.table() if x["scope"] == scope and x["number"] == number), None)
        if e is None:
            abort(404)
        ms = mentions_of(self.out, scope, number)
        forms = list(dict.fromkeys([*e["forms"]["src"], *e["forms"]["tgt"]]))
        docs = sorted({m["doc"] for m in ms})
        others = [x for x in self.table() if x["scope"] == scope and x["category"] == e["category"]
                  and x["number"] != number and x["forms"]["src"] and e["forms"]["src"]]
        others.sort(key=lambda x: x["number"])
        return self.page(ENTITY, e=e, forms=forms, mentions=ms, docs=docs, categories=CATEGORIES, risk=risk_words,
                         here=request.full_path, others=others)

    def _entity(self, scope: str, number: str) -> dict[str, Any]:
        e = next((x for x in self.table() if x["scope"] == scope and str(x["number"]) == number), None)
        if e is None or not e["forms"]["src"]:
            abort(400)
        return e

    def misses(self) -> str:
        self.fresh()
        if "misses" not in self.cache:
            self.cache["misses"] = candidate_misses(self.out, allow_forms(self.cfg))
        d = Decisions.load(self.out)
        masked = {t for ts in d.deny.values() for t in ts}
        kind = request.args.get("kind", "")
        return self.page(MISSES, categories=CATEGORIES, kind=kind,
                         misses=[c for c in self.cache["misses"] if c["text"] not in masked and kind in ("", c["kind"])])

    def decisions(self) -> str:
        return self.page(DECISIONS, entries=Decisions.load(self.out).entries(), path=self.out / "review.yaml",
                         outdir=self.out)

    def decide(self) -> Any:
        f = request.form
        d = Decisions.load(self.out)
        action = f.get("action")
        if action in ("merge", "split"):
            self._regroup(d, action)
        else:
            text = f.get("text", "").strip()
            if not text:
                abort(400)
            if action == "not_entity":
                d.not_entity(text, f.get("doc") or None)
            elif action == "mask":
                if f.get("category") not in CATEGORIES:
                    abort(400)
                d.mask(text, f["category"])
            elif action == "undo":
                d.undo(f.get("kind", ""), text, f.get("where", ""))
            else:
                abort(400)
        d.save(self.out)
        nxt = f.get("next", "/")
        return redirect(nxt if nxt.startswith("/") and not nxt.startswith("//") else "/")

    def _regroup(self, d: Decisions, action: str) -> None:
        """"merge with entity N" (their source forms: one entity) or "split" (the forms ticked: another entity)."""
        f = request.form
        e = self._entity(f.get("scope", ""), f.get("number", ""))
        forms = list(e["forms"]["src"])
        if action == "merge":
            other = self._entity(e["scope"], f.get("other", ""))
            if other["category"] != e["category"] or other is e:
                abort(400)
            d.merge(forms, list(other["forms"]["src"]))
            return
        chosen = [x for x in f.getlist("form") if x in forms]
        rest = [x for x in forms if x not in chosen]
        if not chosen or not rest:
            abort(400)
        d.split(chosen, rest)


def _guard(app: Flask, token: str) -> None:
    """Every request needs the token (in the URL once, then a cookie); no response is cached or framed."""

    @app.before_request
    def check_token() -> Any:
        given = request.args.get("token")
        if given is not None and hmac.compare_digest(given, token):
            resp = redirect(request.path)
            resp.set_cookie(COOKIE, token, httponly=True, samesite="Strict")
            return resp
        if not hmac.compare_digest(request.cookies.get(COOKIE, ""), token):
            abort(403)
        return None

    @app.after_request
    def private(resp: Any) -> Any:
        resp.headers["Cache-Control"] = "no-store"
        resp.headers["X-Frame-Options"] = "DENY"
        return resp


def create_review_app(outdir: str | Path, token: str, cfg: Settings | dict[str, Any] | None = None) -> Flask:
    """The review app over ``outdir``; ``cfg``: the run's settings (its allow-list is not listed as misses)."""
    review = _Review(Path(outdir), cfg if cfg is not None else load_settings())
    app = Flask(__name__)
    _guard(app, token)
    for rule, view, method in (("/", review.entities, "GET"), ("/entity", review.entity, "GET"),
                               ("/misses", review.misses, "GET"), ("/decisions", review.decisions, "GET"),
                               ("/decide", review.decide, "POST")):
        app.add_url_rule(rule, view.__name__, view, methods=[method])
    return app


def serve_review(outdir: str | Path, port: int = 0, cfg: Settings | dict[str, Any] | None = None) -> None:
    """Serve the review page on 127.0.0.1 until interrupted; print its URL with the token."""
    from werkzeug.serving import make_server

    out = Path(outdir)
    entity_table(out)  # a folder without keys.sqlite or corpus.jsonl is an error before anything listens
    token = secrets.token_urlsafe(24)
    app = create_review_app(out, token, cfg)
    try:
        server = make_server("127.0.0.1", port, app, threaded=True)
    except OSError as exc:
        from .errors import InputError

        raise InputError(f"127.0.0.1:{port}: cannot listen there ({exc.strerror}); pass another --port") from None
    print(f"review of {out} (private: originals) on http://127.0.0.1:{server.server_port}/?token={token}", flush=True)
    print("Ctrl+C to stop", file=sys.stderr, flush=True)
    server.serve_forever()
