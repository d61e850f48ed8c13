"""The English-side recognizer: dates, identifiers, addresses, companies and titled persons, and what it
leaves visible in EU legislation."""

from __future__ import annotations

import pytest
from paranon.align.english import EnglishRecognizer
from paranon.align.transfer import Transferrer
from paranon.anonymize.numbering import EntityNumbers
from paranon.corpora.model import Mention

from paranon.text import tokenize


@pytest.fixture(scope="module")
def rec():
    return EnglishRecognizer()


def _hits(rec, text):
    return [(text[h.start:h.end], h.category) for h in rec.find(text)]


@pytest.mark.parametrize("text, found, value", [
    ("Signed in Lisbon on 15 April 2024.", "15 April 2024", (15, 4, 2024)),
    ("Done this 22nd day of September 2023.", "22nd day of September 2023", (22, 9, 2023)),
    ("Effective as of March 3rd, 2021 onwards.", "March 3rd, 2021", (3, 3, 2021)),
    ("Paid on the 1st of Sept. 2020.", "1st of Sept. 2020", (1, 9, 2020)),
    ("DATED 30 JUNE 2019", "30 JUNE 2019", (30, 6, 2019)),
    ("Due on 15/04/2024.", "15/04/2024", (15, 4, 2024)),
    ("Due on 2024-04-15.", "2024-04-15", (15, 4, 2024)),
    # in words, as deeds write them (text2num reads the ordinal and the year)
    ("On the ninth day of October two thousand and twenty-four, at", "ninth day of October two thousand and "
     "twenty-four", (9, 10, 2024)),
    ("On this twenty-second day of March 2023, at", "twenty-second day of March 2023", (22, 3, 2023)),
    ("declared that on the third of June of this year", "third of June", (3, 6, None)),
])
def test_english_dates_in_their_common_layouts(rec, text, found, value):
    """(the words that lead to a date, "this", "the", are outside it, as on the Portuguese side: "aos [...]")"""
    hits = rec.find(text)
    assert [(text[h.start:h.end], h.value) for h in hits] == [(found, value)]


@pytest.mark.parametrize("text", ["You may 2 times apply.", "Article 12/2024 applies", "the march 5 km",
                                  "the first of all", "the second of the conditions", "a third of May's pay"])
def test_words_that_only_look_like_dates_are_not_dates(rec, text):
    assert [c for _, c in _hits(rec, text)] == []


@pytest.mark.parametrize("text, found, category", [
    ("Call +44 20 7946 0958 today", "+44 20 7946 0958", "NAMEID"),
    ("or on 020 7946 0958.", "020 7946 0958", "NAMEID"),
    ("to IBAN GB82 WEST 1234 5698 7654 32 by", "GB82 WEST 1234 5698 7654 32", "NAMEID"),
    ("write to ana.costa@example.org now", "ana.costa@example.org", "NAMEID"),
    ("with company number 01234567.", "01234567", "NAMEID"),
    ("Passport No. X1234567 issued", "X1234567", "NAMEID"),
    ("helpline 707 200 318, or", "707 200 318", "NAMEID"),           # a Portuguese number in English text
    ("legal person no. 513.316.639, with", "513.316.639", "NAMEID"),  # a NIF with a valid check digit
    ("citizen card no. 15263809 5 Y47, valid", "15263809 5 Y47", "NAMEID"),
])
def test_english_identifiers(rec, text, found, category):
    assert _hits(rec, text) == [(found, category)]


@pytest.mark.parametrize("text, found", [
    ("offices at Av. Eng. Duarte Pacheco, No. 26, 9th floor, 1070-110 Lisboa.",
     "Av. Eng. Duarte Pacheco, No. 26, 9th floor, 1070-110 Lisboa"),
    ("at 10 Downing Street, London SW1A 2AA.", "10 Downing Street, London SW1A 2AA"),
    ("Suite 200, 1 Main Street, New York, NY 10001", "Suite 200, 1 Main Street, New York, NY 10001"),
    ("Avenida da Liberdade, n.º 560, Edifício Start, sala 2.08, 4710-249 Braga",
     "Avenida da Liberdade, n.º 560, Edifício Start, sala 2.08, 4710-249 Braga"),
    # the town after the last numbered part belongs to the address (GUIDELINES: "through ... locality")
    ("at Avenida de Horta e Costa, n.º 122, 15.º andar E, Macau", "Avenida de Horta e Costa, n.º 122, 15.º andar E, Macau"),
])
def test_an_english_address_is_one_span(rec, text, found):
    assert _hits(rec, text) == [(found, "ADDRESS")]


