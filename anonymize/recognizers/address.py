"""ADDRESS: Portuguese head-first streets, English tail-last streets, fused German/Dutch streets, postcodes.

An address grows right over names (a person's name inside a street name does not
stop it), numbers in every ``n.º`` variant, floors and sides, and a postal code
with its locality. A street name without any number or postcode is not precise
enough to identify anyone and is left alone, as is a bare city name.
"""

from __future__ import annotations

from itertools import chain

import regex

from ..address_edges import POSTCODE_WORD, UK_POSTCODE, AddressEdges
from ..recognizer import Gated, Recognizer, Segment, alternation, case_blind_gate, literal_gate, register

NAME_WORD = r"(?:[\p{Lu}\d][\p{L}\d'’.ºª-]*|d['’]\p{Lu}[\p{L}'’-]*|d[aeo]s?|e|d'|de|of|the|la|le|les|des|du|del|della|dei|degli|delle|dello|di|aos?|às?)"
NUMBER_SIGN = r"(?:n\.?\s?[º°o]\.?s?|nº|n\.|no\.?|nr\.?|n°)"
HOUSE_NUMBER = (rf"(?:{NUMBER_SIGN}\s*)?\d+(?:\.?[º°ªo])?[\p{{L}}]?(?:\s?[-/]\s?\d++(?!-\d{{3}}(?!\d))(?:\.?[º°ªo])?[\p{{L}}]?)*"
                r"(?:-[A-Z](?![\p{L}\d]))?"  # ("n.º 300-A")
                # (a range of house numbers: "n.os 12 a 16", "n.os 3 e 5"; not a date's days, "12 a 16 de maio")
                r"(?:\s+[ae]\s+\d{1,4}[A-Z]?(?!\d|[.,/-]\d|\s?[º°ª]|\s+de\s))?")
POSTCODE_PT = r"\d{4}\s?-\s?\d{3}(?![\d/-])(?:\s+[\p{Lu}][\p{L}'-]+(?:\s+(?:d[aeo]s?|[\p{Lu}][\p{L}'-]+))*)?"
POSTCODE_UK = rf"\b{UK_POSTCODE}\b"
POSTCODE_NL = r"\b\d{4}\s?[A-Z]{2}\b(?:\s+[\p{Lu}][\p{L}-]+)?"
POSTCODE_EU = r"\b(?:[A-Z]{1,2}-)?(?:\d{5}|\d{3}\s\d{2})\s+[\p{Lu}][\p{L}-]+"
CAPITAL_WORD = regex.compile(r"\s\p{Lu}")
DIGIT = regex.compile(r"\d")
# (a Portuguese or a British postcode closes an address: "The Old Rectory, Church Lane, Norwich NR21 0AA")
CLOSING_CODE = regex.compile(rf"\d{{4}}-\d{{3}}(?!\d)|{POSTCODE_UK}")
# the particles a greedy street name may end with ("… da Rua de São João e": the "e" is the sentence's)
PARTICLES_AT_END = regex.compile(r"(?:\s+(?:d[aeo]s?|e|de|d'|of|the|la|le|les|des|du|del|aos?|às?))+$")
SENTENCE_STOP = regex.compile(r"(?<=\p{L}{4})\.$")  # a sentence's full stop after a name, no abbreviation's dot
# the repeated house number of French and Belgian addresses ("14 bis, rue …", "3 ter avenue …")
NUMBER_REPEAT = r"(?:bis|ter|quater)(?![\p{L}])"


