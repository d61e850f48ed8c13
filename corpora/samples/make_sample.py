"""Build the bundled sample TM (``sample_pt_en.tmx``) and its gold file (``sample_gold.jsonl``).

The text is written for this project: fictional people, companies and addresses in
PT-PT legal-financial prose with EN-GB translations. Templates carry slots such as
``{P1}`` (a person, in a form chosen per sentence) so the gold offsets come out
exactly. Run ``python corpora/samples/make_sample.py`` to regenerate (deterministic).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

HERE = Path(__file__).parent

# fictional casts: (given, surname1, surname2, gender)
PEOPLE = [("Leopoldina", "Vasconcelos", "Taveira", "f"), ("Rui", "Quaresma", "Bettencourt", "m"),
          ("Marta", "Sequeira", "Lobato", "f"), ("Eduardo", "Cordovil", "Pestana", "m"),
          ("Inês", "Arruda", "Meireles", "f"), ("Tomás", "Galvão", "Sarmento", "m"),
          ("Beatriz", "Fontoura", "Queiroga", "f"), ("Henrique", "Brandão", "Valadares", "m"),
          ("Claus-Dieter", "Hoffmeister", "Krämer", "m"), ("Aoife", "Gallagher", "Brennan", "f"),
          ("Filipa", "Carvalhal", "Nogueira", "f"), ("Joaquim", "Espregueira", "Mendes", "m"),
          ("Rosário", "Abrantes", "Lacerda", "f"), ("Duarte", "Sampaio", "Figueiredo", "m"),
          ("Gonçalo", "Teixeira", "Pimentel", "m"), ("Matilde", "Serrão", "Calado", "f")]
COMPANIES = [("Construções Ribadouro", "S.A."), ("Tecnifluxo Engenharia", "Lda."), ("Valmar Investimentos", "SGPS, S.A."),
             ("Atlanticover Seguros", "S.A."), ("Hortogal Agroindústria", "Lda."), ("Brightwell Logistics", "Ltd"),
             ("Kessler Maschinenbau", "GmbH"), ("Dunmore Capital", "PLC"), ("Lusomar Pescas", "Unipessoal, Lda."),
             ("Ferrovale Transportes", "S.A."), ("Quintela & Filhos", "Lda."), ("Van der Berg Holding", "B.V.")]
BANKS = [("Banco Meridional de Investimento", "BMI"), ("Banco Lusitano de Crédito", "BLC"),
         ("Caixa Agrícola do Vale do Sousa", "CAVS")]
PUBLIC = [("Ministério das Finanças", "Ministry of Finance", "ADMIN"),
          ("Câmara Municipal de Vila Nova de Gaia", "Vila Nova de Gaia City Council", "ADMIN"),
          ("Direção-Geral do Tesouro e Finanças", "Directorate-General for the Treasury and Finance", "ADMIN"),
          ("Instituto da Segurança Social", "Social Security Institute", "INSTITUTION")]
ADDR_PT = ["Rua Júlio Dinis, n.º 148, 3.º Esq., 4050-322 Porto", "Avenida Fernão de Magalhães, n.º 1862, 14.º Piso, 4350-150 Porto",
           "Av. da República, nº 50, 3º piso, 1050-196 Lisboa", "Travessa do Carvalho, n.o 7, r/c Dto., 1200-091 Lisboa",
           "Largo Conde Barão, n.º 12, 2.º, 1200-162 Lisboa", "Rua de Santa Catarina, 512, 1.º Frente, 4000-446 Porto",
           "Estrada Nacional 10, lote 5, 2840-001 Seixal", "Praça Marquês de Pombal, n.º 3, 5.º andar, 1250-161 Lisboa"]
ADDR_FOREIGN = ["10a Belmont Street, London NW1 8HH", "Keizersgracht 123, 1015 CJ Amsterdam",
                "Bergstrasse 12, 80331 München", "42 Hampton Road, Bristol BS6 6HP"]
MONTHS_PT = ["Janeiro", "Fevereiro", "Março", "Abril", "Maio", "Junho", "Julho", "Agosto", "Setembro", "Outubro",
             "Novembro", "Dezembro"]
MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December"]

# (pt, en): slots P=person forms, C=company, B=bank, A=acronym of the bank, G=public body, R=PT address,
# F=foreign address, D=date, N=NIF, K=NIPC, I=IBAN, T=phone, E=e-mail
TEMPLATES = [
    ("CONTRATO DE PRESTAÇÃO DE SERVIÇOS celebrado entre {C1} e {P1:full}.",
     "SERVICE AGREEMENT entered into between {C1} and {P1:full}."),
    ("Entre {C1}, com sede na {R1}, pessoa colectiva n.º {K1}, adiante designada por O CLIENTE, e {C2}, adiante designada por O PRESTADOR,",
     "Between {C1}, with registered office at {R1}, corporate tax number {K1}, hereinafter THE CLIENT, and {C2}, hereinafter THE PROVIDER,"),
    ("representada pelo seu administrador, o Sr. {P1:full}, contribuinte n.º {N1}, residente na {R2},",
     "represented by its director, Mr {P1:full}, taxpayer number {N1}, resident at {R2},"),
    ("e pela sua gerente, a Dr.ª {P2:full}, titular do cartão de cidadão n.º {X2}.",
     "and by its manager, Dr {P2:full}, holder of citizen card no. {X2}."),
    ("É celebrado o presente CONTRATO, que se rege pelas cláusulas seguintes:",
     "This AGREEMENT is entered into and shall be governed by the following clauses:"),
    ("O pagamento será efectuado por transferência bancária para a CONTA com o IBAN {I1}, aberta no {B1} ({A1}).",
     "Payment shall be made by bank transfer to the ACCOUNT with IBAN {I1}, held with {B1} ({A1})."),
    ("O {A1} confirmará a recepção dos fundos no prazo de cinco dias úteis.",
     "{A1} shall confirm receipt of the funds within five working days."),
    ("As notificações ao abrigo do presente CONTRATO serão enviadas para {E1} ou por fax para o n.º {T1}.",
     "Notices under this AGREEMENT shall be sent to {E1} or by fax to no. {T1}."),
    ("Em {D1}, {P1:inv} declarou aceitar as condições descritas no ANEXO I.",
     "On {D1}, {P1:given_sur} declared that he accepted the conditions set out in ANNEX I."),
    ("O Sr. {P1:sur} comprometeu-se a entregar os documentos ao {G1} até {D2}.",
     "Mr {P1:sur} undertook to deliver the documents to the {G1} by {D2}."),
    ("Qualquer litígio será submetido ao Tribunal Judicial da Comarca de Lisboa.",
     "Any dispute shall be submitted to the Judicial Court of the District of Lisbon."),
    ("A sociedade {C2} tem escritórios em {F1}.", "{C2} has offices at {F1}."),
    ("O BANCO reserva-se o direito de debitar na CONTA as comissões previstas no PREÇÁRIO.",
     "THE BANK reserves the right to debit the ACCOUNT with the charges set out in the PRICE LIST."),
    ("A testemunha {P3:full}, portadora do passaporte n.º {X3}, assinou a acta em {D3}.",
     "The witness {P3:full}, holder of passport no. {X3}, signed the minutes on {D3}."),
    ("{P3:upper} e {P2:given_sur} reuniram-se com o Eng.º {P4:full} na sede do {G1}.",
     "{P3:upper} and {P2:given_sur} met Mr {P4:full} at the headquarters of the {G1}."),
    ("Para esclarecimentos, contactar a Sra. {P2:sur} pelo telefone {T2} ou pelo e-mail {E2}.",
     "For clarification, please contact Ms {P2:sur} on {T2} or by e-mail at {E2}."),
    ("O Conselho de Administração da {C1} aprovou as contas do exercício de 2023.",
     "The Board of Directors of {C1} approved the accounts for the 2023 financial year."),
    ("O valor total do CONTRATO é de 1.250.000,00 EUR (um milhão duzentos e cinquenta mil euros), acrescido de IVA.",
     "The total value of the AGREEMENT is EUR 1,250,000.00 (one million two hundred and fifty thousand euros), plus VAT."),
    ("Nos termos do Decreto-Lei n.º 262/86, de 2 de Setembro, a {C2} obriga-se a manter registos actualizados.",
     "Under Decree-Law no. 262/86 of 2 September, {C2} undertakes to keep up-to-date records."),
    ("A fatura n.º {X1} foi emitida em {D2} e enviada ao cuidado de {P4:sur_only_title}.",
     "Invoice no. {X1} was issued on {D2} and sent for the attention of {P4:sur_only_title_en}."),
    ("{P1:given_sur} e a {C3} celebraram um acordo de confidencialidade.",
     "{P1:given_sur} and {C3} entered into a confidentiality agreement."),
    ("A morada de correspondência da {C3} é {F2}.", "The mailing address of {C3} is {F2}."),
    ("O advogado {P5:full} representa a {C3} no processo n.º {X4}.",
     "The lawyer {P5:full} represents {C3} in case no. {X4}."),
    ("Os RESPONSÁVEIS pelo TRATAMENTO DE DADOS devem cumprir o disposto no Regulamento (UE) 2016/679.",
     "The DATA CONTROLLERS must comply with Regulation (EU) 2016/679."),
    ("O {G2} notificou a {C1} em {D4}, por carta registada enviada para a {R1}.",
     "The {G2} notified {C1} on {D4} by registered letter sent to {R1}."),
    ("O mutuário, {P6:full}, com o NIF {N2}, reconhece dever ao {B1} a quantia mutuada.",
     "The borrower, {P6:full}, with tax number {N2}, acknowledges owing the loan amount to {B1}."),
    ("O Dr. {P6:sur} e a Dra. {P5:sur} assinaram o ANEXO II em representação das PARTES.",
     "Dr {P6:sur} and Dr {P5:sur} signed ANNEX II on behalf of the PARTIES."),
    ("A presente DECISÃO entra em vigor na data da sua adopção.", "This DECISION shall enter into force on the date of its adoption."),
]


def nif(rng: random.Random, first: str = "2") -> str:
    d = [int(first)] + [rng.randint(0, 9) for _ in range(7)]
    r = sum(v * (9 - i) for i, v in enumerate(d)) % 11
    return "".join(map(str, d + [0 if r < 2 else 11 - r]))


def iban(rng: random.Random) -> str:
    bban = "0035" + "".join(str(rng.randint(0, 9)) for _ in range(17))
    check = 98 - int("".join(str(int(c, 36)) for c in bban + "PT00")) % 97
    s = f"PT{check:02d}{bban}"
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


def person_forms(p: tuple[str, str, str, str]) -> dict[str, tuple[str, str]]:
    g, s1, s2, sex = p
    title_pt = "Sr." if sex == "m" else "Sra."
    title_en = "Mr" if sex == "m" else "Ms"
    return {"full": (f"{g} {s1} {s2}", f"{g} {s1} {s2}"), "inv": (f"{s1.upper()} {s2.upper()}, {g}", f"{g} {s1} {s2}"),
            "given_sur": (f"{g} {s2}", f"{g} {s2}"), "sur": (s2, s2), "upper": (f"{g} {s1} {s2}".upper(), f"{g} {s1} {s2}".upper()),
            "sur_only_title": (f"{title_pt} {s2}", f"{title_en} {s2}"), "sur_only_title_en": (f"{title_pt} {s2}", f"{title_en} {s2}")}


def fill(template: str, slots: dict[str, tuple[str, str, str, str]], lang: int) -> tuple[str, list[dict]]:
    """Text and gold entities; a slot value is (pt, en, category, entity id)."""
    out, ents, pos = [], [], 0
    import re

    for m in re.finditer(r"\{(\w+)(?::(\w+))?\}", template):
        out.append(template[pos:m.start()])
        key = m.group(1) + (":" + m.group(2) if m.group(2) else "")
        pt, en, cat, ent = slots[key]
        value = pt if lang == 0 else en
        start = sum(len(x) for x in out)
        # a title inside a value is visible text, not part of the entity
        for title in ("Sr. ", "Sra. ", "Mr ", "Ms "):
            if value.startswith(title) and cat == "PERSON":
                out.append(title)
                value = value[len(title):]
                start += len(title)
        out.append(value)
        ents.append({"start": start, "end": start + len(value), "category": cat, "entity": ent})
        pos = m.end()
    out.append(template[pos:])
    return "".join(out), ents


Slots = dict[str, tuple[str, str, str, str]]  # slot -> (pt, en, category, entity)


def _name_slots(rng: random.Random, doc: str) -> tuple[Slots, list, list]:
    """A document's cast: people (in every form), companies, a bank, public bodies, addresses."""
    people = rng.sample(PEOPLE, 6)
    comps = rng.sample(COMPANIES, 3)
    bank = rng.choice(BANKS)
    pubs = rng.sample(PUBLIC, 2)
    addr = rng.sample(ADDR_PT, 2)
    fadd = rng.sample(ADDR_FOREIGN, 2)
    slots: Slots = {}
    for k, p in enumerate(people, 1):
        for form, (pt, en) in person_forms(p).items():
            slots[f"P{k}:{form}"] = (pt, en, "PERSON", f"{doc}/P{k}")
    for k, (name, tail) in enumerate(comps, 1):
        v = f"{name}, {tail}" if "," in tail or rng.random() < 0.5 else f"{name} {tail}"
        slots[f"C{k}"] = (v, v, "ORGANIZATION", f"{doc}/C{k}")
    slots["B1"] = (bank[0], bank[0], "ORGANIZATION", f"{doc}/B1")
    slots["A1"] = (bank[1], bank[1], "ORGANIZATION", f"{doc}/B1")
    for k, (pt, en, _sub) in enumerate(pubs, 1):
        slots[f"G{k}"] = (pt, en, "ORGANIZATION", f"{doc}/G{k}")
    for k, a in enumerate(addr, 1):
        slots[f"R{k}"] = (a, a, "ADDRESS", f"{doc}/R{k}")
    for k, a in enumerate(fadd, 1):
        slots[f"F{k}"] = (a, a, "ADDRESS", f"{doc}/F{k}")
    return slots, people, comps