@pytest.mark.parametrize("text", ["moved to the 3rd Floor last year", "on the 2nd floor of the Council building",
                                  "in Room 12 of the Berlaymont"])
def test_a_floor_or_room_alone_is_not_masked(rec, text):
    assert [h.rule for h in rec.find(text)] == ["en:address-level"]
    assert Transferrer(english=rec).transfer([], [], [], text, links=[]).mentions == []


@pytest.mark.parametrize("text, found", [
    ("signed by Smith & Jones Ltd yesterday", ["Smith & Jones Ltd"]),
    ("Borges – Costa Consulting LLP and Marés Pescas, Lda. agree", ["Borges – Costa Consulting LLP",
                                                                   "Marés Pescas, Lda."]),
    ("The Boring Company Inc. said", ["Boring Company Inc."]),
])
def test_a_company_name_with_its_legal_tail(rec, text, found):
    assert [t for t, c in _hits(rec, text) if c == "ORGANIZATION"] == found


@pytest.mark.parametrize("text, found", [
    # the title finds the name and stays visible, as the Portuguese side's persons are cut to the name
    ("Mr John Smith signed.", ["John Smith"]),
    ("as Dr. Ana Costa said", ["Ana Costa"]),
    ("a letter to Mrs Okonkwo-Lindqvist today", ["Okonkwo-Lindqvist"]),
    ("Mr President, Madam Speaker", []),          # a role noun after a title is no name
])
def test_a_titled_person(rec, text, found):
    assert [t for t, c in _hits(rec, text) if c == "PERSON"] == found


@pytest.mark.parametrize("text", [
    "Regulation (EU) No 216/2008 of the European Parliament and of the Council",
    "the Supreme Court of Liechtenstein and the United Kingdom",
    "Commission Implementing Regulation (EU) 2019/947 on the rules for unmanned aircraft",
])
def test_eu_legislation_stays_visible(rec, text):
    # (a body's English name, "Supreme Court of Liechtenstein", is a hit that only widens a mention already there)
    assert [h for h in rec.find(text) if h.rule != "en:body"] == []
    assert Transferrer(english=rec).transfer([], [], [], text, links=[]).mentions == []


@pytest.mark.parametrize("tgt, piece, whole", [
    ("After the trial, Loures Labour Court – Judge 2 upheld the action.", "Judge 2", "Loures Labour Court – Judge 2"),
    ("heard in the Braga District Court – Central Civil Court of Braga – Judge 3, or", "Civil Court of Braga",
     "Braga District Court – Central Civil Court of Braga – Judge 3"),
    ("BAD – Vila Real Business Centre, Dalila Morais, Manager", "Vila Real Business Centre",
     "BAD – Vila Real Business Centre"),
])
def test_a_bodys_english_name_widens_the_mention_inside_it(rec, tgt, piece, whole):
    s = tgt.index(piece)
    found = [Mention(s, s + len(piece), "ORGANIZATION", piece, "test", "test", entity=1)]
    res = Transferrer(english=rec).transfer(found, [], [], tgt, links=[])
    assert [(m.text, m.entity) for m in res.mentions] == [(whole, 1)]


def test_a_hit_takes_its_source_entitys_number_or_a_new_one(rec):
    """The English date matches the Portuguese one by value; a company only in English is target-only."""
    src = Mention(10, 33, "DATE", "15 de abril de 2024", "date", "date:written", entity=4)
    tgt = "Signed on 15 April 2024 with Smith & Jones Ltd."
    res = Transferrer(english=rec).transfer([src], [], [], tgt, links=[], numbers=EntityNumbers(7))
    got = [(m.text, m.entity, m.recognizer) for m in res.mentions]
    assert ("15 April 2024", 4, "transfer:pattern") in got or ("15 April 2024", 4, "transfer:english") in got
    assert ("Smith & Jones Ltd.", 7, "transfer:target_only") in got


