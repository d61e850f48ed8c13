"""The comma-separated parts around a found address, in the layouts of many countries, for both languages.

An address is written as parts separated by commas: street and number, building, floor or room, district,
town with or without a postcode, country. The recognizers find a sure core (a street with its number, a
postcode); this module reads the parts around it:

- after it, a floor or room, a postcode in any common layout (``Shenzhen 518040``, ``Kyiv 01001``,
  ``CA 94109``, ``CEP 01414-001``) and the town that follows the last numbered part (``…, 20.º andar,
  Macau``), but not a country after a town (``…, 8001 Zürich, Suíça``: the gold and the policy keep
  countries public);
- before it, the parts that open with a room, flat, block or floor (``Room 1806, Block B, Tianan Cyber
  Park, …``, ``18/F, …``, ``Flat 3, 27 …``): an address written smallest part first, as in Chinese, Hong
  Kong and British layouts.

A capitalized part alone is never an address: it joins only next to a sure part. Unit words come from the
rules (``address_unit_words``), countries from the lexicons' territories.
"""

from __future__ import annotations

import regex

from ..text import phrase_key
from .recognizer import alternation, literal_gate

# one comma-separated part after a position: what runs to the next comma, semicolon, colon, bracket, dash
# between spaces, or a dot that ends the sentence
# (a town and its Brazilian state after a dash is one part: "Porto Alegre – RS"; a dot after a floor's number is no
# sentence end: "3. OG")
NEXT_PART = (r"(?P<sep>\s*,\s*|\s+[–—·|-]\s+)(?P<part>(?:{place})\s+[–—-]\s+[A-Z]{{2}}(?=\s*[,;.)]|\s*$)"
             # (a postcode's word and a colon before it: "CEP: 01310-200", "Código Postal: 1200-093 Lisboa")
             r"|(?i:cep|c[óo]digo\s+postal|post(?:al)?\s?code|zip\s?code)\s*:\s*[^,;:()\[\]\n–—]{{1,40}}?"
             r"|[^,;:()\[\]\n–—]{{1,60}}?)"
             r"(?=\s*(?:[,;:()\[\]]|\.(?:\s+(?!(?:{floors})(?![\p{{L}}]))\p{{Lu}}|\s*$)|\s[–—·|-]\s|$))")
# the words of a town or district: capitalized, with the particles place names keep (Vila Nova de Gaia); an
# acronym opens one before a capitalized word ("GIDC Estate")
PLACE_WORDS = (r"(?:\p{Lu}[\p{Ll}'’-]+\.?|\p{Lu}{2,5}(?=\s+\p{Lu}\p{Ll}))"
               r"(?:[\s-]+(?:(?:d[aeo]s?|de|del|la|le|sur|am|an|bei|im|upon|on)\s+)?\p{Lu}[\p{Ll}'’-]+\.?){0,3}")
