"""fallback_lone_name: a lone capitalized word the dictionary does not know, in a person's position (next to a
verb of saying, after a +HUM noun in lower case), and a name before a regnal number. Variants written for the
test (no string of any evaluation set)."""

from __future__ import annotations

import pytest
from paranon.anonymize.recognizers.fallback_lone_name import LoneNameFallback


def _rules(anonymizer, text: str) -> list[tuple[str, str, str]]:
    (ms,) = anonymizer.recognize_document([text])
    return [(m.text, m.category, m.rule) for m in ms]


# wordfreq knows these names as words (common list), the dictionary does not: a verb of saying makes them persons
@pytest.mark.parametrize(("text", "name"), [
    ("O acordo, disse Bolsonaro, está fechado.", "Bolsonaro"),     # the verb before the name
    ("Na véspera, Macri afirmou que não vai ceder.", "Macri"),    # the verb after the name
    ("A reforma avança, segundo Evo, sem pressa.", "Evo"),         # "according to"
])
def test_a_lone_name_next_to_a_verb_of_saying_is_a_person(anonymizer, text, name):
    assert (name, "PERSON", "fallback:speaker") in _rules(anonymizer, text)


@pytest.mark.parametrize(("text", "name"), [
    ("O reinado de Tutmósis III durou décadas.", "Tutmósis III"),
    ("A coroa passou a Ataulfo II nesse ano.", "Ataulfo II"),
    ("Foi sucedido por Recaredo I em Toledo.", "Recaredo I"),
])
def test_a_name_before_a_regnal_number_is_a_person(anonymizer, text, name):
    assert (name, "PERSON", "fallback:regnal") in _rules(anonymizer, text)


@pytest.mark.parametrize("text", [
    "Consulte o Anexo III do documento.",            # an ordinary word before the numeral
    "A Turma II julgou o caso.",                     # a body's head
    "O Capítulo IV trata das garantias.",
])
def test_an_ordinary_word_before_a_roman_numeral_is_no_regnal_name(anonymizer, text):
    assert not [r for r in _rules(anonymizer, text) if r[2] == "fallback:regnal"]


@pytest.mark.parametrize(("word", "lower", "name"), [
    ("Bolsonaro", set(), True),          # neither the dictionary nor the document knows it as a word
    ("Envie", set(), False),             # a conjugated verb of the dictionary (enviar)
    ("Covas", set(), False),             # the plural of a dictionary word (cova)
    ("Software", set(), False),          # frequent in English: a loan word
    ("Marinho", set(), False),           # a dictionary word (an adjective)
    ("Bolsonaro", {"bolsonaro"}, False),  # the document writes it in lower case elsewhere
    # a hyphenated name: every part a name; a compound of words or a short loan word is none
    ("Kowalczyk-Nowak", set(), True),
    ("Merleau-Ponty", set(), True),
    ("Norte-Americano", set(), False),
    ("Wi-Fi", set(), False),
    # the feminine of an agent noun of the dictionary is a word (locador: Locadora), a name ending so is not one
    ("Locadora", set(), False),
    ("Fiadora", set(), False),
    ("Fiadoras", set(), False),
    ("Teodora", set(), True),
])
def test_what_the_dictionary_calls_a_word(anonymizer, word, lower, name):
    rec = next(r for r in anonymizer.recognizers if isinstance(r, LoneNameFallback))
    assert rec.names.is_name(word, lower) is name


# a sentence's first word that no dictionary knows, before its verb (a conjugated verb of the dictionary or a
# predicate opener: an irregular verb, an adverb), is a name
@pytest.mark.parametrize(("text", "name"), [
    ("Vandermeer escreveu o prefácio em Lisboa.", "Vandermeer"),   # a regular conjugated verb
    ("Okonjo nunca respondeu às cartas.", "Okonjo"),               # an adverb before the verb
    ("Tshabalala foi eleito ontem.", "Tshabalala"),                # an irregular verb
])
def test_a_sentence_initial_unknown_word_before_its_verb_is_a_person(anonymizer, text, name):
    assert (name, "PERSON", "fallback:initial-subject") in _rules(anonymizer, text)


