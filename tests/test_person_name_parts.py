"""A person's name beyond the words the rules found: a regnal number after the name (before a full stop too), and
the given name used alone later in the document. Variants written for the test (no string of any evaluation set)."""

from __future__ import annotations

import pytest


def _persons(anonymizer, text: str) -> list[tuple[str, str]]:
    (ms,) = anonymizer.recognize_document([text])
    return [(m.text, m.rule) for m in ms if m.category == "PERSON"]


@pytest.mark.parametrize(("text", "name"), [
    ("Sucedeu-lhe no trono o Rei Fernando VII.", "Fernando VII"),        # before the sentence's full stop
    ("A coroa passou para a Rainha Beatriz Leonor III.", "Beatriz Leonor III"),
    ("O Sr. Anselmo Vidigal IV, herdeiro da casa, assinou.", "Anselmo Vidigal IV"),  # before a comma
])
def test_a_regnal_number_after_a_name_is_part_of_the_name(anonymizer, text, name):
    assert any(t.endswith(name) for t, _ in _persons(anonymizer, text))


@pytest.mark.parametrize("text", [
    "Consulte o Anexo II.",                        # no person before the numeral
    "O Sr. Anselmo Vidigal leu o Capítulo IV.",    # the numeral belongs to the next chain
    "A Dra. Beatriz Leonor, e o Título III.",
])
def test_a_roman_numeral_after_no_name_stays_visible(anonymizer, text):
    assert not any(t.endswith(("II", "III", "IV")) for t, _ in _persons(anonymizer, text))


# given names wordfreq knows as words and no name list holds: alone (a sentence's subject, or too frequent for
# the lone-name fall-back), nothing else would mask them
@pytest.mark.parametrize(("text", "given"), [
    ("A senadora Dilma Kowalczyk votou contra. A proposta de Dilma caiu.", "Dilma"),
    ("O treinador Romário Kowalczyk chegou cedo. Romário pediu calma.", "Romário"),
    ("O avançado Fernandinho Lisboa marcou. Fernandinho saiu lesionado.", "Fernandinho"),
])
def test_a_given_name_alone_is_the_person_named_in_full_before(anonymizer, text, given):
    assert (given, "same-document:given-name") in _persons(anonymizer, text)


@pytest.mark.parametrize(("text", "word"), [
    # the document writes the word in lower case: an ordinary word, not the person's name
    ("A senadora Dilma Kowalczyk votou. A dilma é nome de planta. Dilma Praia é outra.", "Dilma"),
    # a title before the name is no given name
    ("O Ministro Romário Quaresma chegou. O Ministro falou.", "Ministro"),
    # a word of the dictionary opening a chain the person rules took is not spread
    ("A Reforma Kowalczyk Quaresma foi votada. A Reforma acabou.", "Reforma"),
    # the given name inside another name (a garden's) is not the person
    ("A senadora Dilma Kowalczyk falou. O Jardim Dilma fica perto.", "Dilma"),
])
def test_a_word_that_is_no_given_name_is_not_spread(anonymizer, text, word):
    assert (word, "same-document:given-name") not in _persons(anonymizer, text)


# words wordfreq counts and no name list holds (a place for a surname too), after an occupation or +HUM noun in
# lower case: one of them no word of the dictionary makes the run a name
@pytest.mark.parametrize(("text", "name"), [
    ("A deputada Dilma Quaresma votou contra.", "Dilma Quaresma"),
    ("O avançado Fernandinho Lisboa marcou dois golos.", "Fernandinho Lisboa"),
    ("Ouvimos o cantor Caetaninho Açores no festival.", "Caetaninho Açores"),
])
def test_words_after_a_role_noun_are_a_name_when_one_is_no_word(anonymizer, text, name):
    assert (name, "role-noun:name-words") in _persons(anonymizer, text)


@pytest.mark.parametrize("text", [
    "O deputado Distrital Federal votou.",      # ordinary words of the dictionary
    "O réu Sagrada Família foi citado.",
    "A cantora Rock Nacional atuou.",
])
def test_dictionary_words_after_a_role_noun_are_no_name(anonymizer, text):
    assert not [t for t, r in _persons(anonymizer, text) if r == "role-noun:name-words"]


# initials before a name
@pytest.mark.parametrize(("text", "name"), [
    ("O parecer foi assinado por J. P. Vidigal e arquivado.", "J. P. Vidigal"),
    ("Estiveram presentes A. Vidigal e T. de Lisboa-Mendes.", "T. de Lisboa-Mendes"),
    ("A carta de F. von der Kowalczyk chegou ontem.", "F. von der Kowalczyk"),
])
def test_initials_before_capitalized_words_are_a_name(anonymizer, text, name):
    assert (name, "initials") in _persons(anonymizer, text)


@pytest.mark.parametrize("text", [
    "Informamos V. Ex.ª de que o pedido foi aceite.",     # an address of courtesy, not a name
    "Nos termos do C. Civil, o prazo é de dez dias.",      # a code's abbreviation: an adjective of the dictionary
    "A procissão saiu da igreja de S. Bento ao meio-dia.",  # São before a saint's name
    "B. Contexto e objetivos do programa",                 # a heading's label before a word of the dictionary
    "O jogo com o S. C. Braga acabou empatado.",           # a club named by its town
])
def test_initials_before_no_name_are_no_name(anonymizer, text):
    assert not [t for t, r in _persons(anonymizer, text) if r == "initials"]


@pytest.mark.parametrize(("text", "word", "alone"), [
    ("Falou com Paulo ontem.", "Paulo", True),
    ("Vive em São Paulo desde então.", "Paulo", False),   # a capitalized word before it
    ("Votou em Paulo Quaresma.", "Paulo", False),         # a capitalized word after it
])
def test_a_given_name_stands_alone_without_capitalized_neighbours(text, word, alone):
    from paranon.anonymize.consistency import stands_alone

    s = text.index(word)
    assert stands_alone(text, s, s + len(word)) is alone


@pytest.mark.parametrize(("text", "found"), [
    ("A declaração foi assinada por Leonor ontem.", ["Leonor"]),
    ("Em Santa Leonor há uma feira.", []),                      # a part of another name (a place)
    ("Leonor Quaresma Baptista assinou.", []),                  # a name the reviewer allowed: its given name stays
])
def test_a_given_name_spreads_over_the_corpus_only_where_it_stands_alone(text, found):
    """The corpus-wide spread of a given name follows the document's rule (``stands_alone``)."""
    from paranon.anonymize.consistency import CorpusForms, FormKind

    forms = CorpusForms()
    forms._add_kind("leonor", FormKind("PERSON", "", "given-name", False))
    assert [text[s:e] for s, e, _ in forms.find(text)] == found
