"""Build blind2_test.jsonl (paranon's gold JSONL), .tsv and .tmx from the annotated sources in src/, with the
first blind set's converter (corpora/gold/blind/convert.py: the mark-up is described there). The Brazilian deed
(``06_deed_br``) is tagged pt-BR in the TMX.

    python corpora/gold/blind2/convert.py   # writes blind2_test.jsonl, .tsv and .tmx here
"""
import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("blind_convert", HERE.parent / "blind" / "convert.py")
blind_convert = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(blind_convert)

if __name__ == "__main__":
    blind_convert.main(HERE, "blind2_test", brazilian_tag=True)