BETWEEN_STREET_AND_POSTCODE = regex.compile(r",?\s*(?:\p{Lu}[\p{L}'-]+\s+){1,3}")
# the comma-separated parts of one address ("Rua X, n.º 5, Murches, 2755-132 Alcabideche")
ADDRESS_PIECE = regex.compile(r"\s*,\s*([^,;:()\n]{1,60}?)\s*(?=,|$)")
PIECE_WORD = regex.compile(r"[^\s]+")
# a street and its postcode's line written apart by a semicolon, a slash or a bar ("Rua X, 12; 4050-262 Porto")
PART_SEPARATOR = regex.compile(r"\s*[;|]\s*|\s+/\s+")
ARTICLES = frozenset({"the", "o", "a", "os", "as"})
PIECES_WINDOW = 160  # characters before an address in which its earlier parts are looked for
# the rest of a number cut at its dot or a letter ("sala 2.08", "n.º 77-A") before the comma of the next part
NUMBER_REST = regex.compile(r"^[.\d/-]*\p{L}?$")
# a foreign postcode and town after an address ("..., 67000 Strasbourg", "..., 1260 Nyon", "..., D-10115 Berlin")
CODE_AT_END = regex.compile(r",\s*(?:[A-Z]{1,2}-)?\d{4,5}$")  # "Rue de la Gare, 17, 1260": a postcode, its town after
TOWN_AFTER = regex.compile(r"\s+\p{Lu}[\p{L}'-]+(?:[\s-]+\p{Lu}[\p{L}'-]+)?")
TOWN_BEFORE_CODE = regex.compile(r"(?:\p{Lu}[\p{L}'’-]+\s+){1,3}\Z")  # "Oxford " before "OX3 7LS"
PART_OPENERS = (" em ", " no ", " na ", ": ", " at ", " in ")  # words that open an address
POSTCODE_AFTER = regex.compile(r"\s*,\s*(?:[A-Z]{1,2}-)?\d{4,5}\s+\p{Lu}[\p{L}'-]+(?:[\s-]+\p{Lu}[\p{L}'-]+)?")