PLACE = regex.compile(PLACE_WORDS)
PO_BOX = r"(?:P\.?\s?O\.?\s+Box|Apartado|Caixa Postal|Postfach|BP)\s+\d{1,6}"
# a town in capitals after its postcode ("1269-046 LISBOA")
TOWN_AFTER_CODE = rf"(?:{PLACE_WORDS}|\p{{Lu}}{{2,}}(?:[\s-]+(?:D[AEO]S?\s+)?\p{{Lu}}{{2,}}){{0,3}})"
UK_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}"
# the Canadian postcode ("M5H 1J8")
CA_POSTCODE = r"[ABCEGHJ-NPRSTVXY]\d[A-Z]\s?\d[A-Z]\d"
# the Irish Eircode: a routing key (a letter, two digits; D6W) and a four-character unique identifier ("D02 X285")
EIRCODE = r"(?:[AC-FHKNPRTV-Y]\d{2}|D6W)\s?[0-9AC-FHKNPRTV-Y]{4}"
# a town with its postcode or a postcode alone, in the layouts of Portugal, Brazil, the EU, the UK, the US, China,
# Ukraine; a PO box; a Brazilian town with its state
# the postcode's own word before it ("código postal 4100-130 Porto", "postcode 4100-130 Porto", "zip code 01310-100")
POSTCODE_WORD = r"(?:(?i:c[óo]digo\s+postal|post(?:al)?\s?code|zip\s?code)\s*:?\s*)"
CODE_PART = regex.compile(
    rf"{POSTCODE_WORD}?(?:"
    rf"(?:{PLACE_WORDS})\s+\d{{5,6}}|\d{{4}}\s?[A-Z]{{2}}\s+(?:{PLACE_WORDS})|(?:[A-Z]{{1,2}}-)?(?:\d{{4,6}}|\d{{2}}-\d{{3}})(?:-\d{{3}})?\s+{TOWN_AFTER_CODE}"
    rf"(?:\s+[A-Z]{{2}})?"  # (a province's or canton's code after the town: "50124 Firenze FI", "8703 Erlenbach ZH")
    rf"|(?:(?:{PLACE_WORDS})\s+)?(?:{UK_POSTCODE}|{EIRCODE})|[A-Z]{{2}}\s+\d{{5}}(?:-\d{{4}})?|CEP:?\s*\d{{5}}-?\d{{3}}"
    rf"|{PO_BOX}|(?:{PLACE_WORDS})\s*[-/–—]\s*[A-Z]{{2}}"
    # a Brazilian CEP without its word ("01310-200"); a Swedish postcode and town ("111 43 Stockholm"); a state or
    # province and its postcode after the town ("Sydney NSW 2000"), a Canadian postcode ("ON M5H 1J8")
    rf"|\d{{5}}-\d{{3}}|\d{{3}}\s\d{{2}}\s+{TOWN_AFTER_CODE}|(?:{PLACE_WORDS})\s+[A-Z]{{2,3}}\s+\d{{4,5}}"
    rf"|(?:[A-Z]{{2}}\s+)?{CA_POSTCODE})")
# a house number before a name ("89 Queensway", "No. 88 Century Avenue")
NUMBER_FIRST = regex.compile(r"(?:No\.?\s*|n\.?\s?º\s*)?\d{1,5}[A-Za-z]?\s+(?=\p{Lu})")
# a name with a number after it: a building, a road, a district ("Tower 2", "Estrada Municipal 313", "Jumeirah 1")
# (or a Roman numeral: "Phase II"), or a house number before such a name ("No. 88 Lane 1500")
NUMBER_AFTER = regex.compile(rf"(?:(?:No\.?\s*)?\d{{1,5}}\s+)?(?:{PLACE_WORDS})\s+(?:\d{{1,4}}[A-Z]?|[IVX]{{1,4}}(?![\p{{L}}]))")
OPENER = regex.compile(r"(?<![\p{L}])(?:em|no|na|at|in)\s+|:\s*")  # words before an address's first part
PO_BOX_AT = regex.compile(PO_BOX)
# a house without a number, in the words that stand for its number ("s/n", "sem número", "no number")
NO_NUMBER = regex.compile(r"(?i:s/n\.?|sem\s+n(?:úmero|\.?\s?º)|no\s+number|without\s+(?:a\s+)?number|unnumbered)")
DIGIT = regex.compile(r"\d")
# where an address's first part may open (also after a semicolon that ends a list's item: "…; e Apartment 12, …")
ANCHOR_AT = regex.compile(r"^|[,:]\s*|;\s*(?:(?:e|and)\s+)?|(?<![\p{L}])(?:em|no|na|at|in)\s+")
# a town part that ends at "e"/"and" and a lower-case word, not at a comma ("…, n.º 12, Lisboa e portador")
TOWN_AND = regex.compile(rf"\s*,\s*(?P<part>{PLACE_WORDS})(?=\s+(?:e|and)\s+\p{{Ll}})")
# a named district of a town: the town's name follows it ("Bairro Maianga, Luanda", "Urbanização Quinta Nova, Loulé")
DISTRICT = regex.compile(r"(?:Bairro|Urbanização|Urb\.|Jardim|Distrito|Colonia|Colónia)\s+(?:d[aeo]s?\s+)?\p{Lu}|.+\sDistrict$")
STATE = regex.compile(r"[A-Z]{2}")
# a sector of Brasília and its block, as its addresses write them: the sector's capitals ("S" for "setor": SQN, SHIS,
# SCLN; a commercial or residential strip, CLN, EQS), maybe a block's letters (QI, QL) and a number ("SQN 308",
# "SHIS QI 15", "CLN 214")
BRASILIA_SECTOR = regex.compile(r"(?:S[A-Z]{1,4}|CL[NS]|EQ[NS])(?:\s+Q[A-Z]{0,2})?\s+\d{1,4}(?:/\d{1,4})?(?:\s+[A-Z](?![\p{L}]))?")
COMMA_AT_END = regex.compile(r",\s*$")
CODE_AT_END = regex.compile(r"(?<![\d-])(?:\d{4,6}|\d{2}-\d{3}|\d{4}-\d{3})$")
TOWN_NEXT = regex.compile(rf"\s+{TOWN_AFTER_CODE}(?=\s*(?:[,;:)]|\.(?:\s|$)|$))")
WINDOW = 200  # characters before an address in which its first parts are looked for
MOST_PARTS = 6


