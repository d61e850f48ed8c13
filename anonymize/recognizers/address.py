"""ADDRESS: Portuguese head-first streets, English tail-last streets, fused German/Dutch streets, postcodes.

An address grows right over names (a person's name inside a street name does not
stop it), numbers in every ``n.º`` variant, floors and sides, and a postal code
with its locality. A street name without any number or postcode is not precise
enough to identify anyone and is left alone, as is a bare city name.
"""

from __future__ import annotations

import regex

from ..recognizer import Gated, Recognizer, Segment, alternation, register

NAME_WORD = r"(?:[\p{Lu}\d][\p{L}\d'’.ºª-]*|d[aeo]s?|e|d'|de|of|the)"
NUMBER_SIGN = r"(?:n\.?\s?[º°o]\.?s?|nº|n\.|no\.?|nr\.?|n°)"
HOUSE_NUMBER = rf"(?:{NUMBER_SIGN}\s*)?\d+(?:\.?[º°ªo])?[\p{{L}}]?(?:\s?[-/]\s?\d+(?:\.?[º°ªo])?[\p{{L}}]?)*"
POSTCODE_PT = r"\d{4}\s?-\s?\d{3}(?![\d/-])(?:\s+[\p{Lu}][\p{L}'-]+(?:\s+(?:d[aeo]s?|[\p{Lu}][\p{L}'-]+))*)?"
POSTCODE_UK = r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b"
POSTCODE_NL = r"\b\d{4}\s?[A-Z]{2}\b(?:\s+[\p{Lu}][\p{L}-]+)?"
POSTCODE_EU = r"\b(?:[A-Z]{1,2}-)?\d{5}\s+[\p{Lu}][\p{L}-]+"


BETWEEN_STREET_AND_POSTCODE = regex.compile(r",?\s*(?:\p{Lu}[\p{L}'-]+\s+){1,3}")


@register("address")
class AddressRecognizer(Recognizer):
    assigns = ("ADDRESS",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        a = rules["address"]
        sub = rf"(?i:{alternation(a['sub_words'])})(?![\p{{L}}])"
        ordinal = r"\d+\.?\s?[º°ªo]\.?"
        grow = rf"(?:\s*,?\s*(?:{POSTCODE_PT}|{POSTCODE_UK}|{ordinal}|{HOUSE_NUMBER}|{sub}))"
        tail_after = rf"(?:\s*,?\s*(?:{HOUSE_NUMBER}|{POSTCODE_UK}|{POSTCODE_EU}|{POSTCODE_NL}))"
        heads, tails = alternation(a["heads"]), alternation(a["tails"])
        self.pt = Gated(regex.compile(
            rf"(?<![\p{{L}}])(?:{heads})(?:\s+{NAME_WORD}){{1,8}}?(?P<num>{grow}+)"), regex.compile(heads))
        self.en = Gated(regex.compile(
            rf"(?<![\p{{L}}\d])(?:(?P<num>\d+[a-zA-Z]?(?:[-/]\d+[a-zA-Z]?)?),?\s+)?(?:[\p{{Lu}}][\p{{L}}'’-]+\s+){{1,4}}"
            rf"(?:{tails})(?![\p{{L}}])(?P<after>{tail_after}*)"), regex.compile(tails))
        self.fused = regex.compile(
            rf"(?<![\p{{L}}])[\p{{Lu}}][\p{{L}}-]*(?i:{alternation(a['fused_suffixes'])})\s+\d+[a-zA-Z]?"
            rf"(?:\s*,\s*(?:{POSTCODE_NL}|{POSTCODE_EU}))?")
        # the alternatives on their own are five times faster than together (no shared look-behind)
        self.postcode = Gated(regex.compile(rf"(?<![\d-]){POSTCODE_PT}|{POSTCODE_UK}"),
                              regex.compile(rf"(?<![\d-]){POSTCODE_PT}"), regex.compile(POSTCODE_UK))

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
        for m in self.pt.finditer(t):
            if inside_org[m.start()]:
                continue
            add(m.start(), m.end(), "address:pt-head")
        for m in self.fused.finditer(t):
            add(m.start(), m.end(), "address:fused")
        for m in self.en.finditer(t):
            if m.group("num") or m.group("after").strip(" ,"):
                add(m.start(), m.end(), "address:en-tail")
        for m in self.postcode.finditer(t):
            prev = max((x for x in out if x.end <= m.start()), key=lambda x: x.end, default=None)
            # "10a Belmont Street, London NW1 8HH": the town between street and postcode is part of the address
            if prev is not None and BETWEEN_STREET_AND_POSTCODE.fullmatch(t[prev.end:m.start()]):
                out.remove(prev)
                taken[prev.start:prev.end] = bytes(prev.end - prev.start)
                add(prev.start, m.end(), prev.rule)
                continue
            add(m.start(), m.end(), "address:postcode")
        return out