@pytest.mark.parametrize("text", [
    "Inexiste vício material na decisão.",     # a verb (no dictionary form) before a noun of the dictionary
    "Essas pessoas chegaram cedo.",            # a word wordfreq knows (a demonstrative)
    "Envie mensagens ao serviço.",             # a conjugated verb of the dictionary (enviar)
])
def test_a_sentence_initial_word_that_is_no_subject_stays_visible(anonymizer, text):
    assert not [r for r in _rules(anonymizer, text) if r[2] == "fallback:initial-subject"]


def test_a_speaker_is_the_same_person_where_the_document_names_it_alone(anonymizer):
    texts = ["Bolsonaro chegou cedo.", "O plano, disse Bolsonaro, está pronto."]
    assert [[(m.text, m.rule) for m in ms] for ms in anonymizer.recognize_document(texts)] == [
        [("Bolsonaro", "fallback:speaker")], [("Bolsonaro", "fallback:speaker")]]


# after a title, words that no dictionary knows are a name even when wordfreq knows them (the person rules read
# words wordfreq knows after a title as an office: "Presidente da República", "Deputado Distrital")
@pytest.mark.parametrize(("text", "name"), [
    ("A Senadora Macri Bolsonaro votou a favor.", "Macri Bolsonaro"),
    ("O Ministro Bolsonaro respondeu depois.", "Bolsonaro"),
    ("Falou ontem o Senador Macri sobre o tema.", "Macri"),
])
def test_words_no_dictionary_knows_after_a_title_are_a_name(anonymizer, text, name):
    assert (name, "PERSON", "title:unknown-words") in _rules(anonymizer, text)


@pytest.mark.parametrize("text", [
    "O Presidente da República promulgou a lei.",   # the office: words of the dictionary
    "O Deputado Distrital votou contra.",
    "Exmo . Sr . Relator , boa tarde.",            # an abbreviated title before its full stop is no name
])
def test_an_office_after_a_title_stays_visible(anonymizer, text):
    assert not [r for r in _rules(anonymizer, text) if r[1] == "PERSON"]


# two or three capitalized words inside a sentence, none a word of the dictionary (wordfreq may know them all)
@pytest.mark.parametrize(("text", "name"), [
    ("Entre os convidados estavam Macri Bolsonaro e outros.", "Macri Bolsonaro"),
    ("O prémio foi para Evo Bolsonaro ontem.", "Evo Bolsonaro"),
    ("A obra é de Macri Rousseff , dizem.", "Macri Rousseff"),
])
def test_capitalized_words_no_dictionary_knows_are_a_name(anonymizer, text, name):
    assert (name, "PERSON", "fallback:unknown-words") in _rules(anonymizer, text)


@pytest.mark.parametrize("text", [
    "Usa o Software Livre sempre.",          # words of the dictionary or of English
    "Leu o Diário Oficial ontem.",
    "Falou da Guerra Fria na aula.",
])
def test_capitalized_dictionary_words_are_no_unknown_name(anonymizer, text):
    assert not [r for r in _rules(anonymizer, text) if r[2] == "fallback:unknown-words"]


@pytest.mark.parametrize("text", ["Vandermeer escreveu o prefácio.", "Okonjo nunca respondeu.", "Tshabalala foi eleito."])
def test_sentence_initial_false_leaves_the_first_word_to_the_other_rules(cfg, text):
    import copy

    from paranon.anonymize.engine import Anonymizer

    c = copy.deepcopy(cfg)
    c["anonymize"]["recognizer_options"]["fallback_lone_name"] = {"sentence_initial": False}
    assert not [r for r in _rules(Anonymizer(c), text) if r[2] == "fallback:initial-subject"]


# an occupation or kin noun in lower case before a lone name the dictionary does not know (person.name_nouns)
@pytest.mark.parametrize(("text", "name"), [
    ("No segundo tempo o avançado Bolsonaro marcou de cabeça.", "Bolsonaro"),
    ("Ficou em casa da tia Macri durante o verão.", "Macri"),
    ("O romance do escritor Rousseff saiu em março.", "Rousseff"),
])
def test_a_lone_name_after_an_occupation_or_kin_is_a_person(anonymizer, text, name):
    assert (name, "PERSON", "fallback:speaker") in _rules(anonymizer, text)


