"""Recognition on unseen text (issue 17): each rule's linguistic class as a table of examples written for
the test, and the privacy rule that a rule name never holds words of the input."""

from __future__ import annotations

import pytest
import regex
from paranon.corpora.model import SegmentPair

from paranon.text import fold

WORD = regex.compile(r"\p{L}{2,}")


def _document(anonymizer, texts: list[str]):
    pairs = [SegmentPair(id=str(k), doc="d", src=t, tgt="") for k, t in enumerate(texts)]
    return anonymizer.anonymize_document(pairs)


def _masked(anonymizer, texts: list[str]) -> list[str]:
    return [rep.text for _ms, rep in _document(anonymizer, texts)]


# planted names of every class the rules read: surnames spelt like legal forms (Sá ~ SA, Lima ~ LIMA), names
# after role nouns and titles, trigger words and public nouns whose matched text a rule could copy
PLANTED = [
    ["A Sá Pinto assinou.", "A mulher Quitéria Sá disse que o sócio Oleksandr Kovalenko e a Dra. Iolanda Brás votaram."],
    ["A Tintas Belmiro & Irmão, Lda. e o Banco Varandas celebraram.", "NIF 503 004 529, tel. 912 345 678."],
    ["O Decreto-Lei n.º 12/2019 e o Ministério das Pescas.", "A testemunha Zulmira Quaresma, gerente da Ervas Finas SA."],
]


@pytest.mark.parametrize("texts", PLANTED)
def test_rule_names_never_hold_input_words(anonymizer, texts):
    words = {fold(w) for t in texts for w in WORD.findall(t)}
    rules = [m.rule for ms, _rep in _document(anonymizer, texts) for m in ms]
    assert rules  # the texts do hold entities
    for rule in rules:
        assert not {fold(w) for w in WORD.findall(rule)} & words, rule


@pytest.mark.parametrize("text, masked, visible", [
    # an accented surname is no legal-form tail (Sá is not SA), nor a capitalized article (As is not AS)
    ("A mulher Quitéria Sá disse.", "Quitéria Sá", "mulher"),
    ("Assinou a Ervas Finas SA em Lisboa.", "Ervas Finas SA", "Lisboa"),
    ("Assinou a Lacticínios Serra Velha, S.A. ontem.", "Lacticínios Serra Velha, S.A.", "ontem"),
])
def test_legal_form_tails_are_written_as_companies_write_them(anonymizer, text, masked, visible):
    [(ms, rep)] = _document(anonymizer, [text])
    assert masked not in rep.text and visible in rep.text
    assert any(m.text == masked for m in ms), [(m.text, m.category) for m in ms]


IDENTIFIERS = [  # (text, the identifier that must be hidden, its rule)
    # a legal person's number in typed layouts, spaced or dotted, with or without a valid check digit
    ("A Fábrica, pessoa colectiva n.º 589 555 979, com sede", "589 555 979", "trigger:check-digit"),
    ("com o NIPC 563.212.233, representada", "563.212.233", "trigger:check-digit"),
    ("contribuinte n.º 123 456 780, residente", "123 456 780", "trigger"),  # check digit fails: still hidden
    # phones of any country, in the layouts people type
    ("tel. (+351) 912 345 678, para contacto", "(+351) 912 345 678", "phone"),
    ("fax 213 456 789, ou por escrito", "213 456 789", "phone"),
    ("ligue para +44 20 7946 0958 hoje", "+44 20 7946 0958", "phone"),
    # companies registered abroad: a phrase announces the number
    ("sociedade registada sob o número 09876543 em Cardiff", "09876543", "trigger"),
    ("matriculada sob o n.º 4321/2010 na Conservatória", "4321/2010", "trigger"),
    ("a company registered under number 07654321 in England", "07654321", "trigger"),
    # Brazilian taxpayers and lawyers: the printed layout with a valid check digit is enough
    ("o réu, inscrito no CPF sob o n.º 149.131.677-23, declarou", "149.131.677-23", "cpf:check-digit"),
    ("a empresa de CNPJ 22.829.851/8601-08 e", "22.829.851/8601-08", "cnpj:check-digit"),
    ("advogado inscrito na OAB/SP 123.456, requereu", "123.456", "oab"),
    ("adv. Pedro Alves, OAB-RJ n.º 98765, requereu", "98765", "oab"),
    ("contribuintes 403.533.886-96 e 153.072.748-07", "403.533.886-96", "cpf:check-digit"),
    # EU VAT numbers: a valid check digit, or a VAT word before an invalid one
    ("NIF PT589555979 e", "PT589555979", "vat:check-digit"),
    ("número de IVA DE123456788, sede", "DE123456788", "vat:check-digit"),
    ("VAT No. FR 12345678901 ou", "FR 12345678901", "vat:trigger"),
]


