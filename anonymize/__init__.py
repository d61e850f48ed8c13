"""The Portuguese-side anonymizer: recognizers, numbering, operators and the key store.

spaCy is imported here first, with torch hidden: thinc imports torch eagerly whenever it is installed
(simalign needs it), which costs 1.5 s on every start of paranon and of each of its processes, and
paranon's spaCy pipelines (the blank tokenizer, a trained or installed CPU NER) never run through torch.
torch stays importable afterwards. A transformer spaCy pipeline (``*_trf``) does run through torch: set
``PARANON_THINC_TORCH=1`` to use one.
"""

from __future__ import annotations

import os
import sys


def _import_spacy_without_torch() -> None:
    if "spacy" in sys.modules or "torch" in sys.modules or os.environ.get("PARANON_THINC_TORCH") == "1":
        return
    sys.modules["torch"] = None  # type: ignore[assignment]  # `import torch` fails: thinc notes no torch
    try:
        import spacy  # noqa: F401
    finally:
        del sys.modules["torch"]


_import_spacy_without_torch()
