"""The Portuguese recognizers, as a table of examples: what must be hidden, and what must stay."""

from __future__ import annotations

import random

import pytest
from paranon.anonymize.chains import ChainRules
from paranon.anonymize.check_digits import iban_valid, nib_valid, nif_valid
from paranon.anonymize.engine import load_rules
from paranon.anonymize.numbering import cluster_names, name_tokens, overlap_distance
from paranon.anonymize.operators import Operators, substitute
from paranon.corpora.model import Mention

PARTICLES = frozenset(ChainRules(load_rules("pt")).particles)  # the language's person.particles, folded

POSITIVE = [  # (text, the string that must be found, category)
    ("O Sr. Pedro Pérez Rodríguez assinou.", "Pedro Pérez Rodríguez", "PERSON"),
    ("PÉREZ RODRÍGUEZ, Pedro declarou aceitar.", "PÉREZ RODRÍGUEZ, Pedro", "PERSON"),
    ("A advogada Maria Fernanda Gomes compareceu.", "Maria Fernanda Gomes", "PERSON"),
    ("Enviada ao cuidado da Sra. Calado.", "Calado", "PERSON"),
    ("Entre a Construções Ferreira & Filhos, Lda. e o banco", "Construções Ferreira & Filhos, Lda.", "ORGANIZATION"),
    ("O Ministério das Finanças decidiu.", "Ministério das Finanças", "ORGANIZATION"),
    ("Reside na Rua Júlio Dinis, n.º 2, 3.º Esq., 4050-322 Porto, desde 2001.", "Rua Júlio Dinis, n.º 2, 3.º Esq., 4050-322 Porto", "ADDRESS"),
    ("Escritório em 10a Belmont Street, London NW1 8HH.", "10a Belmont Street, London NW1 8HH", "ADDRESS"),
    ("Sede em Keizersgracht 123, 1015 CJ Amsterdam.", "Keizersgracht 123, 1015 CJ Amsterdam", "ADDRESS"),
    ("contribuinte n.º 123456789, residente", "123456789", "NAMEID"),
    ("IBAN PT50 0002 0123 1234 5678 9015 4.", "PT50 0002 0123 1234 5678 9015 4", "NAMEID"),
    ("telefone +351 22 345 67 89 ou", "+351 22 345 67 89", "NAMEID"),
    ("e-mail ana.sousa@exemplo.pt hoje", "ana.sousa@exemplo.pt", "NAMEID"),
    ("passaporte n.º PX4821-77 válido", "PX4821-77", "NAMEID"),
    ("assinado em 16 de Novembro de 1999 no Porto", "16 de Novembro de 1999", "DATE"),
    ("assinado em 16/11/1999 no Porto", "16/11/1999", "DATE"),
    ("em 1999-11-16.", "1999-11-16", "DATE"),
    ("em 16 de novembro de 1999.", "16 de novembro de 1999", "DATE"),
    # court decisions: named bodies, also inside longer capitalized runs
    ("A lei foi aprovada pela Assembleia Legislativa do Estado em 2015.", "Assembleia Legislativa do Estado",
     "ORGANIZATION"),
    ("Compete à Comissão de Constituição e Justiça examinar o projeto.", "Comissão de Constituição e Justiça",
     "ORGANIZATION"),
    ("a competência da União, Estados, Distrito Federal e Municípios", "Distrito Federal", "ORGANIZATION"),
    ("Acordam os Senhores Desembargadores do CONSELHO ESPECIAL do Tribunal", "CONSELHO ESPECIAL do Tribunal",
     "ORGANIZATION"),
    ("Acordam os Ministros do Supremo Tribunal Federal, em sessão", "Supremo Tribunal Federal", "ORGANIZATION"),
    ("EMENTA: TRIBUNAL DE JUSTIÇA DO DISTRITO FEDERAL E TERRITÓRIOS", "TRIBUNAL DE JUSTIÇA DO DISTRITO FEDERAL E "
     "TERRITÓRIOS", "ORGANIZATION"),
    ("Poder Judiciário da União TRIBUNAL DE JUSTIÇA DO DISTRITO FEDERAL", "TRIBUNAL DE JUSTIÇA DO DISTRITO FEDERAL",
     "ORGANIZATION"),
    ("julgado pela 2ª Auditoria da 11ª CJM, em Brasília", "2ª Auditoria da 11ª CJM", "ORGANIZATION"),
    ("o Tribunal de Justiça do Distrito Federal e dos Territórios decidiu",
     "Tribunal de Justiça do Distrito Federal e dos Territórios", "ORGANIZATION"),
    ("convênio com o CREA/DF e o CAU/DF", "CREA/DF", "ORGANIZATION"),
    # judges' names after abbreviated titles, ordinary words and news-frequent names included
    ("Des.: WALDIR LEÔNCIO LOPES JÚNIOR.", "WALDIR LEÔNCIO LOPES JÚNIOR", "PERSON"),
    ("DES. FORTUNA GRION (RELATOR)", "FORTUNA GRION", "PERSON"),
    ("Voto - MIN. RICARDO LEWANDOWSKI 16/03/2018 PLENÁRIO", "RICARDO LEWANDOWSKI", "PERSON"),
    ("Ministros Ricardo Lewandowski, Dias Toffoli, Luiz Fux e Rosa Weber.", "Luiz Fux", "PERSON"),
    ("Ministros Ricardo Lewandowski, Dias Toffoli, Luiz Fux e Rosa Weber.", "Dias Toffoli", "PERSON"),
    ("MARTA SEQUEIRA LOBATO e Rui Bettencourt reuniram-se.", "MARTA SEQUEIRA LOBATO", "PERSON"),
    # a body inside a letterhead run; short acronyms that a word list also knows as words
    ("Justiça Militar da União Superior Tribunal Militar Gabinete", "Superior Tribunal Militar Gabinete",
     "ORGANIZATION"),
    ("por natureza autárquica, o CREA e o CAU têm suas atividades", "CREA", "ORGANIZATION"),
    # a law's issuer after its number is an organisation; a law's noun inside a body's name is no citation
    ("na Lei 4041/2007 do TCDF, juntando ementa", "TCDF", "ORGANIZATION"),
    ("pela Comissão de Constituição e Justiça da Câmara", "Comissão de Constituição e Justiça da Câmara",
     "ORGANIZATION"),
    ("O Dr. Pedro Santos citou a Lei do Sr. João Pereira.", "João Pereira", "PERSON"),

    # numbered organs, with nothing after the head; single-word bodies; the Union as a party
    ("julgado pela 7ª Turma em sessão", "7ª Turma", "ORGANIZATION"),
    ("Ministro Herman Benjamin, Segunda Turma, DJe 31.8.2009", "Segunda Turma", "ORGANIZATION"),
    ("o recurso foi distribuído à 2.ª Secção Cível", "2.ª Secção Cível", "ORGANIZATION"),
    ("o Comando da Aeronáutica informou", "Comando da Aeronáutica", "ORGANIZATION"),
    ("Cumpre ao Advogado-Geral da União defender a norma", "União", "ORGANIZATION"),
    ("conforme decidiu o TCU no acórdão", "TCU", "ORGANIZATION"),
    ("do que argumenta a Procuradoria-Geral, a lei", "Procuradoria-Geral", "ORGANIZATION"),
]