@pytest.mark.parametrize("text, code, rule", IDENTIFIERS)
def test_identifiers_in_typed_layouts(anonymizer, text, code, rule):
    ms = anonymizer.recognize(text)
    assert [(m.text, m.category, m.rule) for m in ms if m.text == code] == [(code, "NAMEID", rule)], \
        [(m.text, m.category, m.rule) for m in ms]


@pytest.mark.parametrize("text, amount", [  # amounts in the layouts of identifiers stay visible
    ("pelo montante de 212 345 678,00 euros", "212 345 678,00"),
    ("o valor de 1 234 567 euros foi pago", "1 234 567"),
    ("um capital de 50.000.000,00 EUR", "50.000.000,00"),
])
def test_amounts_are_not_identifiers(anonymizer, text, amount):
    assert amount in _masked(anonymizer, [text])[0]


VISIBLE = [  # (text, a string that stays visible)
    # countries and territories, short and official (babel, pycountry) and the long forms as a class
    ("Os Estados Unidos da América e o Japão assinaram.", "Estados Unidos da América"),
    ("Declaração do Reino da Dinamarca relativa às Ilhas Faroé.", "Reino da Dinamarca"),
    ("Declaração do Reino da Dinamarca relativa às Ilhas Faroé.", "Ilhas Faroé"),
    ("A Islândia, o Listenstaine e a Noruega são partes.", "Listenstaine"),
    ("Acordo entre a Federação da Rússia e a Confederação Suíça", "Federação da Rússia"),
    ("Acordo entre a Federação da Rússia e a Confederação Suíça", "Confederação Suíça"),
    ("O Grão-Ducado do Luxemburgo notificou.", "Grão-Ducado do Luxemburgo"),
    # an ordinary word opening a sentence: closed-class words and gerunds, whatever a name list says
    ("Durante as reuniões, nada foi decidido.", "Durante"),
    ("Nada no presente Acordo prejudica os direitos.", "Nada"),
    ("Contudo as partes acordaram.", "Contudo"),
    ("SUBLINHANDO a importância da cooperação,", "SUBLINHANDO"),
    ("Reconhecendo a necessidade de agir,", "Reconhecendo"),
    # legal concepts and instruments are public text
    ("nos termos do Direito do Mar aplicável", "Direito do Mar"),
    ("em violação do Princípio da Igualdade, decidiu", "Princípio da Igualdade"),
    ("ratificaram o Acordo de Paris ontem", "Acordo de Paris"),
    # public identifiers in every spelling of n.º, and Official Journal citations with their dates
    ("Regulamento (UE) n.º 2019/1234 do Conselho", "2019/1234"),
    ("nos termos da Decisão n.o 64/2018, as partes", "64/2018"),
    ("a Diretiva 2006/112/CE do Conselho", "2006/112/CE"),
    ("JO L 54 de 2.3.2018, p. 4.", "JO L 54 de 2.3.2018, p. 4"),
    ("publicado no JO C 12 de 5 de março de 2019.", "5 de março de 2019"),
    ("(JO L 1, 3.1.1994, pp. 3-36)", "3.1.1994"),
]


