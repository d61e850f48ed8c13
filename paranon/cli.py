"""The ``paranon`` command: one sub-command per stage, and ``run`` for all of them.

A user mistake (bad file, bad setting) ends with one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from .errors import InputError

SAMPLE = Path(__file__).resolve().parent.parent / "corpora" / "samples" / "sample_pt_en.tmx"


def _sample_path() -> Path:
    from importlib.resources import files

    p = Path(str(files("paranon.corpora") / "samples" / "sample_pt_en.tmx"))
    return p if p.exists() else SAMPLE


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help="settings YAML (see paranon/defaults.yaml for every key)")
    p.add_argument("--src", help="source language (default pt)")
    p.add_argument("--tgt", help="target language (default en)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def _settings(args: argparse.Namespace):
    """The settings of a command: defaults <- --config <- the command's options, typed and checked."""
    from .settings import load_settings

    opt = lambda name: getattr(args, name, None)  # noqa: E731
    return load_settings(opt("config"), {
        "src": opt("src"), "tgt": opt("tgt"), "workers": opt("workers"), "scheduler": opt("scheduler"),
        "input.strict": True if opt("strict") else None, "input.format": opt("format"),
        "input.src_col": opt("src_col"), "input.tgt_col": opt("tgt_col"), "align.method": opt("aligner")})


def _config(args: argparse.Namespace) -> dict:
    """The settings as the mapping the stages not yet given their typed section read."""
    return _settings(args).as_dict()


