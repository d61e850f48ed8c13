"""The measuring commands of ``paranon``: ``eval ner|align|transfer`` and ``train ner``, with their options."""

from __future__ import annotations

import argparse
import sys

from .cli_args import Renamed, common_options, config_of, print_json
from .config_check import ALIGN_METHODS
from .errors import InputError


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
    print_json(obj)


def cmd_eval_ner(args: argparse.Namespace) -> int:
    from .anonymize.evaluate import evaluate_ner, parse_map
    from .evaltables import by_doc_table, leak_why_lines, ner_table, over_masked_line

    cfg = config_of(args)
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
    from .evaltables import align_lines

    res = evaluate_alignment(args.src_file, args.tgt_file, args.gold, config_of(args), args.train_src,
                             args.train_tgt)
    if args.json:
        print_json(res)
    else:
        print("\n".join(align_lines(res)))
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
        res = evaluate_transfer(es.path, config_of(args), strings=not figures_only, limit=args.limit)
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
    print_json(summary)
    return 0


def _gold_sets_option(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--gold", required=True, action="append", help=what + "; repeat for several sets")
    p.add_argument("--figures-only", action="store_true", help="print no entity string (always so for test sets)")


def _add_eval_ner(evs) -> None:
    en = evs.add_parser("ner", help="recognizer vs gold entities, one row per gold set: leaks, exact/partial/token "
                        "scores, over-masking")
    _gold_sets_option(en, "a set named in corpora/evalsets.yaml (lener-dev, harem1 ...) or a CoNLL file or folder "
                      "(one document per file), gold JSONL or HAREM collection")
    en.add_argument("--format", dest="gold_format", choices=["conll", "jsonl", "harem", "harem-names"],
                    help="default: the set's, or from the file")
    en.add_argument("--map", help="gold type -> category, e.g. PESSOA=PERSON,ORGANIZACAO=ORGANIZATION "
                    "(the default for CoNLL; JSONL and HAREM gold use paranon's categories)")
    en.add_argument("--by-doc", action="store_true", help="per document: gold entity tokens, leaked tokens by "
                    "category, masked and over-masked tokens, most leaked first")
    en.add_argument("--limit", type=int, help="per set, whole documents until this many sentences")
    en.add_argument("--json", action="store_true", help="one JSON object holding every set")
    common_options(en)
    en.set_defaults(func=cmd_eval_ner)


def _add_eval_align(evs) -> None:
    ea = evs.add_parser("align", help="word aligner vs gold Pharaoh links: precision, recall, F1, AER")
    ea.add_argument("--src", dest="src_file", required=True, help="source sentences, tokens separated by spaces")
    ea.add_argument("--tgt", dest="tgt_file", required=True, help="target sentences, same line count")
    ea.add_argument("--gold", required=True, help="Pharaoh links i-j per line (0-based; i-j-p or i?j: possible)")
    ea.add_argument("--train-src", help="extra parallel text to learn from (eflomal)")
    ea.add_argument("--train-tgt")
    ea.add_argument("--aligner", choices=ALIGN_METHODS, help="default: the setting align.method")
    ea.add_argument("--method", dest="aligner", choices=ALIGN_METHODS, action=Renamed, new="--aligner",
                    help=argparse.SUPPRESS)
    ea.add_argument("--json", action="store_true", help="the figures as one JSON object")
    ea.add_argument("--config", help="settings YAML (see paranon/defaults.yaml for every key)")
    ea.add_argument("--quiet", action="store_true")
    ea.set_defaults(func=cmd_eval_align)


def _add_eval_transfer(evs) -> None:
    et = evs.add_parser("transfer", help="whole pipeline vs two-sided gold, one row per set: recall per side, "
                        "leaks, number agreement, coreference ARI, over-masking, side mismatch")
    _gold_sets_option(et, "gold JSONL with src_entities and tgt_entities, or a set named in corpora/evalsets.yaml")
    et.add_argument("--limit", type=int, help="per set, the first pairs (whole documents)")
    et.add_argument("--json", action="store_true", help="one JSON object holding every set")
    common_options(et)
    et.set_defaults(func=cmd_eval_transfer)


def add_eval(sub) -> None:
    ev = sub.add_parser("eval", help="measure a stage against gold data (a table, or JSON with --json)")
    evs = ev.add_subparsers(dest="what", required=True, metavar="STAGE")
    _add_eval_ner(evs)
    _add_eval_align(evs)
    _add_eval_transfer(evs)


def add_train(sub) -> None:
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