# one capitalized word inside a sentence that no dictionary knows is a name, even one wordfreq counts as a word
@pytest.mark.parametrize(("text", "name"), [
    ("A equipa de Bolsonaro perdeu o jogo.", "Bolsonaro"),       # after a preposition
    ("O livro foi oferecido a Macri pelo autor.", "Macri"),      # an indirect object
    ("Encontrei ontem Rousseff no mercado.", "Rousseff"),        # a direct object
])
def test_a_lone_word_no_dictionary_knows_inside_a_sentence_is_a_person(anonymizer, text, name):
    assert (name, "PERSON", "fallback:unknown-word") in _rules(anonymizer, text)


@pytest.mark.parametrize("texts", [
    ["A reunião decorreu em Quixeramobim no sábado."],           # a bare "em" locates: a place
    ["Regulamento (UE) 2019/1234 do Conselho, de 3 de maio de 2019",
     "A ajuda chega ao Macri em março."],                        # a legal act: wordfreq's word names a programme
    ["Visitou a Sé e o Mosteiro de manhã."],                     # words of the dictionary
])
def test_a_lone_word_inside_a_sentence_that_is_no_unknown_name(anonymizer, texts):
    found = anonymizer.recognize_document(texts)
    assert not [m for ms in found for m in ms if m.rule == "fallback:unknown-word"]


# a sentence's first word no dictionary knows: before a verb with a clitic, before its relative clause, the first of
# a list of such words, or a word a name list knows whatever follows it
@pytest.mark.parametrize(("text", "name"), [
    ("Okonjo tornou-se ministro em maio.", "Okonjo"),             # a clitic on the verb
    ("Tshabalala, que chegou ontem, falou.", "Tshabalala"),       # a relative clause
    ("Vandermeer, Okonjo e Tshabalala jogaram.", "Vandermeer"),   # a list of names
    ("Schneider com medo recuou.", "Schneider"),                  # a name list's word
])
def test_a_sentence_initial_name_by_what_follows_it_is_a_person(anonymizer, text, name):
    assert (name, "PERSON", "fallback:initial-subject") in _rules(anonymizer, text)


@pytest.mark.parametrize("text", [
    "Destarte, a decisão é justa.",                   # an adverb hunspell lacks, before its comma
    "Pleiteia, no mérito, a concessão da ordem.",     # a verb hunspell lacks
    "Kowalski sem pressa chegou.",                    # no verb right after an unknown word
])
def test_a_sentence_initial_unknown_word_without_a_name_context_stays_visible(anonymizer, text):
    assert not [r for r in _rules(anonymizer, text) if r[1] == "PERSON"]


# a word as frequent as everyday words is a word of another spelling, not a name (fallbacks.lone_name_max_zipf)
@pytest.mark.parametrize("text", [
    "O relator escreveu [...] Dessa maneira, nego provimento.",
    "O texto continua [...] Faço saber que a lei vigora.",
    "Lê-se adiante [...] Nela consta o pedido.",
])
def test_a_frequent_word_hunspell_lacks_is_no_lone_name(anonymizer, text):
    assert not [r for r in _rules(anonymizer, text) if r[2] == "fallback:unknown-word"]


def test_a_lone_name_inside_a_sentence_is_the_same_name_where_it_opens_one(anonymizer):
    texts = ["Bolsonaro, hoje à tarde, vai a Lisboa.", "Os bens de Bolsonaro foram avaliados."]
    assert [[(m.text, m.rule) for m in ms] for ms in anonymizer.recognize_document(texts)] == [
        [("Bolsonaro", "same-document:fallback:unknown-word")], [("Bolsonaro", "fallback:unknown-word")]]


# an occupation, kin or rank written capitalized before words no dictionary knows: the words are a name, the role
# stays visible
@pytest.mark.parametrize(("text", "name"), [
    ("Falou depois o Rei Okonjo sobre a seca.", "Okonjo"),
    ("No segundo tempo, o Treinador Vandermeer mudou a equipa.", "Vandermeer"),
    ("Recebeu-os a Rainha Tshabalala no palácio.", "Tshabalala"),
])
def test_words_no_dictionary_knows_after_a_capitalized_role_are_a_name(anonymizer, text, name):
    assert (name, "PERSON", "fallback:role-unknown-words") in _rules(anonymizer, text)


@pytest.mark.parametrize("text", [
    "A visita do Rei de Espanha foi adiada.",      # a place after the role's particle
    "O filme do Rei Leão estreou.",                # a word of the dictionary
    "O prémio do Jogador Revelação saiu.",
])
def test_a_capitalized_role_before_words_of_the_language_is_no_name(anonymizer, text):
    assert not [r for r in _rules(anonymizer, text) if r[1] == "PERSON"]