def test_a_hit_widens_the_entitys_pieces_into_one_span(rec):
    """The transfer left an address in pieces; the English address is one span with the entity's number."""
    tgt = "Av. Eng. Duarte Pacheco, No. 26, 9th floor, 1070-110 Lisboa"
    src = Mention(0, 20, "ADDRESS", "Av. Eng. Duarte Pacheco", "address", "address:head", entity=2)
    res = Transferrer(english=rec).transfer([src], tokenize(src.text), [], tgt, links=[])
    assert [(m.text, m.entity) for m in res.mentions] == [(tgt, 2)]


@pytest.mark.parametrize("text, found", [
    ("the number 513.316.630 is", []),            # nine digits, no valid check digit, no trigger
    ("in 2019/947 and 216/2008", []),
    ("costs EUR 123 456 789.00", []),
])
def test_numbers_that_are_no_identifiers_stay_visible(rec, text, found):
    assert [t for t, c in _hits(rec, text) if c == "NAMEID"] == found


@pytest.mark.parametrize("tgt, pieces, whole", [
    ("against LOGIVIA – TRANSPORTES E LOGÍSTICA, S.A., with", ["LOGIVIA", "LOGÍSTICA, S.A."],
     "LOGIVIA – TRANSPORTES E LOGÍSTICA, S.A."),
    ("signed by Smith – Jones & Partners LLP today", ["Smith", "Partners LLP"], "Smith – Jones & Partners LLP"),
    ("Business name: SOL NASCENTE – MOBILIÁRIO E DECORAÇÃO, LDA.", ["SOL NASCENTE", "DECORAÇÃO, LDA."],
     "SOL NASCENTE – MOBILIÁRIO E DECORAÇÃO, LDA."),
    ("a complaint from Bananeira do Funchal – Comércio de Frutas, Lda. concerning", ["Bananeira", "Frutas, Lda."],
     "Bananeira do Funchal – Comércio de Frutas, Lda."),
])
def test_a_company_name_in_pieces_becomes_one_span(rec, tgt, pieces, whole):
    """Two source entities the recognizers split one company into, words showing between them: the English
    name is one mask (the first piece's number), so those words no longer show."""
    src = [Mention(0, len(p), "ORGANIZATION", p, "test", "test", entity=k + 1) for k, p in enumerate(pieces)]
    res = Transferrer(english=rec).transfer(src, [], [], tgt, links=[])
    assert [m.text for m in res.mentions] == [whole] and res.mentions[0].entity == 1


@pytest.mark.parametrize("tgt, acronym, long_form", [
    ("approved by the Portuguese Institute for Quality (IPQ).", "IPQ", "Portuguese Institute for Quality"),
    ("supervised by the Insurance and Pension Funds Supervisory Authority (ASF), to which",
     "ASF", "Insurance and Pension Funds Supervisory Authority"),
    ("paid by the Business Development Institute of the Autonomous Region of Madeira (IDE-RAM) on",
     "IDE-RAM", "Business Development Institute of the Autonomous Region of Madeira"),
])
def test_a_long_form_before_its_bracketed_acronym_shares_its_number(tgt, acronym, long_form):
    src = [Mention(0, 3, "ORGANIZATION", acronym, "test", "test", entity=5),
           Mention(10, 40, "ORGANIZATION", "Instituto Português (long form)", "test", "test", entity=5)]
    res = Transferrer().transfer(src, [], [], tgt, links=[])
    assert [(m.text, m.entity) for m in res.mentions] == [(long_form, 5), (acronym, 5)]


@pytest.mark.parametrize("tgt, pieces", [
    ("owned by TAR Holdings B.V. since", ["TAR", "Holdings B.V."]),
    ("signed by Borges – Costa Consulting LLP today", ["Borges", "Costa Consulting LLP"]),
    ("by Alfa & Omega Ltd on", ["Alfa", "Omega Ltd"]),
])
def test_two_entities_with_nothing_showing_between_keep_their_numbers(rec, tgt, pieces):
    src = [Mention(0, len(p), "ORGANIZATION", p, "test", "test", entity=k + 1) for k, p in enumerate(pieces)]
    res = Transferrer(english=rec).transfer(src, [], [], tgt, links=[])
    assert [(m.text, m.entity) for m in res.mentions] == [(p, k + 1) for k, p in enumerate(pieces)]


