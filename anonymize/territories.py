"""Countries and territories: public places, never a person or an organisation.

Their names come from libraries rather than typed lists: babel's territory names in Portuguese (``pt``,
``pt_PT``: Listenstaine, Ilhas Faroé) and English, and pycountry's ISO 3166 short and official names with
their Portuguese translations (Reino da Dinamarca, Confederação Suíça, Estados Unidos da América), and each
country's name in its own languages (babel's locales of that country: Deutschland, Suomi, Sverige, Ελλάδα),
which EU annexes print beside the Portuguese name (``Bélgica / Belgique / België``). The
official long forms the libraries lack are a class rule: an opener from ``places.long_form_openers`` in
the rules (Reino de X, República de X, Federação da X, Ilhas X) before a territory's name.

The names are built into ``data/territories.txt`` by ``python -m paranon.anonymize.lexicons`` (importing
pycountry and babel's locale data takes two seconds, which no run should pay); lexicons.py reads the file.
"""

from __future__ import annotations

import gettext

from ..text import phrase_key


def territory_names(given: set[str] | None = None) -> frozenset[str]:
    """Folded names of every country and territory, short and official, in Portuguese and English; ``given``:
    folded given names (by default the shipped ``names_first.txt``)."""
    import pycountry
    from babel import Locale

    names: set[str] = set()
    for loc in ("pt", "pt_PT", "en"):
        names.update(Locale.parse(loc).territories.values())
    names.update(endonyms())
    translations = [gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang], fallback=True)
                    for lang in ("pt", "pt_BR")]
    for c in pycountry.countries:
        for attr in ("name", "official_name", "common_name"):
            value = getattr(c, attr, None)
            if not value:
                continue
            names.add(value)
            names.update(t.gettext(value) for t in translations)
    # a one-word territory that is also a given name (Salvador, Maurício, Geórgia, França) is read as the name
    # when alone: recall first; the long forms (República de El Salvador, República Francesa) stay places
    if given is None:
        from .lexicons import _read

        given = _read("names_first.txt")
    # "Coreia, República da" is a sorting form, not one a text writes
    return frozenset(f for f in (phrase_key(n) for n in names if "," not in n and "(" not in n)
                     if " " in f or f not in given)



def endonyms() -> set[str]:
    """Each country's name in its own languages: the name babel's locale of a language in that country gives
    its own territory (``nl_BE``: België, ``fr_BE``: Belgique, ``el_CY``: Κύπρος)."""
    from babel import Locale, localedata

    out: set[str] = set()
    for ident in localedata.locale_identifiers():
        loc = Locale.parse(ident)
        if loc.territory and loc.territory.isalpha() and loc.territory in loc.territories:  # (no 001, 419)
            out.add(loc.territories[loc.territory])
    return out


def long_form(folded: list[str], openers: list[tuple[str, ...]], places: set[str] | frozenset[str]) -> bool:
    """Whether folded words are an official long form of a territory: an opener (``reino da``, ``ilhas``)
    and a territory's name (``reino da dinamarca``, ``federacao da russia``, ``confederacao suica``)."""
    for op in openers:
        n = len(op)
        if len(folded) > n and tuple(folded[:n]) == op and " ".join(folded[n:]) in places:
            return True
    return False