@pytest.mark.parametrize("text, visible", VISIBLE)
def test_public_text_stays_visible(anonymizer, text, visible):
    assert visible in _masked(anonymizer, [text])[0]


@pytest.mark.parametrize("text, name", [  # ... while names beside them are still found
    ("Durante a reunião, o Sr. Quaresma falou.", "Quaresma"),
    ("Fernando Pessoa Mendes assinou em Lisboa.", "Fernando Pessoa Mendes"),
    ("Armando Teixeira declarou aceitar.", "Armando Teixeira"),
    ("Enviado ao Sr. França no dia seguinte.", "França"),  # a title makes a country's name a surname
])
def test_names_beside_public_text_are_found(anonymizer, text, name):
    assert name not in _masked(anonymizer, [text])[0]


@pytest.mark.parametrize("text, date", [  # dates written in words (text2num reads the numbers)
    ("Aos vinte e dois dias do mês de março de dois mil e vinte e três, reuniu", "vinte e dois dias do mês de março de dois mil e vinte e três"),
    ("a escritura lavrada no dia um de Junho, em Braga", "um de Junho"),
    ("celebrado em trinta e um de dezembro de 2019 entre", "trinta e um de dezembro de 2019"),
    ("outorgado a primeiro de maio de mil novecentos e noventa e nove", "primeiro de maio de mil novecentos e noventa e nove"),
])
def test_dates_in_words(anonymizer, text, date):
    assert [(m.text, m.category) for m in anonymizer.recognize(text) if m.category == "DATE"] == [(date, "DATE")]


@pytest.mark.parametrize("text", [  # number words that are no dates
    "um de nós viu o mar e dez mil pessoas",
    "quarenta de março",  # no day 40
    "dois dos contratos de maio foram revistos",
])
def test_number_words_without_a_day_and_month_are_no_dates(anonymizer, text):
    assert [m.text for m in anonymizer.recognize(text) if m.category == "DATE"] == []


@pytest.mark.parametrize("texts, alias", [  # an alias the text defines is the entity's, everywhere in the document
    (["A TB pagou antes.", 'A Tintas Belmiro & Irmão, Lda. (doravante "TB") vendeu.'], "TB"),
    (["A Agência de Registos do Norte (ARN) decidiu.", "A ARN notificou a empresa."], "ARN"),
    (["Quitéria Sá (adiante designada por «Quitéria») declarou.", "A Quitéria aceitou."], "Quitéria"),
    # a name's own first word, however ordinary a word it is
    (["Farol Digital, Lda. («Farol») vende.", "A Farol entrega."], "Farol"),
    (["A Âncora Seguros, S.A. («Âncora») paga.", "A Âncora reembolsa."], "Âncora"),
    (["Ponte Verde Consultores, Lda. (“Ponte Verde”) assina.", "A Ponte Verde cobra."], "Ponte Verde"),
    # a name in Chinese characters after the romanized one
    (["O vendedor, Zhou Minghua (周明华), declarou.", "周明华 assinou."], "周明华"),
    (["A Jade River Trading Limited (翠河贸易有限公司) vendeu.", "A 翠河贸易有限公司 pagou."], "翠河贸易有限公司"),
])
def test_defined_aliases_share_the_entity_and_are_masked_everywhere(anonymizer, texts, alias):
    result = _document(anonymizer, texts)
    assert all(alias not in rep.text for _ms, rep in result)
    numbers = {(m.category, m.entity) for ms, _rep in result for m in ms}
    assert len(numbers) == 1, numbers  # one entity: the name and its alias share the number


@pytest.mark.parametrize("text, visible", [  # brackets that define no alias
    ("O Tribunal de Justiça (SP) decidiu. Em SP chove.", "Em SP chove"),  # a state, not the court's acronym
    ('A Quitéria Sá (a "Vendedora") e a Vendedora assinaram.', "e a Vendedora"),  # a defined role is a word
    ('A Ervas Finas SA (o "Contrato") e o Contrato.', "e o Contrato"),
])
def test_brackets_that_define_no_alias(anonymizer, text, visible):
    assert visible in _masked(anonymizer, [text])[0]