@pytest.mark.parametrize("tgt", [
    "Council Regulation (EEC) No 3922/91",          # the acronym's letters are not the words' initials
    "in the Federation (IFALPA) and",
    "the Regulation (EEC) applies",
])
def test_a_bracketed_acronym_does_not_take_a_chain_it_cannot_stand_for(tgt):
    acr = tgt[tgt.index("(") + 1:tgt.index(")")]
    src = [Mention(0, 3, "ORGANIZATION", acr, "test", "test", entity=5),
           Mention(10, 40, "ORGANIZATION", "Comunidade Económica Europeia", "test", "test", entity=5)]
    res = Transferrer().transfer(src, [], [], tgt, links=[])
    assert [m.text for m in res.mentions] == [acr]


@pytest.mark.parametrize("src_text, acr, tgt, link_to, masked", [
    ("nos termos do Acordo EEE", "EEE", "under the EEA Agreement", ["EEA", "Agreement"], "EEA"),
    ("o Comité da OMC reuniu", "OMC", "the WTO Committee met", ["WTO", "Committee"], "WTO"),
    ("segundo a ONU Genebra", "ONU", "according to the UN Geneva office", ["UN", "Geneva"], "UN"),
])
def test_an_aligned_acronym_covers_its_acronym_not_the_words_beside_it(src_text, acr, tgt, link_to, masked):
    """The acronym differs across the languages (string match fails); alignment points at the acronym and the
    word beside it: the mask covers the acronym only."""
    s = src_text.index(acr)
    anon = src_text[:s] + "<NAME1_ORGANIZATION>" + src_text[s + len(acr):]
    placeholder = Mention(s, s + 20, "ORGANIZATION", "<NAME1_ORGANIZATION>", "test", "", entity=1)
    original = Mention(s, s + len(acr), "ORGANIZATION", acr, "test", "fallback:all-upper", entity=1)
    src_toks, tgt_toks = tokenize(anon), tokenize(tgt)
    i = next(k for k, (a, b) in enumerate(src_toks) if a == s)
    words = [tgt[a:b] for a, b in tgt_toks]
    links = [(i, words.index(w)) for w in link_to]
    res = Transferrer().transfer([original], src_toks, [placeholder], tgt, links=links)
    assert [m.text for m in res.mentions] == [masked]


@pytest.mark.parametrize("tgt, pieces, whole", [
    ("resident at 14 Elm Grove, Headington, Oxford OX3 7LS;", [("Elm Grove", "PERSON"), ("Headington", "PERSON"),
     ("OX3 7LS", "ADDRESS")], "14 Elm Grove, Headington, Oxford OX3 7LS"),
    ("offices on the 3rd Floor, 10 King Street, London", [("3rd Floor", "PERSON"), ("King Street", "ADDRESS")],
     "3rd Floor, 10 King Street, London"),
    ("at Av. Eng. Duarte Pacheco, No. 26, 9th floor, 1070-110 Lisboa.", [("Duarte Pacheco", "ADDRESS"),
     ("Pacheco, No", "ADDRESS")], "Av. Eng. Duarte Pacheco, No. 26, 9th floor, 1070-110 Lisboa"),
])
def test_an_english_address_takes_in_the_pieces_read_as_names(rec, tgt, pieces, whole):
    """Pieces the transfer took for persons inside what reads as one English address become that address."""
    found = []
    for k, (text, cat) in enumerate(pieces):
        found.append(Mention(0, len(text), cat, text, "test", "test", entity=k + 1))
    res = Transferrer(english=rec).transfer(found, [], [], tgt, links=[])
    addr = [m for m in res.mentions if m.category == "ADDRESS"]
    assert [m.text for m in res.mentions] == [whole] and addr and addr[0].entity == next(
        k + 1 for k, (_, c) in enumerate(pieces) if c == "ADDRESS")


@pytest.mark.parametrize("tgt, pieces, whole", [
    ("Business name: SOL NASCENTE – MOBILIÁRIO E DECORAÇÃO, LDA.", [("SOL NASCENTE", "PERSON"),
     ("DECORAÇÃO, LDA.", "ORGANIZATION")], "SOL NASCENTE – MOBILIÁRIO E DECORAÇÃO, LDA."),
    ("owned by Rita Sousa – Consultoria e Gestão, Lda. since", [("Rita Sousa", "PERSON"),
     ("Gestão, Lda.", "ORGANIZATION")], "Rita Sousa – Consultoria e Gestão, Lda."),
    ("a complaint from Bananeira do Funchal – Comércio de Frutas, Lda. concerning", [("Bananeira", "PERSON"),
     ("Frutas, Lda.", "ORGANIZATION")], "Bananeira do Funchal – Comércio de Frutas, Lda."),
])
def test_a_company_takes_in_a_first_piece_read_as_a_person(rec, tgt, pieces, whole):
    src = [Mention(0, len(t), c, t, "test", "test", entity=k + 1) for k, (t, c) in enumerate(pieces)]
    res = Transferrer(english=rec).transfer(src, [], [], tgt, links=[])
    assert [(m.text, m.category, m.entity) for m in res.mentions] == [(whole, "ORGANIZATION", 2)]