NEGATIVE = [  # (text, a string that must stay visible)
    ("O BANCO pode debitar a CONTA descrita no ANEXO.", "CONTA"),
    ("O BANCO pode debitar a CONTA descrita no ANEXO.", "ANEXO"),
    ("Nos termos do Decreto-Lei n.º 487/99, de 16 de Novembro.", "487/99"),
    ("O valor é de 1.250.000,00 EUR.", "1.250.000,00"),
    ("A União Europeia e a Comissão Europeia acordam.", "União Europeia"),
    ("A reunião teve lugar em Lisboa.", "Lisboa"),
    ("O Sr. Pérez, com o NIF 123456789, assinou.", "NIF"),
    ("Conforme o Artigo 5.º do CONTRATO.", "CONTRATO"),
    # headings in capitals and titled concepts made of ordinary words; court-record abbreviations
    ("NEGO PROVIMENTO AO RECURSO DE APELAÇÃO.", "PROVIMENTO AO RECURSO DE APELAÇÃO"),
    ("EXECUÇÃO REALIZADA APÓS O DECURSO DO PRAZO PRESCRICIONAL.", "PRAZO PRESCRICIONAL"),
    ("O projeto foi remetido ao Chefe do Poder Executivo para sanção.", "Chefe do Poder Executivo"),
    ("Exige-se o Certificado de Regularidade Previdenciária do ente.", "Certificado de Regularidade Previdenciária"),
    ("AGTE. : o recorrente", "AGTE"),
    ("O Conselho de Administração aprovou as contas.", "Conselho de Administração"),
    ("REDISCUSSÃO DA MATÉRIA. IMPOSSIBILIDADE.", "REDISCUSSÃO DA MATÉRIA"),
    ("VOTO-VISTA O Senhor Desembargador", "VOTO-VISTA"),
    # citations of laws and case law are public: the code, the law's title, the court of a precedent
    ("nos termos do art. 240, § 2º, do CPC e da LODF", "CPC"),
    ("nos termos do art. 240, § 2º, do CPC e da LODF", "LODF"),
    ("artigo 52, parágrafo único, do RISTF", "RISTF"),
    ("Ocorre que a Lei Orgânica do Distrito Federal estabeleceu", "Distrito Federal"),
    ("inciso XXI do art. 54 da Constituição do Estado do Paraná", "Estado do Paraná"),
    ("a inconstitucionalidade da Portaria MPS nº 204/2008", "MPS"),
    ("Resolução-TSE n° 23.549", "TSE"),
    ("a Súmula nº 503 do colendo Superior Tribunal de Justiça", "Superior Tribunal de Justiça"),
    ("o princípio está na Carta Magna", "Carta Magna"),
    ("e ACO 1.062/MG (31/08/2009)", "ACO"),
    # the Distrito Federal after a role or an organ of it is the territory; a place of several words in a run
    ("O Governador do Distrito Federal sancionou a lei", "Distrito Federal"),
    ("a Administração Pública do Distrito Federal, direta", "Distrito Federal"),
    ("do Certificado de Regularidade Previdenciária do Estado de Mato Grosso, conforme", "Certificado de "
     "Regularidade Previdenciária"),
    # headings typed letter by letter; hyphenated role words
    ("A C Ó R D Ã O Vistos e relatados", "A C Ó R D Ã O Vistos"),
    ("designado pelo Juiz-Auditor substituto", "Juiz-Auditor"),
    ("a Subprocuradora-Geral da República opinou", "Subprocuradora-Geral"),
]