@pytest.mark.parametrize("texts, short", [  # a company named by a short form shares its number
    (["A Grupo RX Engenharia e Obras Ltda. celebrou.", "Depois, o Grupo RX pagou."], "Grupo RX"),
    (["A Tintas Belmiro & Irmão, Lda. vendeu.", "A Tintas Belmiro pagou."], "Tintas Belmiro"),
    (["Entre a Sol OK Mar, Lda. e o banco.", "A Sol OK Mar pagou."], "Sol OK Mar"),
])
def test_company_names_and_their_short_forms(anonymizer, texts, short):
    result = _document(anonymizer, texts)
    assert all(short not in rep.text for _ms, rep in result), [rep.text for _ms, rep in result]
    assert len({(m.category, m.entity) for ms, _rep in result for m in ms}) == 1


@pytest.mark.parametrize("text, visible", [  # EU legislation: act numbers in lists, act dates, periods
    ("Regulamentos Delegados (UE) n.o 1059/2010, (UE) n.o 1060/2010 e (UE) 2017/855 do Conselho", "1060/2010"),
    ("Regulamentos Delegados (UE) n.o 1059/2010, (UE) n.o 1060/2010 e (UE) 2017/855 do Conselho", "2017/855"),
    ("o Regulamento (CEE, Euratom, CECA) n.o 259/68 do Conselho", "259/68"),
    ("Regulamento (UE) 2017/1938 do Parlamento Europeu e do Conselho, de 25 de outubro de 2017, relativo",
     "25 de outubro de 2017"),
    ("de 18 de fevereiro de 2019", "18 de fevereiro de 2019"),  # a title's date line
    ("A Decisão n.o 5/2019 do Comité, de 3\xa0de\xa0maio de\xa02019, é revogada.", "3\xa0de\xa0maio de\xa02019"),
    ("durante o período 2015-2017 foram", "2015-2017"),
])
def test_eu_act_numbers_and_dates_are_public(anonymizer, text, visible):
    assert visible in _masked(anonymizer, [text])[0]


@pytest.mark.parametrize("text, date", [  # ... while other dates stay private
    ("O Sr. Quaresma nasceu em 25 de outubro de 1970.", "25 de outubro de 1970"),
    ("A Lei n.º 5/2000 foi aplicada. O contrato foi assinado de 3 de maio de 2001.", "3 de maio de 2001"),
    ("de 18 de fevereiro de 2019, o arrendatário pagou", "18 de fevereiro de 2019"),
])
def test_dates_outside_act_citations_are_masked(anonymizer, text, date):
    assert date not in _masked(anonymizer, [text])[0]


def test_no_break_spaces_read_as_spaces_and_originals_keep_them(anonymizer):
    text = "O Sr.\xa0Quitério\xa0Brás assinou em 3\xa0de maio de\xa02001."
    ms = anonymizer.recognize(text)
    assert {(m.category, m.text) for m in ms} == {("PERSON", "Quitério\xa0Brás"), ("DATE", "3\xa0de maio de\xa02001")}


@pytest.mark.parametrize("text, company", [  # a company's whole name, as registries write it
    ("A venda à Teixeira Irmãos – Comércio de Equipamentos, Unipessoal, Lda. foi feita.",
     "Teixeira Irmãos – Comércio de Equipamentos, Unipessoal, Lda."),
    ("Firma: SOL NASCENTE – MOBILIÁRIO E DECORAÇÃO, LDA.", "SOL NASCENTE – MOBILIÁRIO E DECORAÇÃO, LDA."),
    ("Fiscal Único: MOTA, PINTO & ASSOCIADOS – SROC, LDA. (n.º 287)", "MOTA, PINTO & ASSOCIADOS – SROC, LDA."),
    ("dirigida às empresas: Cartonagem do Vouga, S.A. e outras", "Cartonagem do Vouga, S.A."),
    ("denominado «Pastelaria Leão de Ouro», instalado no prédio", "Pastelaria Leão de Ouro"),
    ("a reparação na Oficina Auto Quaresma foi paga", "Oficina Auto Quaresma"),
])
def test_company_names_whole(anonymizer, text, company):
    ms = anonymizer.recognize(text)
    assert [(m.text, m.category) for m in ms if m.text == company] == [(company, "ORGANIZATION")], \
        [(m.text, m.category) for m in ms]