@pytest.mark.parametrize("tgt, pieces", [
    ("between Filipa Nogueira and Brightwell Logistics, Ltd, hereinafter", [("Filipa Nogueira", "PERSON"),
     ("Brightwell Logistics, Ltd", "ORGANIZATION")]),
    ("signed by Matilde Calado and Kessler Maschinenbau, GmbH", [("Matilde Calado", "PERSON"),
     ("Kessler Maschinenbau, GmbH", "ORGANIZATION")]),
    ("by Hortogal, Lda. and Marés Pescas, Lda.", [("Hortogal, Lda.", "ORGANIZATION"),
     ("Marés Pescas, Lda.", "ORGANIZATION")]),
])
def test_two_names_joined_by_and_stay_two(rec, tgt, pieces):
    src = [Mention(0, len(t), c, t, "test", "test", entity=k + 1) for k, (t, c) in enumerate(pieces)]
    res = Transferrer(english=rec).transfer(src, [], [], tgt, links=[])
    assert [(m.text, m.entity) for m in res.mentions] == [(t, k + 1) for k, (t, _) in enumerate(pieces)]


@pytest.mark.parametrize("src_dates, tgt, masked", [
    # the source side masks no date: it shows the date as public text (an act's date), so does the English side
    ([], "Regulation adopted on 27 April 2016 by the Council.", False),
    ([], "Done at Brussels, 3 March 2019.", False),
    # the source side masks a date it could not read (no value to match): the English one is masked, recall first
    ([Mention(0, 20, "DATE", "no dia seguinte ao X", "date", "date:written", entity=2)],
     "Signed on 9 October 2024 in Porto.", True),
    ([Mention(0, 14, "DATE", "data do acordo", "date", "date:written", entity=3)],
     "Paid on the 2nd day of May 2023.", True),
])
def test_an_english_date_follows_the_source_sides_decision(rec, src_dates, tgt, masked):
    res = Transferrer(english=rec).transfer(src_dates, [], [], tgt, links=[], numbers=EntityNumbers(9))
    assert any(m.category == "DATE" for m in res.mentions) is masked


@pytest.mark.parametrize("tgt, acronym, long_form", [
    # a Portuguese acronym after the English name: the initials do not fit, the source's long form went uncarried
    ("or refer it to the Insurance Information, Mediation and Arbitration Centre (CIMPAS).", "CIMPAS",
     "Insurance Information, Mediation and Arbitration Centre"),
    ("certified by the Directorate-General for Food and Veterinary Affairs (DGAV) before", "DGAV",
     "Directorate-General for Food and Veterinary Affairs"),
    ("heard by the Consumer Dispute Arbitration Centre of the Algarve (CACCA) on", "CACCA",
     "Consumer Dispute Arbitration Centre of the Algarve"),
])
def test_a_translated_long_form_before_its_acronym_is_the_source_long_form(tgt, acronym, long_form):
    """The source names the entity by its long form and its acronym (one number); no step carried the long form:
    the capitalized words before the bracketed acronym translate it, and take the number."""
    source = {"CIMPAS": "Centro de Informação, Mediação e Arbitragem de Seguros",
              "DGAV": "Direção-Geral de Alimentação e Veterinária",
              "CACCA": "Centro de Arbitragem de Conflitos de Consumo do Algarve"}[acronym]
    src = [Mention(0, len(source), "ORGANIZATION", source, "test", "test", entity=5),
           Mention(40, 40 + len(acronym), "ORGANIZATION", acronym, "test", "test", entity=5)]
    res = Transferrer().transfer(src, [], [], tgt, links=[])
    assert [(m.text, m.entity) for m in res.mentions] == [(long_form, 5), (acronym, 5)]
    assert not res.untransferred


