"""The general-Portuguese tuning set (corpora/gold/general/build.py): PESSOA cut to the name in paranon's policy,
text shared with the HAREM test collections left out (the shared data is not needed: written sentences)."""

from __future__ import annotations

import importlib.util

import pytest

from tests.conftest import ROOT

_spec = importlib.util.spec_from_file_location("general_gold_build", ROOT / "corpora" / "gold" / "general" / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

ROLES = build.roles_of(ROOT / "anonymize" / "data" / "pt.yaml")


def _s(text: str) -> list[tuple[str, str]]:
    """``Professora/PESSOA Ilda/PESSOA chegou`` -> [(word, tag)]."""
    return [tuple(w.split("/")) if "/" in w else (w, "O") for w in text.split()]


@pytest.mark.parametrize(("given", "kept"), [
    # a title before the name stays visible: only the name is PESSOA
    ("a Professora/PESSOA Ilda/PESSOA Vaz/PESSOA chegou", ["Ilda", "Vaz"]),
    # a word in lower case before the name (kinship, a role HAREM includes) is not the name
    ("o tio/PESSOA Albano/PESSOA riu", ["Albano"]),
    # a role alone is not a name: nothing is left PESSOA
    ("o Presidente/PESSOA falou", []),
    # a name is left whole
    ("Gaspar/PESSOA Nogueira/PESSOA escreveu", ["Gaspar", "Nogueira"]),
])
def test_person_gold_is_the_name(given, kept):
    out, _, _ = build.person_policy(_s(given), ROLES)
    assert [w for w, t in out if t == "PESSOA"] == kept


def _sents(*texts: str) -> list[list[tuple[str, str]]]:
    return [_s(t) for t in texts]


LONG = "as três irmãs subiram o monte ao fim da tarde de domingo"


@pytest.mark.parametrize(("sents", "test", "dropped"), [
    # a sentence shared with the test text goes, with its neighbours (PAD on each side)
    (_sents(*[f"frase {k} de um texto qualquer sem nada" for k in range(8)], LONG),
     _sents(LONG), {5, 6, 7, 8}),
    # a short sentence shared by chance goes alone
    (_sents("uma frase comprida e diferente de todas as outras aqui", "Sim .", "outra frase comprida e sem par"),
     _sents("Sim ."), {1}),
    # an 8-word sequence shared inside a longer sentence is enough
    (_sents("disse ele : " + LONG + " e depois calou-se"), _sents(LONG), {0}),
])
def test_text_shared_with_the_test_collections_is_left_out(sents, test, dropped):
    keys = {build.sentence_key(s) for s in test}
    grams = set().union(*(build.ngrams(build.words(s)) for s in test))
    assert build.overlapping(sents, keys, grams) == dropped