STILL_NAMES = [  # capitalized runs of frequent words that are names all the same
    ("Compareceu o réu COSTA SILVA PEREIRA, residente", "COSTA SILVA PEREIRA"),
    ("e depois a testemunha Rosa Campos Leite declarou", "Rosa Campos Leite"),
    ("o voto do Ministro Tarcísio Vieira de Carvalho Neto, relator", "Tarcísio Vieira de Carvalho Neto"),
    ("nos termos do voto de Tarcísio Vieira de Carvalho Neto, relator", "Tarcísio Vieira de Carvalho Neto"),
    ("o contrato foi assinado por Moura ontem", "Moura"),   # a surname that is also a town
    ("o contrato foi assinado por Moura e Abrantes ontem", "Moura e Abrantes"),
]


CITED_PARTIES = [  # a citation that names a private party shields nothing of it
    ("nos termos do artigo 3.º da Portaria do Banco Espírito Santo, S.A.", "Banco Espírito Santo, S.A."),
    ("o Regulamento Interno da Associação dos Amigos do Porto decidiu", "Associação dos Amigos do Porto"),
    ("nos termos do artigo 5.º do Estatuto da Fundação Calouste Gulbenkian", "Fundação Calouste Gulbenkian"),
    ("O Dr. Pedro Santos citou a Lei do Sr. João Pereira.", "João Pereira"),
]