@pytest.mark.parametrize("tgt", [
    "or refer it to the Insurance Ombudsman (CIMPAS).",      # the source names no long form: nothing to carry
    "as the Centre itself (CIMPAS) states",                 # one word: a head noun, not a name
    "or refer it to the arbitration centre (CIMPAS).",      # lower case: no name
    "under Council Regulation (CIMPAS) No 1/2003",           # words that translate none of the source's
])
def test_no_long_form_is_taken_where_the_source_long_form_was_carried_or_none_shows(tgt):
    carried = "Ombudsman" not in tgt
    src = [Mention(0, 55, "ORGANIZATION", "Centro de Informação, Mediação e Arbitragem de Seguros", "test", "test",
                   entity=5), Mention(60, 66, "ORGANIZATION", "CIMPAS", "test", "test", entity=5)]
    if not carried:
        src = src[1:]
    res = Transferrer().transfer(src, [], [], tgt, links=[])
    assert [m.text for m in res.mentions] == ["CIMPAS"]


@pytest.mark.parametrize("src_text, tgt, left, right, masked", [
    # the placeholder linked to a word another step took; its neighbours' links bracket the name
    ("está inscrita no <P>, tomo 12", "is entered in the Madrid Commercial Register, volume 12", "no", "tomo",
     "Madrid Commercial Register"),
    ("recebeu da <P> em 2021", "received from the Porto Dental Clinic in 2021", "da", "em", "Porto Dental Clinic"),
    ("conforme a <P>, que", "according to Hartwell & Bright Partners, which", "a", "que", "Hartwell & Bright Partners"),
])
def test_a_name_whose_links_are_taken_is_the_capitalized_run_between_its_neighbours(src_text, tgt, left, right,
                                                                                    masked):
    s = src_text.index("<P>")
    anon = src_text[:s] + "<NAME1_ORGANIZATION>" + src_text[s + 3:]
    placeholder = Mention(s, s + 20, "ORGANIZATION", "<NAME1_ORGANIZATION>", "test", "", entity=1)
    original = Mention(s, s + 10, "ORGANIZATION", "Nome Próprio", "test", "test", entity=1)
    src_toks, tgt_toks = tokenize(anon), tokenize(tgt)
    sw, tw = [anon[a:b] for a, b in src_toks], [tgt[a:b] for a, b in tgt_toks]
    links = [(sw.index(left), tw.index({"no": "in", "da": "from", "a": "to"}[left])),
             (sw.index(right), tw.index({"tomo": "volume", "em": "in", "que": "which"}[right]))]
    res = Transferrer().transfer([original], src_toks, [placeholder], tgt, links=links)
    assert [m.text for m in res.mentions] == [masked]


@pytest.mark.parametrize("tgt", [
    "is entered in the register of companies, volume 12",   # no capitalized word between the neighbours
    "is entered in the Register of the Madrid Chamber of Commerce and Industry, volume 12",  # too long a run
    "is entered in Madrid and in the Register, volume 12",  # a lower-case word inside the run
])
def test_no_name_is_taken_between_neighbours_that_hold_no_clean_capitalized_run(tgt):
    anon = "está inscrita no <NAME1_ORGANIZATION>, tomo 12"
    s = anon.index("<")
    placeholder = Mention(s, s + 20, "ORGANIZATION", "<NAME1_ORGANIZATION>", "test", "", entity=1)
    original = Mention(s, s + 10, "ORGANIZATION", "Nome Próprio", "test", "test", entity=1)
    src_toks, tgt_toks = tokenize(anon), tokenize(tgt)
    sw, tw = [anon[a:b] for a, b in src_toks], [tgt[a:b] for a, b in tgt_toks]
    links = [(sw.index("no"), tw.index("in")), (sw.index("tomo"), tw.index("volume"))]
    res = Transferrer().transfer([original], src_toks, [placeholder], tgt, links=links)
    assert res.mentions == []


