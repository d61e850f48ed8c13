"""The ``paranon`` command: one sub-command per stage, and ``run`` for all of them.

A user mistake (bad file, bad setting) ends with one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from pathlib import Path

from .cli_args import common_options, config_of, settings_of
from .cli_eval import add_eval, add_train
from .config_check import ALIGN_METHODS, INDEX_BACKENDS, INPUT_FORMATS
from .errors import InputError

SAMPLE = Path(__file__).resolve().parent.parent / "corpora" / "samples" / "sample_pt_en.tmx"


def _sample_path() -> Path:
    from importlib.resources import files

    p = Path(str(files("paranon.corpora") / "samples" / "sample_pt_en.tmx"))
    return p if p.exists() else SAMPLE


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
        cfg = config_of(args)
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

    result = audit(args.outdir, config_of(args))
    print("\n".join(result.lines(show=args.show)))
    return 0 if result.clean else 1


def cmd_index(args: argparse.Namespace) -> int:
    from .search_portal.indexer import build_index

    backend = args.backend or settings_of(args).index.backend
    path = build_index(args.outdir, quiet=args.quiet, backend=backend)
    print(f"index built in {path}", file=sys.stderr)
    return 0


def app_config(args: argparse.Namespace, out: Path) -> dict:
    """The portal's Flask config: the output folder, the search cache and the ``portal:`` settings."""
    portal = settings_of(args).portal
    return {"OUTDIR": str(out), "SEARCH_CACHE": args.cache, "PER_PAGE": portal.per_page,
            "MAX_PER_PAGE": portal.max_per_page}


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
    config = app_config(args, out)
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
                         "threads": threads, "accesslog": None, "loglevel": "warning", "timeout": 120,
                         # gunicorn's longest request line, so that the portal answers a long URL with its own
                         # 414 page (search_portal.app.MAX_URL_CHARS) instead of gunicorn's raw one
                         "limit_request_line": 8190}.items():
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


def cmd_reveal(args: argparse.Namespace) -> int:
    from .reveal import reveal_lines

    print("\n".join(reveal_lines(args.outdir, args.id)))
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from .review_app import serve_review

    serve_review(args.outdir, port=args.port, cfg=config_of(args))
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    from .review import REVIEW_FILE, apply

    out = Path(args.outdir)
    if not (out / REVIEW_FILE).exists():
        raise InputError(f"{out / REVIEW_FILE}: no decisions to apply (make them with `paranon review {out}`)")
    # a short process that loads a corpus's checkpoints and keeps them to its end, with no reference cycle
    # worth collecting: without the cyclic collector (each collection walked all it had loaded; a tenth of
    # apply's CPU on 40,000 pairs)
    gc.disable()
    report = apply(out, config_of(args), args.input, quiet=args.quiet)
    u = report["units"]
    print(f"{u['written']} pairs written to {out} with the decisions of {REVIEW_FILE}; see report.html",
          file=sys.stderr)
    return _audit_status(report.get("audit"))


def _add_run(sub) -> None:
    r = sub.add_parser("run", help="the whole pipeline: read, anonymize, transfer, write outputs, build the index")
    r.add_argument("input", help="TMX/TSV/JSONL file, Moses prefix, or a folder of such files")
    r.add_argument("-o", "--output", required=True, help="output folder")
    r.add_argument("--workers", type=int, help="processes for the parallel stages (default: all cores)")
    r.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the parallel stages on Dask: 'local' (a cluster of --workers processes here) or a "
                        "scheduler's address, tcp://HOST:8786 (needs paranon[dask]; see docs/scale.md)")
    r.add_argument("--strict", action="store_true", help="stop at the first bad unit")
    r.add_argument("--format", choices=INPUT_FORMATS)
    r.add_argument("--src-col", dest="src_col")
    r.add_argument("--tgt-col", dest="tgt_col")
    r.add_argument("--aligner", choices=ALIGN_METHODS, help="default: the setting align.method")
    r.add_argument("--restart", action="store_true", help="throw away the checkpoints of an interrupted run")
    common_options(r)
    r.set_defaults(func=cmd_run)


def _server_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--cache", type=int, default=128, help="searches remembered per server process (0: none)")


def _add_serve(sub) -> None:
    s = sub.add_parser("serve", help="the search portal over an output folder")
    s.add_argument("outdir")
    _server_options(s)
    s.add_argument("--workers", type=int, default=None, help="server processes (default: two per core)")
    s.add_argument("--threads", type=int, default=None, help="threads per server process (default: 2)")
    s.add_argument("--config", help="settings YAML (its portal: section: results per page)")
    s.set_defaults(func=cmd_serve)


def _add_demo(sub) -> None:
    d = sub.add_parser("demo", help="run on the bundled sample TM, then serve it on http://127.0.0.1:8000")
    d.add_argument("-o", "--output", default=None, help="output folder (default ./paranon-demo)")
    _server_options(d)
    d.add_argument("--no-serve", action="store_true", help="only build the demo output")
    d.add_argument("--workers", type=int)
    common_options(d)
    d.set_defaults(func=cmd_demo)


def _add_index(sub) -> None:
    i = sub.add_parser("index", help="(re)build the search index of an output folder from corpus.jsonl")
    i.add_argument("outdir")
    i.add_argument("--backend", choices=INDEX_BACKENDS, help="the index engine (default: the setting index.backend)")
    i.add_argument("--config", help="settings YAML (see paranon/defaults.yaml for every key)")
    i.add_argument("--quiet", action="store_true")
    i.set_defaults(func=cmd_index)


def _add_review_commands(sub) -> None:
    """audit, reveal, review and apply: the commands that read keys.sqlite."""
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
    ap = sub.add_parser("apply", help="the decisions of OUTDIR/review.yaml applied: recomputed from the run's "
                        "checkpoint where they reach (else a full re-run from the input keys.sqlite names); pass "
                        "the run's --config and options")
    ap.add_argument("outdir")
    ap.add_argument("--workers", type=int, help="processes for the parallel stages (default: all cores)")
    ap.add_argument("--input", help="the run's input, if not where keys.sqlite says it was")
    common_options(ap)
    ap.set_defaults(func=cmd_apply)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="paranon", description="Anonymize a PT-EN translation memory, carry the "
                                "anonymization to English by word alignment, and search the result.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_add_run, _add_serve, _add_demo, _add_index, _add_review_commands, add_eval, add_train):
        add(sub)
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