@register("address")
class AddressRecognizer(Recognizer):
    assigns = ("ADDRESS",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        a = rules["address"]
        # a one-letter word is a floor's side or a block only in capitals ("15.º andar E"; "Horta e Costa")
        longer = [w for w in a["sub_words"] if len(w) > 1]
        letters = "".join(sorted({w for w in a["sub_words"] if len(w) == 1}))
        # (a letter is no floor's side before a country's postcode, "B-1049", or as a title's initial, "D. Henrique")
        sub = rf"(?:(?i:{alternation(longer)})|[{letters}](?!-\d|\.\s*\p{{Lu}}))(?![\p{{L}}])"
        ordinal = r"\d+\.?\s?[º°ªo]\.?"
        # numbers and floors written in words, as deeds write them ("número cinquenta e dois", "lote quinze",
        # "primeiro andar esquerdo")
        # (lower case, as deeds write them: a case-blind pattern here would slow every address)
        words = alternation(rules["date"]["number_words"])
        spelled = (rf"(?:número|n\.?\s?º|lote|porta|casa)\s+(?:{words})(?:\s+e\s+(?:{words}))*(?![\p{{L}}])"
                   rf"|(?:{alternation(rules['organization']['ordinal_words'])})\s+(?:andar|piso)(?![\p{{L}}])")
        # a unit designated by letters, any letters ("fração F", "loja AB", "bloco «C»")
        lettered = rf"(?i:{alternation(a['lettered_units'])})\s+[\"«“]?\p{{Lu}}{{1,3}}\d{{0,3}}[\"»”]?(?![\p{{L}}\d])"
        # (a part starts a word: "Vila Verd|e" is no street and a floor's side "E")
        grow = (rf"(?:\s*,?\s*(?<![\p{{L}}])(?:{POSTCODE_WORD}?{POSTCODE_PT}|{POSTCODE_UK}|{spelled}|{ordinal}|{HOUSE_NUMBER}|{lettered}"
                rf"|{sub}))")
        tail_after = rf"(?:\s*,?\s*(?:{HOUSE_NUMBER}|{POSTCODE_UK}|{POSTCODE_EU}|{POSTCODE_NL}))"
        # (heads in capitals too: invoice and letter headers write "RUA DE SÃO BENTO, N.º 148")
        heads, tails = alternation(a["heads"] + [h.upper() for h in a["heads"] if len(h.rstrip(".")) > 1]), alternation(a["tails"])
        self.pt = Gated(regex.compile(
            rf"(?<![\p{{L}}])(?:{heads})(?:\s+{NAME_WORD}){{1,8}}?(?P<num>{grow}+)"), literal_gate(heads))
        self._prose_patterns(rules, heads, grow)
        # a house number is no date's day ("Vila Real, 5 de fevereiro de 2025")
        self.date_after = regex.compile(rf"\s+de\s+(?i:{alternation(rules['date']['months'])})(?![\p{{L}}])")
        # house number first, then the street word (French, Italian, Spanish layouts: "12 rue des Tanneurs")
        self.number_first = regex.compile(
            rf"(?<![\p{{L}}\d,.])\d{{1,4}}[a-zA-Z]?(?:\s+{NUMBER_REPEAT})?,?\s+(?i:{alternation(rules['address_number_first_heads'])})"
            rf"(?:\s+(?:{alternation(rules['address_name_particles'])}|(?:[ld]['’])?[\p{{Lu}}][\p{{L}}'’-]+)){{1,5}}")
        self.number_first_gate = case_blind_gate(rules["address_number_first_heads"])
        self.head_start = regex.compile(rf"(?:{heads})(?![\p{{L}}])")
        self.labels = tuple(w[:-1] for w in rules["address_announcers"] if w.endswith(":"))  # ("Morada", "Sede")
        # (a letterhead's first part that is a person or a company, with a title or a legal form, is no address's)
        self.party_words = {w.lower().rstrip(".") for w in rules["person"]["titles"] + rules["organization"]["tails"]
                            + ["Mr", "Mrs", "Ms", "Exmo", "Exma", "Exmos", "Exmas"]}
        self.piece_words = {w.lower() for w in a["sub_words"]} | {w.lower() for w in rules["address_unit_words"]} \
            | {w.lower() for w in rules["address_name_particles"]} | {w.lower() for w in a["heads"]} \
            | {w.lower() for w in rules["address_area_words"]}
        self.en_tail = regex.compile(rf"(?<![\p{{L}}])(?:{tails})$")
        self.en = Gated(regex.compile(
            rf"(?<![\p{{L}}\d])(?:(?P<num>\d+[a-zA-Z]?(?:[-/]\d+[a-zA-Z]?)?),?\s+)?(?:[\p{{Lu}}][\p{{L}}'’-]+\s+){{1,4}}"
            rf"(?:{tails})(?![\p{{L}}])(?:\s+(?:{alternation(rules['address_street_directions'])})(?![\p{{L}}]))?"
            rf"(?P<after>{tail_after}*)"), literal_gate(tails))
        self.fused = regex.compile(
            rf"(?<![\p{{L}}])[\p{{Lu}}][\p{{L}}-]*(?i:{alternation(a['fused_suffixes'])})\s+\d+[a-zA-Z]?(?:-[A-Za-z\d]{{1,3}}(?![\p{{L}}\d]))?"
            rf"(?:\s*,\s*(?:{POSTCODE_NL}|{POSTCODE_EU}))?")
        self.fused_gate = case_blind_gate(a["fused_suffixes"])  # (every match holds one)
        # the alternatives on their own are five times faster than together (no shared look-behind)
        self.edges = AddressEdges(rules["address_unit_words"], rules["address_side_words"], lex.territories,
                                  rules["address_area_words"], rules["address_city_territories"],
                                  rules["address_floor_words"], rules["address_district_words"],
                                  rules["address_district_words_after"], a["heads"])
        self.postcode = Gated(regex.compile(rf"(?<![\d-]){POSTCODE_PT}|{POSTCODE_UK}"),
                              regex.compile(rf"(?<![\d-]){POSTCODE_PT}"), regex.compile(POSTCODE_UK))

    def _prose_patterns(self, rules: dict, heads: str, grow: str) -> None:
        """The layouts of addresses in running Portuguese prose."""
        a = rules["address"]
        # (the street words in lower case, as running text writes them: "residente na rua do Brasil, n.º 3"; a
        # pattern of their own, tried only where a capitalized name follows one)
        lower = alternation(a["lower_heads"])
        self.pt_lower = Gated(regex.compile(
            rf"(?:{lower})(?:\s+{NAME_WORD}){{1,8}}?(?P<num>{grow}+)"),
            literal_gate(rf"(?:{lower})\s"))
        # a street with no number that a residence or seat phrase announces ("residente na Rua do Alecrim, Lisboa",
        # "com sede na Avenida Marginal"): an address (recall first)
        # (no case folding and no look-behind, the word's start checked after: several times faster)
        announcers = sorted({v for w in rules["address_announcers"] for v in (w, w[:1].upper() + w[1:])})
        self.announced = Gated(regex.compile(
            rf"(?:{alternation(announcers)})\s+(?P<a>(?:{heads})(?:\s+{NAME_WORD}){{1,8}})"),
            literal_gate(alternation(sorted({k for w in rules["address_announcers"]
                                              for k in (max(w.split(), key=len),) for k in (k, k.capitalize())}))))
        # the house number before its street, as Portuguese prose writes it ("no n.º 15 da Rua de São João"), or a
        # plot's, a pavilion's or a warehouse's before its estate ("no Lote 7 da Zona Industrial de X")
        self.number_before = Gated(regex.compile(
            rf"(?<![\p{{L}}])(?:{NUMBER_SIGN}|número|[Ll]ote|[Pp]avilhão|[Aa]rmazém)\s*\d{{1,5}}(?:-?[A-Z](?![\p{{L}}]))?\s+d[aeo]\s+"
            rf"(?:{heads})(?:\s+{NAME_WORD}){{1,8}}"),
            regex.compile(r"(?:[º°o.r]|mero|ote|hão|zém)\s*\d{1,5}(?:-?[A-Z])?\s+d[aeo]\s"))

    def find(self, seg: Segment) -> list:
        t = seg.text
        out = []

        taken = bytearray(len(t) + 1)  # characters of the mentions in ``out``: checks in time of the span,
        # not of the mentions (a long segment made them quadratic)

        def add(s: int, e: int, rule: str) -> None:
            while e > s and t[e - 1] in " ,;":
                e -= 1
            if e > s and taken.find(1, s, e) < 0:
                out.append(self.mention(seg, s, e, "ADDRESS", rule))
                taken[s:e] = b"\x01" * (e - s)

        # "Câmara Municipal de Vila Nova de Gaia": a head word inside an organisation's name is not an address
        inside_org = bytearray(len(t) + 1)  # 1 strictly inside an organisation chain
        for ch in seg.analysis.chains:
            if ch.org_head and ch.end - ch.start > 1:
                inside_org[ch.start + 1:ch.end] = b"\x01" * (ch.end - ch.start - 1)
        # (the house number first: "5 Rue de la Paix" is one address, before its street's head alone)
        digits = DIGIT.search(t) is not None  # (what a house number, a postcode and a fused street's number hold)
        for m in self.number_first.finditer(t) if digits and self.number_first_gate.search(seg.folded) else ():
            add(m.start(), m.end(), "address:number-first")
        for m in self.number_before.finditer(t) if digits else ():
            add(m.start(), m.start() + len(SENTENCE_STOP.sub("", PARTICLES_AT_END.sub("", m.group()))), "address:number-before")
        for m in chain(self.pt.finditer(t), self.pt_lower.finditer(t)):
            if inside_org[m.start()] or t[m.start()].islower() and (not CAPITAL_WORD.search(m.group())
                                                                     or m.start() and t[m.start() - 1].isalpha()):
                continue  # (a lower-case street word needs a capitalized name: not "a rua de 2 km")
            end = m.end()
            if self.date_after.match(t, end):  # the last number is a date's day: the address ends before it
                cut = regex.search(r"[\s,]*\d+$", t[m.start():end])
                end = m.start() + cut.start() if cut else end
                if not any(c.isdigit() for c in t[m.start():end]):
                    continue  # a street with no number is no address ("Vila Real, 5 de fevereiro")
            add(m.start(), end, "address:pt-head")
        for m in self.announced.finditer(t):
            if not inside_org[m.start("a")] and CAPITAL_WORD.search(m.group("a")) \
                    and not (m.start() and t[m.start() - 1].isalpha()):
                add(m.start("a"), m.start("a") + len(PARTICLES_AT_END.sub("", m.group("a"))), "address:announced")
        for m in self.fused.finditer(t) if digits and self.fused_gate.search(seg.folded) else ():
            add(m.start(), m.end(), "address:fused")
        for m in self.en.finditer(t):
            # (a street with no number but a floor, room or postcode after it: "Sheikh Zayed Road, …, 21.º andar")
            if m.group("num") or m.group("after").strip(" ,") or self.edges.extent(t, m.end())[1]:
                add(m.start(), m.end(), "address:en-tail")
        for m in self.postcode.finditer(t) if digits else ():
            prev = max((x for x in out if x.end <= m.start()), key=lambda x: x.end, default=None)
            # "10a Belmont Street, London NW1 8HH": the town between street and postcode is part of the address
            if prev is not None and BETWEEN_STREET_AND_POSTCODE.fullmatch(t[prev.end:m.start()]):
                out.remove(prev)
                taken[prev.start:prev.end] = bytes(prev.end - prev.start)
                add(prev.start, m.end(), prev.rule)
                continue
            add(m.start(), m.end(), "address:postcode")
        return self._widened(seg, self._joined(t, self._parts_before_code(t, out)))

    def _widened(self, seg: Segment, out: list) -> list:
        """Each address over the parts around it (address_edges: floor, postcode, town; room or block first),
        and the addresses written smallest part first with no street word."""
        t = seg.text
        spans = [(self.edges.start(t, m.start), self.edges.end(t, m.end), m) for m in out]
        spans += [(s, e, None) for s, e in self.edges.unit_first(t)]
        spans.sort(key=lambda x: (x[0], -x[1]))
        res: list = []
        for s, e, m in spans:
            if res and s < res[-1].end:
                if e > res[-1].end:
                    res[-1] = self.mention_like(res[-1], t, res[-1].start, e)
                continue
            res.append(self.mention(seg, s, e, "ADDRESS", "address:unit-first") if m is None
                       else self.mention_like(m, t, s, e) if (s, e) != (m.start, m.end) else m)
        return res

    def _parts_before_code(self, t: str, out: list) -> list:
        """``14 Elm Grove, Headington, Oxford OX3 7LS``, ``The Old Rectory, Church Lane, Little Wenham, Colchester
        CO7 6PL``: a British postcode closes an address written in comma-separated parts, its town just before
        it; the parts belong to it back to the one with a street word or a house number first, and further
        (a house's name) when an address's opening word (``em``, ``at``, a colon) stands before them."""
        res = []
        for m in out:
            if m.rule != "address:postcode" or not regex.fullmatch(POSTCODE_UK, m.text):
                res.append(m)
                continue
            lo = max(0, m.start - PIECES_WINDOW)
            town = TOWN_BEFORE_CODE.search(t, lo, m.start)
            start = best = town.start() if town else m.start
            for _ in range(5):
                comma = t.rfind(",", lo, start)
                if comma < 0 or t[comma + 1:start].strip():
                    break
                opener = max((k + len(w) for w in PART_OPENERS if (k := t.rfind(w, lo, comma)) >= 0), default=-1)
                piece_start = max(t.rfind(",", lo, comma) + 1, opener, lo)
                piece = t[piece_start:comma].strip()
                if not piece or not self._pieces_only(f", {piece}, "):
                    break
                start = piece_start
                if piece[:1].isdigit() or self.en_tail.search(piece):
                    best = start
                elif opener == piece_start and best < m.start:
                    best = start  # the house's name after "em": "em The Old Rectory, Church Lane, ..."
            while best < m.start and t[best] == " ":
                best += 1
            res.append(self.mention_like(m, t, best, m.end) if best < m.start else m)
        return [m for m in res if not any(x is not m and x.start <= m.start and m.end <= x.end for x in res)]

    def _joined(self, t: str, out: list) -> list:
        """An address written in comma-separated parts is one address: two address mentions with only such
        parts between them (a locality, a building, a floor, a door number: capitalized words, numbers and
        address words) become one, which keeps the first one's rule."""
        if not out:
            return out
        out = sorted(out, key=lambda m: m.start)
        merged = [out[0]]
        for m in out[1:]:
            prev = merged[-1]
            between = t[prev.end:m.start]
            if "," in between and self._pieces_only(between) \
                    or PART_SEPARATOR.fullmatch(between) and CLOSING_CODE.match(m.text) and not CLOSING_CODE.search(prev.text):
                merged[-1] = self.mention_like(prev, t, prev.start, m.end)
            else:
                merged.append(m)
        merged = [self._back_to_head(t, m) for m in merged]
        for k, m in enumerate(merged):
            after = POSTCODE_AFTER.match(t, m.end) or (TOWN_AFTER.match(t, m.end) if CODE_AT_END.search(m.text) else None)
            if after and (k + 1 == len(merged) or merged[k + 1].start >= after.end()):
                merged[k] = self.mention_like(m, t, m.start, after.end())
        return merged

    def _back_to_head(self, t: str, m):
        """``Lugar de Pedreiras, Zona Industrial, Lote 4, 4730-400 Vila Verde``: the comma-separated parts before
        an address belong to it when the first of them opens with an address head word (the farthest such)."""
        start, best = m.start, m.start
        for _ in range(4):
            lo = max(0, start - PIECES_WINDOW)  # (a window: a long segment stays linear)
            comma = t.rfind(",", lo, start)
            # (a word not found gives -1, never a start: an address may open the segment, a letter's address line)
            after_word = [k + 3 for k in (t.rfind(w, lo, comma) for w in (" em ", " no ", " na ")) if k >= 0]
            piece_start = max(t.rfind(",", lo, comma), t.rfind(":", lo, comma), lo - 1, *after_word) + 1
            piece = t[piece_start:comma].strip()
            # (the part that opens with a head word may be a long name: "Zona Industrial da Cova das Faias")
            longest = 8 if self.head_start.match(piece) else 5
            if comma < 0 or t[comma + 1:start].strip() or not piece or not self._pieces_only(f", {piece}, ", longest):
                break
            # (or, before a postcode, the farthest part an address's opening word or label announces: "residente em
            # Moradia Sol Nascente, Vale da Pinta, 2065-000 Alcoentre"; not "Cliente: <name>, NIF ..., Rua ...")
            if self.head_start.match(piece) or CLOSING_CODE.search(m.text) and (piece_start > lo or lo == 0) and not self.lex.is_place(piece) \
                    and (piece_start - 1 in after_word or t[piece_start - 1] == ":" and t.endswith(self.labels, 0, piece_start - 1)
                         or piece_start == 0 and start == m.start and not t[m.end:].strip(" .;")  # (a letterhead's line)
                         and not self._party_named(piece)):
                best = piece_start + len(t[piece_start:comma]) - len(t[piece_start:comma].lstrip())
            start = piece_start
        return self.mention_like(m, t, best, m.end) if best < m.start else m

    def _party_named(self, piece: str) -> bool:
        """A part that names a person or a company: it opens with a known name, or holds a title or a legal form."""
        words = PIECE_WORD.findall(piece)
        opening = words[1] if len(words) > 1 and words[0].lower() in ARTICLES else words[0]  # ("The Old Rectory")
        return self.lex.is_name(opening) or any(w.lower().rstrip(".") in self.party_words for w in words)

    def _pieces_only(self, between: str, longest: int = 5) -> bool:
        pieces = [p.strip() for p in between.split(",")]
        # (a semicolon ends a list's item, not an address's part: "…, 1000-100 Lisboa; e Apartment 7, …")
        if len(pieces) > 6 or pieces[-1] or not NUMBER_REST.match(pieces[0]) or ";" in between:
            return False  # (the text between ends with a comma: ", Murches, ")
        for piece in pieces[1:-1]:
            words = PIECE_WORD.findall(piece)
            if not words or len(words) > longest or words[0].lower() in ("e", "and"):
                return False
            if not all(w[:1].isupper() or w[:1].isdigit() or w.lower() in self.piece_words for w in words):
                return False
        return True

    def mention_like(self, m, t: str, start: int, end: int):
        return type(m)(start=start, end=end, category=m.category, text=t[start:end], recognizer=m.recognizer,
                       rule=m.rule, subtype=m.subtype, score=m.score)