@pytest.mark.parametrize("tgt, aligned, date", [
    # an aligned date that took the words before it ("aos" -> "On the"): the English date's own span
    ("On the ninth day of October two thousand and twenty-four, before me", "On the ninth day of October",
     "ninth day of October two thousand and twenty-four"),
    ("It was signed on this 3rd day of July 2025 in Porto", "on this 3rd day of July", "3rd day of July 2025"),
    # (a year in words ends at its last number word: "... twenty-six that")
    ("declared on the eleventh of March two thousand and twenty-six that", "the eleventh of March",
     "eleventh of March two thousand and twenty-six"),
])
def test_a_widened_date_leaves_the_words_before_it_visible(rec, tgt, aligned, date):
    anon = "aos <NAME1_DATE> x"
    placeholder = Mention(4, 16, "DATE", "<NAME1_DATE>", "test", "", entity=1)
    original = Mention(4, 16, "DATE", "em data incerta", "test", "test", entity=1)
    src_toks, tgt_toks = tokenize(anon), tokenize(tgt)
    a = tgt.index(aligned)
    links = [(1, j) for j, (s, e) in enumerate(tgt_toks) if a <= s and e <= a + len(aligned)]
    res = Transferrer(english=rec).transfer([original], src_toks, [placeholder], tgt, links=links)
    assert [m.text for m in res.mentions] == [date]


@pytest.mark.parametrize("tgt, source_value, whole", [
    # the source's span left the identifier's first letter out; the English identifier holds the source's value
    ("holder of residence permit no. A0K2F7791, tax no. 5", "0K2F7791", "A0K2F7791"),
    ("passport no. X48213907 issued in Porto", "48213907", "X48213907"),
    ("citizen card no. 13728450ZZ4, valid", "13728450", "13728450ZZ4"),
])
def test_an_english_identifier_holding_a_source_value_takes_its_number(rec, tgt, source_value, whole):
    src = [Mention(0, len(source_value), "NAMEID", source_value, "test", "test", entity=8)]
    res = Transferrer(english=rec).transfer(src, [], [], tgt, links=[], numbers=EntityNumbers(20))
    assert [(m.text, m.entity) for m in res.mentions if m.category == "NAMEID"] == [(whole, 8)]


def test_an_english_identifier_holding_no_source_value_is_a_new_entity(rec):
    src = [Mention(0, 8, "NAMEID", "55501234", "test", "test", entity=8)]
    res = Transferrer(english=rec).transfer(src, [], [], "passport no. X48213907 issued", links=[],
                                            numbers=EntityNumbers(20))
    assert [m.entity for m in res.mentions if m.text == "X48213907"] == [20]


@pytest.mark.parametrize("text, found", [
    # a document's letters between its trigger and its number are no identifier; the number is
    ("holder of identity card RG no. 12.345.678-9, registered", ["12.345.678-9"]),
    ("holder of passport PT no. X1234567 issued", ["X1234567"]),
    ("with tax number NIF: 123456789 and", ["123456789"]),
])
def test_an_identifier_has_digits_of_its_own(rec, text, found):
    assert [t for t, c in _hits(rec, text) if c == "NAMEID"] == found


@pytest.mark.parametrize("tgt, value, address", [
    # an identifier right before the address that the address's pattern reads as a house number: each keeps its own
    ("The Enforcement Agent, card no. 6219, Rua Júlio Dinis, 242, 4050-318 Porto", "6219",
     "Rua Júlio Dinis, 242, 4050-318 Porto"),
    ("Member no. 815, Rua do Almada, 12, 4050-036 Porto", "815", "Rua do Almada, 12, 4050-036 Porto"),
    ("licence no. 4410, Avenida da Boavista, 1200, 4100-113 Porto", "4410", "Avenida da Boavista, 1200, 4100-113 Porto"),
])
def test_an_english_address_never_swallows_an_identifier(rec, tgt, value, address):
    src = [Mention(0, len(value), "NAMEID", value, "test", "test", entity=31),
           Mention(0, len(address), "ADDRESS", address, "test", "test", entity=32)]
    res = Transferrer(english=rec).transfer(src, [], [], tgt, links=[])
    assert [(m.text, m.entity) for m in res.mentions] == [(value, 31), (address, 32)]


@pytest.mark.parametrize("text, found", [
    # a phone's extension stays visible, as on the Portuguese side ("extensão 2214"): the number only
    ("contact me on 225 071 930, extension 2214, or by fax", "225 071 930"),
    ("Call +44 20 7946 0958 ext. 12 today", "+44 20 7946 0958"),
    ("Call +44 20 7946 0958 x 345.", "+44 20 7946 0958"),
])
def test_a_phone_number_without_its_extension(rec, text, found):
    assert [t for t, c in _hits(rec, text) if c == "NAMEID"] == [found]