def _date_slots(rng: random.Random, doc: str, slots: Slots) -> None:
    for k in range(1, 5):
        day, mon, year = rng.randint(1, 28), rng.randint(0, 11), rng.randint(1998, 2024)
        style = rng.choice(["long", "long", "slash", "dot"])
        if style == "long":
            pt = f"{day} de {MONTHS_PT[mon] if rng.random() < 0.6 else MONTHS_PT[mon].lower()} de {year}"
            en = f"{day} {MONTHS_EN[mon]} {year}"
        elif style == "slash":
            pt = en = f"{day:02d}/{mon + 1:02d}/{year}"
        else:
            pt = en = f"{day:02d}.{mon + 1:02d}.{year % 100:02d}"
        slots[f"D{k}"] = (pt, en, "DATE", f"{doc}/D{k}")


def _id_slots(rng: random.Random, doc: str, slots: Slots, people: list, comps: list) -> None:
    """Personal identifiers: NIF, NIPC, IBAN, phones, e-mails (of the first two people), file numbers."""
    for k in (1, 2):
        v = nif(rng, rng.choice("123"))
        slots[f"N{k}"] = (v, v, "NAMEID", f"{doc}/N{k}")
    v = nif(rng, "5")
    slots["K1"] = (v, v, "NAMEID", f"{doc}/K1")
    v = iban(rng)
    slots["I1"] = (v, v, "NAMEID", f"{doc}/I1")
    for k in (1, 2):
        v = rng.choice(["+351 22 {} {} {}", "21 {} {} {}", "+44 20 {} {} {}"]).format(
            rng.randint(100, 999), rng.randint(10, 99), rng.randint(100, 999))
        slots[f"T{k}"] = (v, v, "NAMEID", f"{doc}/T{k}")
    for k, p in ((1, people[0]), (2, people[1])):
        v = f"{p[0].lower().replace('-', '')}.{p[2].lower()}@{comps[0][0].split()[0].lower()}.pt"
        v = v.translate(str.maketrans("áéíóúâêôãõçäöü", "aeiouaeoaocaou"))
        slots[f"E{k}"] = (v, v, "NAMEID", f"{doc}/E{k}")
    for k in range(1, 5):
        v = rng.choice(["FT {}/{}", "{}/{}", "PX{}-{}", "CC {} {}"]).format(rng.randint(1000, 99999), rng.randint(10, 2024))
        slots[f"X{k}"] = (v, v, "NAMEID", f"{doc}/X{k}")