@pytest.mark.parametrize(("text", "name"), STILL_NAMES + CITED_PARTIES)
def test_names_made_of_frequent_words_are_still_found(anonymizer, text, name):
    found = anonymizer.recognize_document([text])[0]
    start = text.index(name)
    covered = {k for m in found for k in range(m.start, m.end)}
    assert all(k in covered for k in range(start, start + len(name)) if text[k] != " "), found


@pytest.mark.parametrize(("text", "entity", "category"), POSITIVE)
def test_recognizes(anonymizer, text, entity, category):
    found = [(m.text, m.category) for m in anonymizer.recognize_document([text])[0]]
    assert (entity, category) in found, found


@pytest.mark.parametrize(("text", "visible"), NEGATIVE)
def test_leaves_visible(anonymizer, text, visible):
    found = anonymizer.recognize_document([text])[0]
    start = text.index(visible)
    assert not any(m.start < start + len(visible) and start < m.end for m in found), found


def test_title_stays_visible_and_every_mention_gets_its_recognizer_and_rule(anonymizer):
    res = anonymizer.anonymize_document([__import__("paranon.corpora.model", fromlist=["x"]).SegmentPair(
        "1", "d", "O Sr. Rui Quaresma e a Dr.ª Ana Taveira.", "x")])
    ms, rep = res[0]
    assert rep.text == "O Sr. <NAME1_PERSON> e a Dr.ª <NAME2_PERSON>."
    assert all(m.recognizer and m.rule for m in ms)


def test_propagation_marks_other_occurrences_and_surnames_in_the_document(anonymizer):
    found = anonymizer.recognize_document(["O Sr. Rui Quaresma Bettencourt assinou.", "Bettencourt pagou."])
    assert [m.text for m in found[1]] == ["Bettencourt"]


def test_acronym_after_long_form_shares_its_number(anonymizer):
    from paranon.corpora.model import SegmentPair

    res = anonymizer.anonymize_document([SegmentPair("1", "d", "O Banco Meridional de Investimento (BMI) paga.", "x"),
                                         SegmentPair("2", "d", "O BMI confirma.", "x")])
    assert res[0][1].text == "O <NAME1_ORGANIZATION_COMPANY> (<NAME1_ORGANIZATION_COMPANY>) paga."
    assert "<NAME1_ORGANIZATION" in res[1][1].text


@pytest.mark.parametrize(("digits", "ok"), [("123456789", True), ("123456788", False), ("501964843", True)])
def test_nif_check_digit(digits, ok):
    assert nif_valid(digits) is ok


def test_iban_and_nib_checks():
    assert iban_valid("PT50 0002 0123 1234 5678 9015 4")
    assert not iban_valid("PT51 0002 0123 1234 5678 9015 4")
    assert nib_valid("0002 0123 12345678901 54")
    assert not nib_valid("0002 0123 12345678901 55")


def test_name_variants_cluster_and_ambiguous_given_names_stay_apart():
    assert name_tokens("PÉREZ RODRÍGUEZ, Pedro", PARTICLES) == {"pedro", "perez", "rodriguez"}
    assert overlap_distance(name_tokens("Pedro Pérez", PARTICLES),
                            name_tokens("Pérez Rodríguez, Pedro", PARTICLES)) == 0.0
    labels = cluster_names(["Pérez Rodríguez, Pedro", "Pedro Pérez", "Pérez", "Ana Lobato", "Lobato"], PARTICLES, 0.45)
    assert labels[0] == labels[1] == labels[2] and labels[3] == labels[4] and labels[0] != labels[3]
    labels = cluster_names(["Pedro Pérez", "Pedro Silva", "Pedro"], PARTICLES, 0.45)
    assert len(set(labels)) == 3