@pytest.mark.parametrize("text, code", [  # numbers people hold, in the layouts of Portuguese documents
    ("titular do cartão de cidadão n.º 19777560 0 VW8, válido até 2029", "19777560 0 VW8"),
    ("pelos cartões de cidadão n.os 13502465 7 XX3 e outros", "13502465 7 XX3"),
    ("com o número de beneficiário 0812 4471.", "0812 4471"),
    ("Conta de depósitos à ordem n.º 4471 0093 2200", "4471 0093 2200"),  # no phone inside a longer run
    ("taxa de justiça (DUC n.º 702 481 933 019 557) paga", "702 481 933 019 557"),
])
def test_personal_numbers_whole(anonymizer, text, code):
    ms = anonymizer.recognize(text)
    assert [(m.text, m.category) for m in ms if m.category == "NAMEID"] == [(code, "NAMEID")], \
        [(m.text, m.category) for m in ms]


@pytest.mark.parametrize("text, body", [  # numbered and nested bodies, whole
    ("O recurso subiu à 2.ª Circunscrição Judiciária Militar ontem.", "2.ª Circunscrição Judiciária Militar"),
    ("julgado pela 3ª CJM/SP em 2019", "3ª CJM/SP"),
    ("A SBDI-2 julgou o recurso.", "SBDI-2"),
    ("a Subseção II Especializada em Dissídios Individuais julgou", "Subseção II Especializada em Dissídios Individuais"),
    ("a Secretaria de Recursos do TCU informou", "Secretaria de Recursos do TCU"),
    ("o Depósito de Material do Exército recebeu", "Depósito de Material do Exército"),
    ("os Juizados de Violência Doméstica e Familiar contra a Mulher foram criados",
     "Juizados de Violência Doméstica e Familiar contra a Mulher"),
])
def test_numbered_and_nested_bodies(anonymizer, text, body):
    ms = anonymizer.recognize(text)
    assert [(m.text, m.category) for m in ms if m.text == body] == [(body, "ORGANIZATION")], \
        [(m.text, m.category) for m in ms]


@pytest.mark.parametrize("text, visible", [  # hyphen-numbered words that are no bodies
    ("durante a pandemia de COVID-19 as partes", "COVID-19"),
    ("segundo a norma ISO-9 aplicável", "ISO-9"),
    ("o anexo II-A do Acordo", "II-A"),
])
def test_hyphen_numbered_words_that_are_no_bodies(anonymizer, text, visible):
    assert visible in _masked(anonymizer, [text])[0]


@pytest.mark.parametrize("text, name, category", [  # a name in Chinese characters in Portuguese text
    ("A procuradora, 刘晓红, reside em Cantão.", "刘晓红", "PERSON"),
    ("celebrado com a 深圳蓝海科技有限公司, com sede em Shenzhen.", "深圳蓝海科技有限公司", "ORGANIZATION"),
    ("O Banco (澳門銀行) e o Sr. 何文, sócio.", "何文", "PERSON"),
])
def test_a_name_in_chinese_characters(anonymizer, text, name, category):
    assert (name, category) in [(m.text, m.category) for m in anonymizer.recognize_document([text])[0]]


def test_a_long_run_of_chinese_characters_without_a_tail_is_no_name(anonymizer):
    assert [m for m in anonymizer.recognize_document(["O lema «天下为公人人平等» consta da ata."])[0]
            if m.recognizer == "han_name"] == []