# two capitalized words inside a sentence: one no dictionary knows (wordfreq may), the other a word of the
# language (a surname that is also a word, a given name that is also an adjective)
@pytest.mark.parametrize(("text", "name"), [
    ("Ontem, Macri Leão ganhou a corrida.", "Macri Leão"),
    ("A obra de Vital Rousseff saiu em março.", "Vital Rousseff"),
    ("O golo foi de Bolsonaro Seixas no fim.", "Bolsonaro Seixas"),
])
def test_a_word_no_dictionary_knows_beside_a_word_of_the_language_is_a_name(anonymizer, text, name):
    assert (name, "PERSON", "fallback:unknown-and-word") in _rules(anonymizer, text)


@pytest.mark.parametrize("texts", [
    ["Durante a Operação Bolsonaro, a polícia deteve dez."],        # a derived noun heads the phrase
    ["Abriu o Internet Explorer de novo."],                         # both words frequent in English
    ["Invocou o Fumus Bonus na audiência."],                        # a word wordfreq does not know either (Latin)
    ["Regulamento (UE) 2019/1234 do Conselho, de 3 de maio de 2019",
     "O apoio à iniciativa Vital Rousseff termina."],               # a legal act
])
def test_a_word_no_dictionary_knows_in_a_phrase_is_no_name(anonymizer, texts):
    found = anonymizer.recognize_document(texts)
    assert not [m for ms in found for m in ms if m.rule == "fallback:unknown-and-word"]


# a speaker that is also a word of the language, where the document never writes the word in lower case
@pytest.mark.parametrize(("text", "name"), [
    ("O país mudou, disse Pardal aos jornalistas.", "Pardal"),
    ("No segundo tempo o avançado Cotovia marcou de cabeça.", "Cotovia"),
    ("A reforma, afirmou Girassol, está pronta.", "Girassol"),
])
def test_a_word_of_the_language_next_to_a_verb_of_saying_is_a_person(anonymizer, text, name):
    assert (name, "PERSON", "fallback:speaker") in _rules(anonymizer, text)


@pytest.mark.parametrize("texts", [
    ["O prazo acaba, segundo Tabela anexa."],                        # a preposition of speech_verbs
    ["O arguido, disse Tribunal, não compareceu."],                  # a body's head
    ["O pardal voou para longe.", "O país mudou, disse Pardal."],    # the document writes it in lower case
])
def test_a_word_of_the_language_that_is_no_speaker(anonymizer, texts):
    found = anonymizer.recognize_document(texts)
    assert not [m for ms in found for m in ms if m.category == "PERSON"]


# a bare subject: a word of the language, capitalized, with no article after a conjunction or a comma and before a
# verb in the singular, is a name (a common noun as a subject takes an article); the document's lone mentions too
@pytest.mark.parametrize(("texts", "name"), [
    (["Diz-se que Pardal tomará posse em janeiro.", "A vitória de Pardal foi clara."], "Pardal"),
    (["No Rio, Cotovia está em segundo lugar.", "Cotovia cresceu na província."], "Cotovia"),
    (["Enquanto Girassol discursava, o partido caiu.", "O voto em Girassol subiu."], "Girassol"),
])
def test_a_word_of_the_language_as_a_bare_subject_is_a_person_in_the_whole_document(anonymizer, texts, name):
    found = anonymizer.recognize_document(texts)
    assert all((name, "PERSON") in [(m.text, m.category) for m in ms] for ms in found)


@pytest.mark.parametrize("texts", [
    ["Sabe-se que a cotovia cantou cedo.", "A Cotovia é uma ave."],  # an article before the subject
    ["Dizem que Educação é prioridade."],                             # a derived noun
    ["Dizem que Portugal é um país pequeno."],                        # a place
    ["Os dados mostram que Saúde foram prioridades."],                # a plural verb
    ["Consta que Pombas venceu o jogo."],                             # a plural word before a singular verb
    ["O pardal voou.", "Diz-se que Pardal tomará posse."],            # the document writes it in lower case
])
def test_a_bare_subject_that_is_no_person(anonymizer, texts):
    found = anonymizer.recognize_document(texts)
    assert not [m for ms in found for m in ms if m.category == "PERSON"]