def _plain_average_linkage(variants: list[str], threshold: float = 0.45) -> list[int]:
    """The textbook loop (every cluster pair weighed again at every merge), with the same two guards: the
    reference ``cluster_names`` must agree with."""
    toks = [name_tokens(v, PARTICLES) for v in variants]
    n = len(variants)
    clusters = [[i] for i in range(n)]

    def dist(i, j):
        return overlap_distance(toks[i], toks[j])

    ambiguous = set()
    for i in range(n):
        fits = [j for j in range(n) if j != i and len(toks[j]) > 1 and dist(i, j) == 0]
        if len(toks[i]) == 1 and any(dist(a, b) > threshold for a in fits for b in fits):
            ambiguous.add(i)
    while True:
        best = None
        for x in range(len(clusters)):
            for y in range(x + 1, len(clusters)):
                a, b = clusters[x], clusters[y]
                if any(i in ambiguous for i in a + b) and not all(toks[i] == toks[j] for i in a for j in b):
                    continue
                pairs = [dist(i, j) for i in a for j in b]
                avg = sum(pairs) / len(pairs)
                if avg > threshold or any(dist(i, j) > threshold and len(toks[i]) > 1 and len(toks[j]) > 1
                                          for i in a for j in b):
                    continue
                if best is None or avg < best[0]:
                    best = (avg, x, y)
        if best is None:
            return [min(c) for i in range(n) for c in clusters if i in c]
        _, x, y = best
        clusters[x] = clusters[x] + clusters.pop(y)


GIVEN = ["Pedro", "Ana", "Maria", "João", "José", "Rita", "Luís"]
SURNAMES = ["Pérez", "Silva", "Lobato", "Santos", "Costa", "Rodríguez", "Ferreira", "Sousa"]


def _names(seed: int, n: int) -> list[str]:
    """Name variants as a long document has them: full names, "Surname, Given", bare surnames and given
    names, from few words (so that many people share one)."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        g, s1, s2 = rng.choice(GIVEN), rng.choice(SURNAMES), rng.choice(SURNAMES)
        v = rng.choice([f"{g} {s1}", f"{g} {s1} {s2}", f"{s1} {s2}, {g}", s1, g, f"Sr. {s2}", f"{g} de {s2}"])
        if v not in out:
            out.append(v)
    return out


@pytest.mark.parametrize(("seed", "n"), [(1, 5), (2, 20), (3, 40), (4, 60), (5, 90), (6, 120)])
def test_name_clustering_agrees_with_the_plain_algorithm(seed, n):
    variants = _names(seed, n)
    assert cluster_names(variants, PARTICLES, 0.45) == _plain_average_linkage(variants)


@pytest.mark.parametrize(("op", "category", "text", "expected"), [
    ("placeholder", "PERSON", "Ana Lobato", "<NAME3_PERSON>"),
    ("suppress", "PERSON", "Ana Lobato", "(...)"),
    ("generalize", "DATE", "16 de Novembro de 1999", "1999"),
    ("substitute", "NAMEID", "ana.s@x.pt", "aaa.a@a.aa"),
])
def test_operators(op, category, text, expected):
    ops = Operators({"operators": {"default": op}})
    assert ops.render(Mention(0, len(text), category, text, "t", entity=3)) == expected


def test_pseudonyms_are_consistent_per_entity():
    ops = Operators({"operators": {"default": "pseudonym"}})
    m = Mention(0, 5, "PERSON", "Maria Lobato", "t", entity=2)
    assert ops.render(m, "doc") == ops.render(m, "doc") != ops.render(Mention(0, 5, "PERSON", "Maria Lobato", "t", entity=3), "doc")
    assert substitute("AB-12") == "aa-99"