class AddressEdges:
    """Widen found addresses over the parts around them; ``unit_words``: a room, floor, block, flat …"""

    def __init__(self, unit_words: list[str], side_words: list[str], countries: frozenset[str] | set[str],
                 area_words: list[str] = (), city_territories: list[str] = (), floor_words: list[str] = (),
                 district_words: list[str] = (), district_words_after: list[str] = (), street_heads: list[str] = ()) -> None:
        units = alternation(sorted({w.lower() for w in unit_words}))  # (a trie: matched case-insensitively)
        ordinal = r"\d{1,3}\s?(?:\.?\s?[º°ª]|st|nd|rd|th)"
        # a floor written number, dot or letters, then a floor word ("3. OG", "2e étage", "1. Stock")
        floors = alternation(sorted(set(floor_words))) or "(?!)"
        floor = rf"\d{{1,2}}(?:\.|e|ème|er|re)?\s?(?:{floors})(?![\p{{L}}])"
        self.next_part = regex.compile(NEXT_PART.format(place=PLACE_WORDS, floors=floors))
        sides = "|".join(regex.escape(w) for w in sorted(set(side_words), key=len, reverse=True))
        # the side of a floor right after the address ("3.º izquierda", "3rd left"): the address goes on
        self.side = regex.compile(rf"\s+(?i:(?:{sides}))(?![\p{{L}}])"
                                  r"|(?<=(?i:andar|floor|piso|planta|étage)|[º°ª])\s+\p{Lu}(?![\p{L}\d'’.])")
        self.unit = regex.compile(
            rf"(?i:(?:{units}))\.?\s*(?:n\.?\s?º\s*|No\.?\s*)?[\dA-Z][\w./-]*(?:\s+\p{{Lu}}(?![\p{{L}}]))?"
            rf"|{ordinal}\s*(?i:(?:{units}))(?:\s+\p{{Lu}}(?![\p{{L}}]))?(?:\s+(?i:(?:{sides}))(?![\p{{L}}]))?"
            rf"|(?:n\.?\s?[º°]\.?|nº\.?|no\.)\s*\d{{1,5}}[A-Za-z]?(?:-[A-Za-z\d]{{1,3}})?"  # ("n.º 100", "nº 7-A")
            rf"|{floor}|{ordinal}(?:\s+\p{{Lu}}(?![\p{{L}}])|\s+(?i:(?:{sides}))(?![\p{{L}}]))?|\d{{1,3}}/F|#\d{{1,3}}-\d{{1,4}}|(?i:r/c)(?:\s+\p{{L}}+)?|\d{{1,5}}[A-Za-z]?")
        self.countries = countries
        # a street's name as a part of an address with no number ("…, Caminho do Pico Arde, Fenais da Luz"): the
        # place after it is its town
        self.street_part = regex.compile(rf"(?:{alternation(sorted(set(street_heads))) or '(?!)'})\s")
        self.city_territories = {phrase_key(w) for w in city_territories}
        # an administrative area named in an address ("freguesia de Ronfe", "parish of Marvila"): a place part
        areas = "|".join(regex.escape(w) for w in sorted(set(area_words), key=len, reverse=True)) or "(?!)"
        # (or a named district, its word in any case: "bairro Moinhos de Vento", "urbanização Quinta Nova")
        districts = "|".join(regex.escape(w) for w in sorted(set(district_words), key=len, reverse=True)) or "(?!)"
        self.area = regex.compile(rf"(?i:{areas})\s+(?:d[aeo]s?|of)\s+(?:{PLACE_WORDS})"
                                  rf"|(?i:{districts})\s+(?:d[aeo]s?\s+)?(?:{PLACE_WORDS})"
                                  rf"|(?:{PLACE_WORDS})\s+(?i:{alternation(list(district_words_after)) or '(?!)'})")
        self.first_unit = regex.compile(
            rf"(?<![\p{{L}}\d])(?:(?i:(?:{units}))\.?\s*(?:No\.?\s*)?[\dA-Z][\w./-]*|{ordinal}\s*(?i:(?:{units}))|\d{{1,3}}/F|{PO_BOX})(?=\s*,)")
        # (its gate reads the lower-cased text case-sensitively: several times faster than a case-blind trie; with
        # the standard library's re, three times faster again: a search for literals, where both find the same)
        self.first_unit_gate = literal_gate(rf"{units}|\d/f|box|apartado|caixa|postfach|bp")

    def _kind(self, part: str) -> str:
        """``sure`` (a unit, a number, a postcode), ``code`` (a postcode with its town), ``place``, or ``''``."""
        if CODE_PART.fullmatch(part):
            return "code"
        first = NUMBER_FIRST.match(part)
        if self.unit.fullmatch(part) or NUMBER_AFTER.fullmatch(part) or NO_NUMBER.fullmatch(part) or first and PLACE.fullmatch(part, first.end()) \
                or self.area.fullmatch(part) or BRASILIA_SECTOR.fullmatch(part):  # (an administrative area: "freguesia de
            # Ronfe", "bairro Moinhos de Vento"; a sector of Brasília: "SQN 308")
            return "sure"
        if PLACE.fullmatch(part):
            return "country" if phrase_key(part) in self.countries else "place"
        return ""

    def end(self, text: str, end: int) -> int:
        """The end of the address that ends at ``end``: the floor, room, postcode parts after it and the town
        after its last such part (a place followed by a sure part is a building or district: it joins too)."""
        return self.extent(text, end)[0]

    def extent(self, text: str, end: int) -> tuple[int, int]:
        """``end`` and how many sure parts (units, numbers, postcodes) the address gained."""
        last = text[max(text.rfind(",", max(0, end - 60), end) + 1, end - 60, 0):end].strip()
        # an address that already ends with its town or postcode takes no more place (a country follows)
        side = self.side.match(text, end)
        end = side.end() if side else end
        town_taken = bool(CODE_PART.fullmatch(last)) and not PO_BOX_AT.fullmatch(last)
        unnumbered = not DIGIT.search(last) and not NO_NUMBER.search(last)  # (no number yet: "Lugar do Souto, …")
        if not town_taken and CODE_AT_END.search(text, max(0, end - 8), end) and (town := TOWN_NEXT.match(text, end)):
            end, town_taken = town.end(), True  # the town after a postcode the address already took ("00-590 Warszawa")
        pos, best, pending, sure, first_place, country_after = end, end, [], 0, "", False
        dashed = False  # (a district after a dash joins only before a postcode: "1200 - Jardim Paulista, São Paulo - SP")
        for _ in range(MOST_PARTS):
            m = self.next_part.match(text, pos)
            if not m:
                break
            kind = self._kind(m.group("part"))
            if kind == "" and pending and STATE.fullmatch(m.group("part")):
                kind = "place"  # a state's letters after the town, a postcode after them ("São Paulo, SP, CEP …")
            if kind == "sure" and pending and m.group("part").isdigit() and len(m.group("part")) >= 4:
                kind = "code"  # a postcode after its town: "Lviv, 79000"
            if m.group("sep").strip() != "," and (kind not in ("code", "sure") or m.group("part").isdigit()):
                if kind != "place" or pending or best > end or dashed:
                    break  # (after a dash, a postcode or a floor: "Rua das Flores, 23 – 4050-262 Porto", "5 – 2.º Esq.")
                dashed = True
            if kind in ("sure", "code"):
                dashed = dashed and kind != "code"
                # (a PO box is no town: "Caixa Postal 3321, Maputo")
                best, pending, town_taken = m.end("part"), [], kind == "code" and not PO_BOX_AT.fullmatch(m.group("part"))
                sure += 1
            elif kind == "place" or kind == "country" and not town_taken and not pending:
                first_place = m.group("part") if not pending else first_place
                pending.append(m.end("part"))
            elif kind == "country" and len(pending) == 1 and not town_taken \
                    and phrase_key(m.group("part")) in self.city_territories:
                pending[0] = m.end("part")  # a district and its town, a territory that is one city ("Taipa, Macau")
                town_taken = True  # (hence no later place: "…, Macau, Hong Kong" ends at Macau)
                best = max(best, pending.pop())
                break
            else:
                country_after = kind == "country"
                break
            pos = m.end("part")
        if dashed:
            return end, sure  # (a district after a dash and no postcode: "Rua X, 5 – Lisboa" ends at its number)
        if not pending and not town_taken and (town := TOWN_AND.match(text, pos)) \
                and self._kind(town.group("part")) in ("place", "country"):
            pending.append(town.end("part"))  # the town before "e"/"and" and a lower-case word ("…, Lisboa e filial")
        if len(pending) > 1 and not town_taken and (DISTRICT.match(first_place) or unnumbered and not sure
                                                    and self.street_part.match(first_place)
                                                    or len(pending) == 2 and country_after):
            best = max(best, pending[1])  # a district or street and its town ("…, Bairro Maianga, Luanda"; "…, Alvalade,
            # Lisboa, Portugal"; "…, Caminho da Fonte, Vila Cova")
        if pending and (not town_taken or len(pending) == 1 and country_after):
            best = max(best, pending[0])  # the town after the last numbered part; a region between the postcode's town
            # and the country ("Ahmedabad 382445, Gujarat, Índia")
        return best, sure

    def unit_first(self, text: str) -> list[tuple[int, int]]:
        """Addresses written smallest part first with no street word: a room, flat, block or floor opening the
        text, a part or an address's opening word, then at least one more numbered part or postcode
        (``Room 2203, Tower 2, Lippo Centre, 89 Queensway, Admiralty``; ``18/F, Block C, …, Shenzhen 518067``)."""
        out: list[tuple[int, int]] = []
        if "," not in text or not DIGIT.search(text):  # (a first part ends at a comma: ``(?=\s*,)``)
            return out  # (every such address has a number: a segment without one is not read)
        if not self.first_unit_gate.search(text.lower()):
            return out
        for a in ANCHOR_AT.finditer(text):  # (the unit is tried only where a part may open, not everywhere)
            m = self.first_unit.match(text, a.end())
            if not m:
                continue
            end, sure = self.extent(text, m.end())
            start = self.start(text, m.start(), anchored=True)
            # (a room or flat with only places after it is an address when a place opened it: "em Marina
            # Heights, Apartment 2305, Dubai Marina")
            if (sure or PO_BOX_AT.match(m.group()) or start < m.start()) and end > m.end() \
                    and (not out or start >= out[-1][1]):
                out.append((start, end))
        return out

    def start(self, text: str, start: int, anchored: bool = False) -> int:
        """The start of the address that starts at ``start``: parts before it back to the farthest one that
        opens with a room, floor, flat or block or a house number (every part between a place or a unit), or to
        a place after an address's opening word when a sure part follows it (``anchored``: the address itself
        opens with one)."""
        lo, pos, best = max(0, start - WINDOW), start, start
        for _ in range(MOST_PARTS):
            head = text[lo:pos]
            if not COMMA_AT_END.search(head):
                break
            comma = lo + head.rstrip().rfind(",")
            part_start = max(text.rfind(",", lo, comma) + 1, lo)
            openers = list(OPENER.finditer(text, part_start, comma))
            if openers:
                part_start = openers[-1].end()
            part = text[part_start:comma].strip()
            kind = self._kind(part) if part else ""
            if kind not in ("sure", "place", "code"):
                break
            pos = part_start
            if kind == "sure" or kind == "place" and openers and (best < start or anchored):
                # (a street name written without a street word, after "em"/"at": "em Vulytsia Sadova, 22, …")
                best = part_start + len(text[part_start:comma]) - len(text[part_start:comma].lstrip())
        return best