def _unfinished(output: str) -> None:
    """After a run stopped early: say, in one line, that its checkpoints hold originals."""
    work = Path(output) / ".work"
    if work.exists():
        print(f"paranon: {work} holds originals of the unfinished run: run the same command again to resume, "
              f"or delete it (rm -r {work})", file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    import signal

    from .input_check import check_languages
    from .pipeline import run
    from .runlock import RunLocked

    def terminated(signum, frame):  # SIGTERM (kill, a scheduler's stop): as Ctrl+C, so that temporary
        raise KeyboardInterrupt     # folders and the lock are released and the message says what .work holds

    signal.signal(signal.SIGTERM, terminated)
    try:
        cfg = _config(args)
        check_languages(args.input, cfg)
        report = run(args.input, args.output, cfg, quiet=args.quiet, restart=getattr(args, "restart", False))
    except RunLocked:
        raise  # the other run's .work: not ours to speak of
    except KeyboardInterrupt:
        print("paranon: interrupted", file=sys.stderr)
        _unfinished(args.output)
        return 130
    except (InputError, FileNotFoundError, ValueError):
        _unfinished(args.output)
        raise
    except OSError as exc:  # a full disk, a folder that cannot be written: one line, not a traceback
        print(f"paranon: error: {exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""),
              file=sys.stderr)
        _unfinished(args.output)
        return 1
    except BaseException:
        _unfinished(args.output)
        raise
    u = report["units"]
    print(f"{u['written']} pairs written to {args.output} ({u['skipped']} skipped"
          + (f": {', '.join(f'{k} {v}' for k, v in u['skipped_by_reason'].items())}" if u["skipped"] else "")
          + f"); aligner: {report['aligner']}; see report.html", file=sys.stderr)
    return _audit_status(report.get("audit"))


def _audit_status(a: dict | None) -> int:
    """The audit's line after a run; exit 1 when originals are visible."""
    if a is None:
        return 0
    if a["clean"]:
        print(f"audit: clean ({a['originals']} originals, {len(a['files_scanned'])} public files)", file=sys.stderr)
        return 0
    print(f"audit: LEAKS: {sum(r['hits'] for r in a['leaks'])} hits of originals in public files; "
          f"`paranon audit OUTDIR --show` lists them", file=sys.stderr)
    return 1


def cmd_audit(args: argparse.Namespace) -> int:
    from .audit import audit

    result = audit(args.outdir, _config(args))
    print("\n".join(result.lines(show=args.show)))
    return 0 if result.clean else 1


def cmd_index(args: argparse.Namespace) -> int:
    from .search_portal.indexer import build_index

    backend = args.backend or _settings(args).index.backend
    path = build_index(args.outdir, quiet=args.quiet, backend=backend)
    print(f"index built in {path}", file=sys.stderr)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """A production server: gunicorn where it runs, waitress elsewhere. Search is CPU-bound Python, so
    processes, not threads, use the cores: two per core with two threads each by default, so that a
    long search (a phrase in thousands of pairs) shares a core with a short one instead of holding it."""
    from .search_portal.app import create_app

    out = Path(args.outdir)
    if not (out / "corpus.jsonl").exists() or not (out / "index").exists():
        raise InputError(f"{out}: not a paranon output folder (no corpus.jsonl or index); run `paranon run` first")
    workers = getattr(args, "workers", None) or 2 * (os.cpu_count() or 1)
    threads = getattr(args, "threads", None) or 2
    config = {"OUTDIR": str(out), "SEARCH_CACHE": getattr(args, "cache", 128)}
    try:
        from gunicorn.app.base import BaseApplication
    except ImportError:  # Windows has no gunicorn
        BaseApplication = None
    _check_port(args.host, args.port)
    print(f"serving {out} on http://{args.host}:{args.port}/ (Ctrl+C to stop)", file=sys.stderr)
    if BaseApplication is None:
        from waitress import serve

        serve(create_app(config), host=args.host, port=args.port, threads=8, _quiet=True)
        return 0

    class Server(BaseApplication):
        def load_config(self) -> None:
            for k, v in {"bind": f"{args.host}:{args.port}", "workers": workers, "worker_class": "gthread",
                         "threads": threads, "accesslog": None, "loglevel": "warning", "timeout": 120}.items():
                self.cfg.set(k, v)

        def load(self):
            return create_app(config)

    Server().run()
    return 0


def _check_port(host: str, port: int) -> None:
    """A port another program holds is one line before anything starts (gunicorn would print "serving" and
    then a traceback per worker)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise InputError(f"--host {host}: unknown host ({exc.strerror})") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds: a closed server's port is free
        try:
            s.bind(addr)
        except OSError as exc:
            raise InputError(f"{host}:{port}: cannot listen there ({exc.strerror}); pass another --port") from None


def cmd_demo(args: argparse.Namespace) -> int:
    if not args.no_serve:
        _check_port(args.host, args.port)  # before the run, not after it
    args.input = str(_sample_path())
    args.output = args.output or "paranon-demo"
    cmd_run(args)
    args.outdir = args.output
    if args.no_serve:
        return 0
    return cmd_serve(args)


def _print_json(obj: dict) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))


def _eval_sets(specs: list[str]) -> list:
    """The named or given gold sets; a named set whose file is absent is skipped with a one-line note."""
    from .corpora.evalsets import resolve

    out = []
    for spec in specs:
        es = resolve(spec)
        if not es.exists():
            if es.kind == "other":
                raise InputError(f"{es.path}: no such file or folder")
            print(f"paranon: note: {es.kind} set {es.name} skipped: {es.path} is absent", file=sys.stderr)
            continue
        out.append(es)
    return out


def _print_sets(results: dict[str, dict]) -> None:
    """One JSON object holding every set; with one set its figures are also at the top level (as before)."""
    obj: dict = {}
    if len(results) == 1:
        obj.update(next(iter(results.values())))
    obj["sets"] = results
    _print_json(obj)


def cmd_eval_ner(args: argparse.Namespace) -> int:
    from .anonymize.evaluate import evaluate_ner, parse_map
    from .evaltables import by_doc_table, leak_why_lines, ner_table, over_masked_line

    cfg = _config(args)
    results, rows, notes = {}, [], []
    for es in _eval_sets(args.gold):
        figures_only = args.figures_only or es.figures_only
        mapping = parse_map(args.map) if args.map else es.map
        res = evaluate_ner(es.path, args.gold_format or es.format, mapping, cfg, limit=args.limit,
                           strings=not figures_only)
        res["set"], res["kind"], res["figures_only"] = es.name, es.kind, figures_only
        if not args.by_doc:
            del res["by_doc"]
        results[es.name] = res
        rows.append((es.name, es.kind, res))
        notes += leak_why_lines(es.name, res)
        over_line = over_masked_line(es.name, res)
        if over_line:
            notes.append(over_line)
    if args.json:
        _print_sets(results)
        return 0
    print(ner_table(rows))
    if notes:
        print("\nwhy leaked tokens stayed visible (public_id/place/allow: paranon keeps the span public; "
              "nothing: a miss), and what the gold calls the over-masked tokens")
        print("\n".join(notes))
    for name, _, res in rows:
        if args.by_doc:
            print(f"\n{name}: documents, most leaked first" + (" (figures only)" if res["figures_only"] else ""))
            print(by_doc_table(res))
    return 0


def cmd_eval_align(args: argparse.Namespace) -> int:
    from .align.evaluate import evaluate_alignment

    cfg = _config(args)
    if args.method:
        cfg["align"]["method"] = args.method
    _print_json(evaluate_alignment(args.src_file, args.tgt_file, args.gold, cfg, args.train_src, args.train_tgt))
    return 0


def cmd_eval_transfer(args: argparse.Namespace) -> int:
    from .align.evaluate import evaluate_transfer
    from .evaltables import recall_lines, transfer_table

    results, rows = {}, []
    for es in _eval_sets(args.gold):
        if es.kind != "other" and not es.transfer:
            print(f"paranon: note: {es.kind} set {es.name} skipped: it has no target side", file=sys.stderr)
            continue
        figures_only = args.figures_only or es.figures_only
        res = evaluate_transfer(es.path, _config(args), strings=not figures_only, limit=args.limit)
        res["set"], res["kind"], res["figures_only"] = es.name, es.kind, figures_only
        results[es.name] = res
        rows.append((es.name, es.kind, res))
    if args.json:
        _print_sets(results)
        return 0
    print(transfer_table(rows))
    print("\n".join(recall_lines(rows)))
    for name, _, res in rows:
        shown = [x for x in res["leaked"] if "text" in x]
        if shown:
            print(f"\n{name}: gold strings left visible")
            print("\n".join(f"  {x['id']} {x['side']} {x['category']}: {x['text']}" for x in shown))
    return 0


def cmd_train_ner(args: argparse.Namespace) -> int:
    from .anonymize.train import train_ner

    summary = train_ner(args.train, args.dev, args.output, iterations=args.iterations, seed=args.seed,
                        quiet=args.quiet, limit=args.limit, tune_every=args.tune_every, width=args.width,
                        depth=args.depth, embed_size=args.embed_size, upper=args.upper,
                        patience=args.patience)
    _print_json(summary)
    return 0


def cmd_reveal(args: argparse.Namespace) -> int:
    from .reveal import reveal_lines

    print("\n".join(reveal_lines(args.outdir, args.id)))
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from .review_app import serve_review

    serve_review(args.outdir, port=args.port, cfg=_config(args))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    from .review import REVIEW_FILE, apply

    out = Path(args.outdir)
    if not (out / REVIEW_FILE).exists():
        raise InputError(f"{out / REVIEW_FILE}: no decisions to apply (make them with `paranon review {out}`)")
    report = apply(out, _config(args), args.input, quiet=args.quiet)
    u = report["units"]
    print(f"{u['written']} pairs written to {out} with the decisions of {REVIEW_FILE}; see report.html",
          file=sys.stderr)
    return _audit_status(report.get("audit"))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="paranon", description="Anonymize a PT-EN translation memory, carry the "
                                "anonymization to English by word alignment, and search the result.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    r = sub.add_parser("run", help="the whole pipeline: read, anonymize, transfer, write outputs, build the index")
    r.add_argument("input", help="TMX/TSV/JSONL file, Moses prefix, or a folder of such files")
    r.add_argument("-o", "--output", required=True, help="output folder")
    r.add_argument("--workers", type=int, help="processes for the parallel stages (default: all cores)")
    r.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the parallel stages on Dask: 'local' (a cluster of --workers processes here) or a "
                        "scheduler's address, tcp://HOST:8786 (needs paranon[dask]; see docs/scale.md)")
    r.add_argument("--strict", action="store_true", help="stop at the first bad unit")
    r.add_argument("--format", choices=["tmx", "tsv", "moses", "jsonl"])
    r.add_argument("--src-col", dest="src_col")
    r.add_argument("--tgt-col", dest="tgt_col")
    r.add_argument("--aligner", choices=["auto", "simalign", "eflomal"])
    r.add_argument("--restart", action="store_true", help="throw away the checkpoints of an interrupted run")
    _common(r)
    r.set_defaults(func=cmd_run)

    s = sub.add_parser("serve", help="the search portal over an output folder")
    s.add_argument("outdir")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--workers", type=int, default=None, help="server processes (default: two per core)")
    s.add_argument("--threads", type=int, default=None, help="threads per server process (default: 2)")
    s.add_argument("--cache", type=int, default=128, help="searches remembered per process (0: none)")
    s.set_defaults(func=cmd_serve)

    d = sub.add_parser("demo", help="run on the bundled sample TM, then serve it on http://127.0.0.1:8000")
    d.add_argument("-o", "--output", default=None, help="output folder (default ./paranon-demo)")
    d.add_argument("--host", default="127.0.0.1")
    d.add_argument("--port", type=int, default=8000)
    d.add_argument("--no-serve", action="store_true", help="only build the demo output")
    d.add_argument("--workers", type=int)
    _common(d)
    d.set_defaults(func=cmd_demo)

    i = sub.add_parser("index", help="(re)build the search index of an output folder from corpus.jsonl")
    i.add_argument("outdir")
    i.add_argument("--backend", choices=["whoosh", "tantivy"], help="the index engine (default: index.backend of "
                   "the config, tantivy)")
    i.add_argument("--config", help="settings YAML (see paranon/defaults.yaml for every key)")
    i.add_argument("--quiet", action="store_true")
    i.set_defaults(func=cmd_index)

    au = sub.add_parser("audit", help="scan every public output for the originals in keys.sqlite "
                        "(exit 1 when any is visible)")
    au.add_argument("outdir")
    au.add_argument("--show", action="store_true", help="print the originals found (keep the output private)")
    au.add_argument("--config", help="the run's settings YAML (its allow-list tells public text from leaks)")
    au.set_defaults(func=cmd_audit)

    rv = sub.add_parser("reveal", help="show one unit de-anonymized and the original of each of its placeholders "
                        "(reads keys.sqlite: reviewers only)")
    rv.add_argument("outdir")
    rv.add_argument("--id", required=True)
    rv.set_defaults(func=cmd_reveal)

    rw = sub.add_parser("review", help="a private page (127.0.0.1, token in the URL) to review the entities of "
                        "a run and record decisions in OUTDIR/review.yaml")
    rw.add_argument("outdir")
    rw.add_argument("--port", type=int, default=0, help="default: a free port")
    rw.add_argument("--config", help="the run's settings YAML (its allow-list is not listed as candidate misses)")
    rw.set_defaults(func=cmd_review)

    ap = sub.add_parser("apply", help="run again with the decisions of OUTDIR/review.yaml (a full re-run from "
                        "the input keys.sqlite names)")
    ap.add_argument("outdir")
    ap.add_argument("--input", help="the run's input, if not where keys.sqlite says it was")
    _common(ap)
    ap.set_defaults(func=cmd_apply)

    ev = sub.add_parser("eval", help="measure a stage against gold data (a table, or JSON with --json)")
    evs = ev.add_subparsers(dest="what", required=True, metavar="STAGE")
    en = evs.add_parser("ner", help="recognizer vs gold entities, one row per gold set: leaks, exact/partial/token "
                        "scores, over-masking")
    en.add_argument("--gold", required=True, action="append",
                    help="a set named in corpora/evalsets.yaml (lener-dev, harem1 ...) or a CoNLL file or folder "
                    "(one document per file), gold JSONL or HAREM collection; repeat for several sets")
    en.add_argument("--format", dest="gold_format", choices=["conll", "jsonl", "harem"],
                    help="default: the set's, or from the file")
    en.add_argument("--map", help="gold type -> category, e.g. PESSOA=PERSON,ORGANIZACAO=ORGANIZATION "
                    "(the default for CoNLL; JSONL and HAREM gold use paranon's categories)")
    en.add_argument("--by-doc", action="store_true", help="per document: gold entity tokens, leaked tokens by "
                    "category, masked and over-masked tokens, most leaked first")
    en.add_argument("--figures-only", action="store_true", help="print no entity string (always so for test sets)")
    en.add_argument("--limit", type=int, help="per set, whole documents until this many sentences")
    en.add_argument("--json", action="store_true", help="one JSON object holding every set")
    _common(en)
    en.set_defaults(func=cmd_eval_ner)
    ea = evs.add_parser("align", help="word aligner vs gold Pharaoh links: precision, recall, F1, AER")
    ea.add_argument("--src", dest="src_file", required=True, help="source sentences, tokens separated by spaces")
    ea.add_argument("--tgt", dest="tgt_file", required=True, help="target sentences, same line count")
    ea.add_argument("--gold", required=True, help="Pharaoh links i-j per line (0-based; i-j-p or i?j: possible)")
    ea.add_argument("--train-src", help="extra parallel text to learn from (eflomal)")
    ea.add_argument("--train-tgt")
    ea.add_argument("--method", choices=["auto", "simalign", "eflomal"])
    ea.add_argument("--json", action="store_true")
    ea.add_argument("--config")
    ea.add_argument("--quiet", action="store_true")
    ea.set_defaults(func=cmd_eval_align)
    et = evs.add_parser("transfer", help="whole pipeline vs two-sided gold, one row per set: recall per side, "
                        "leaks, number agreement, coreference ARI, over-masking, side mismatch")
    et.add_argument("--gold", required=True, action="append",
                    help="gold JSONL with src_entities and tgt_entities, or a set named in corpora/evalsets.yaml; "
                    "repeat for several sets")
    et.add_argument("--figures-only", action="store_true", help="print no entity string (always so for test sets)")
    et.add_argument("--limit", type=int, help="per set, the first pairs (whole documents)")
    et.add_argument("--json", action="store_true", help="one JSON object holding every set")
    _common(et)
    et.set_defaults(func=cmd_eval_transfer)

    tr = sub.add_parser("train", help="train a model (prints a JSON summary)")
    trs = tr.add_subparsers(dest="what", required=True, metavar="MODEL")
    tn = trs.add_parser("ner", help="train a spaCy NER from scratch on CoNLL data, for anonymize.models")
    tn.add_argument("--train", required=True, help="CoNLL file or folder of them (TOKEN TAG, IOB2)")
    tn.add_argument("--dev", help="CoNLL file for the scores printed at the end")
    tn.add_argument("-o", "--output", required=True, help="model folder to write")
    tn.add_argument("--iterations", type=int, default=10, help="most epochs (early stop on the tuning split)")
    tn.add_argument("--tune-every", type=int, help="every Nth training document is the tuning split (10; 0: none)")
    tn.add_argument("--limit", type=int, help="the first sentences of --train only")
    tn.add_argument("--width", type=int, help="tok2vec width (64)")
    tn.add_argument("--depth", type=int, help="CNN layers (2)")
    tn.add_argument("--embed-size", type=int, help="hash embedding rows per feature (3000)")
    tn.add_argument("--upper", type=float, help="share of sentences also trained upper-cased (0.15)")
    tn.add_argument("--patience", type=int, help="epochs without a better tuning F1 before stopping (2)")
    tn.add_argument("--seed", type=int, default=0)
    tn.add_argument("--quiet", action="store_true")
    tn.set_defaults(func=cmd_train_ner)

    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING if getattr(args, "quiet", False) else logging.INFO,
                        format="paranon: %(message)s")
    try:
        return args.func(args)
    except (InputError, FileNotFoundError, ValueError) as exc:
        print(f"paranon: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("paranon: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