def build(n_docs: int = 12, seed: int = 7) -> tuple[list[dict], str]:
    rng = random.Random(seed)
    records = []
    for d in range(n_docs):
        doc = f"CONTRATO-{2023 + d // 6}-{d + 1:03d}"
        slots, people, comps = _name_slots(rng, doc)
        _date_slots(rng, doc, slots)
        _id_slots(rng, doc, slots, people, comps)
        chosen = TEMPLATES[:]
        rng.shuffle(chosen)
        chosen = TEMPLATES[:2] + [t for t in chosen if t not in TEMPLATES[:2]]
        for k, (tpt, ten) in enumerate(chosen, 1):
            src, se = fill(tpt, slots, 0)
            tgt, te = fill(ten, slots, 1)
            records.append({"id": f"{doc}:{k}", "doc": doc, "src": src, "tgt": tgt, "src_entities": se, "tgt_entities": te})
    return records, "sample"


def write(records: list[dict], out: Path = HERE) -> None:
    with open(out / "sample_gold.jsonl", "w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(out / "sample_pt_en.tmx", "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n<header creationtool="paranon-sample" '
                 'creationtoolversion="1" segtype="sentence" o-tmf="paranon" adminlang="en-GB" srclang="pt-PT" '
                 'datatype="plaintext"/>\n<body>\n')
        for r in records:
            fh.write(f'<tu tuid={quoteattr(r["id"])}>\n  <prop type="doc">{escape(r["doc"])}</prop>\n'
                     f'  <tuv xml:lang="pt-PT"><seg>{escape(r["src"])}</seg></tuv>\n'
                     f'  <tuv xml:lang="en-GB"><seg>{escape(r["tgt"])}</seg></tuv>\n</tu>\n')
        fh.write("</body>\n</tmx>\n")


if __name__ == "__main__":
    recs, _ = build()
    write(recs, Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
    print(f"{len(recs)} pairs")
