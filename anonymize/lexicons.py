"""Name, place and common-word lexicons, built from well-kept sources rather than typed in.

* first names and surnames: Faker's person providers (pt_PT, pt_BR, en, es, fr, de,
  it, nl) plus the person names (``SEM=p``) of Debian's hunspell-pt-pt dictionary;
* public place names: hunspell's ``SEM=cid|ter|country|cont|rio|mar`` entries, and Faker's Brazilian states
  (a multi-word place is matched whole: Mato Grosso);
* ordinary Portuguese words (to tell ``a CONTA`` from a name): hunspell's common
  nouns, adjectives, verbs and adverbs, plus wordfreq's most frequent Portuguese words;
* the dictionary's lower-case lemmas alone (``lemmas_pt.txt``, for ``dictionary.py``).

``python -m paranon.anonymize.lexicons`` rebuilds the files in ``anonymize/data``;
the built files are shipped so that a run needs neither hunspell nor a network.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

from ..text import _fold, fold
from ..yaml_files import read_yaml

DATA = Path(__file__).parent / "data"
HUNSPELL_DIC = Path("/usr/share/hunspell/pt_PT.dic")
FAKER_LOCALES = ("pt_PT", "pt_BR", "en_GB", "en_US", "es_ES", "fr_FR", "de_DE", "it_IT", "nl_NL")
LATIN_NAME = re.compile(r"^[A-Za-zÀ-ÖØ-öø-ÿĀ-ž][A-Za-zÀ-ÖØ-öø-ÿĀ-ž'’ -]+$")
PLACE_SEMS = {"cid", "ter", "country", "cont", "rio", "mar", "pl", "po"}
# hunspell's closed word classes: prepositions, conjunctions, adverbs, pronouns, quantifiers, numerals (not
# interjections: Jesus, Socorro)
NAMELIKE_MAX_ZIPF = 4.0  # see _namelike
# endings of derived words (vendedora, interceptação, militarismo): such a word is ordinary, never name-like
DERIVED_ENDINGS = ("dor", "dora", "dores", "doras", "ção", "ções", "são", "sões", "mento", "mentos", "dade", "dades",
                   "mente", "ismo", "ismos", "ista", "istas", "ável", "áveis", "ível", "íveis", "ência", "ências",
                   "ância", "âncias", "ório", "ória", "ários", "árias", "ário", "ária")
CLOSED_CATS = {"prep", "con", "adv", "pind", "ppes", "cp", "modo", "lugar", "tempo", "quant", "card", "nord",
               "pdem", "pos", "ppr", "prel", "pint", "art"}


def _faker_names() -> tuple[set[str], set[str]]:
    """First and last names: every Latin-script Faker locale (court records name people of every origin:
    Edson, Gisele, Alisson are pt_BR names missing from the core lists). Names from the non-core locales
    that are among the 5,000 most frequent Portuguese words (para, mais, como) are left out."""
    import importlib
    import pkgutil

    import faker.providers.person as person_providers
    from wordfreq import top_n_list

    # name particles are no surnames (the language's YAML, ``lexicon_particles``)
    rules = read_yaml(DATA / "pt.yaml")
    particles = set(rules["lexicon_particles"])
    # compared folded: "Dai" (a name elsewhere) is "daí" (hence) here
    frequent = {_fold(w) for w in top_n_list("pt", 5000)} | {_fold(w) for w in top_n_list("en", 5000)}
    first: set[str] = set()
    last: set[str] = set()
    locales = [m.name for m in pkgutil.iter_modules(person_providers.__path__)]
    for loc in [*FAKER_LOCALES, *sorted(set(locales) - set(FAKER_LOCALES))]:
        try:
            prov = importlib.import_module(f"faker.providers.person.{loc}").Provider
        except (ImportError, AttributeError):
            continue
        core = loc in FAKER_LOCALES
        for attr, target in (("first_names", first), ("first_names_male", first), ("first_names_female", first),
                             ("last_names", last)):
            names = getattr(prov, attr, ()) or ()
            if not isinstance(names, (list, tuple, dict, set)):
                continue  # some locales compute their lists (a property): skip them
            for name in names:
                if not isinstance(name, str) or not LATIN_NAME.match(name):
                    continue
                # compound given names count part by part: "Luiz Fernando" makes "Luiz" a first name
                for part in [name, *name.split()] if " " in name else [name]:
                    if len(part) > 2 and (core or _fold(part) not in frequent) and part.lower() not in particles:
                        target.add(part)
    return first, last


@lru_cache(maxsize=1)
def _hunspell_entries() -> tuple[tuple[str, str], ...]:
    """(word, whole line) of each entry of the dictionary, read once for every list built from it (none when it
    is not installed)."""
    if not HUNSPELL_DIC.exists():
        return ()
    return tuple((line.split("/", 1)[0].split("\t", 1)[0].strip(), line)
                 for line in HUNSPELL_DIC.read_text(encoding="utf-8").splitlines()[1:])


def _hunspell() -> tuple[set[str], set[str], set[str]]:
    people: set[str] = set()
    places: set[str] = set()
    common: set[str] = set()
    for word, line in _hunspell_entries():
        cat = re.search(r"CAT=(\w+)", line)
        sem = re.search(r"SEM=(\w+)", line)
        if not word or not cat:
            continue
        if cat.group(1) == "np":
            if sem and sem.group(1) == "p":
                people.add(word)
            elif sem and sem.group(1) in PLACE_SEMS:
                places.add(word)
        elif cat.group(1) in ("nc", "adj", "v", "adv", "a_nc", "prep", "con", "in") and word.islower():
            common.add(word)
    return people, places, common


def _hunspell_closed() -> set[str]:
    """Words of hunspell's closed classes (``durante``, ``nada``, ``contudo``): at a sentence start they are
    ordinary words, never names, whatever a name list says (Durante and Nada are names elsewhere)."""
    out: set[str] = set()
    for word, line in _hunspell_entries():
        cat = re.search(r"CAT=(\w+)", line)
        if word and cat and cat.group(1) in CLOSED_CATS and word.isalpha() and word.islower():
            out.add(word)
    return out


def _hunspell_lemmas() -> set[str]:
    """Every lower-case lemma of the dictionary, for ``dictionary.py``'s test of a word of the language (no
    wordfreq words: wordfreq counts the names frequent in news as words)."""
    return {w for w, _ in _hunspell_entries() if w.islower() and w.isalpha()}


def _namelike(common_words: set[str], hunspell_common: set[str]) -> set[str]:
    """Words of the common list that come from wordfreq alone and inflect no dictionary word: wordfreq counts
    the names frequent in news (Laércio, Padilha, Khomeini) as words. Snowball's Portuguese stemmer (as
    whoosh ships it) relates an inflected form to its dictionary stem (caminhavam ~ caminhar); a word
    with no such stem is read as a name, not an ordinary word."""
    from whoosh.lang import stemmer_for_language

    stem = stemmer_for_language("pt")
    stems = {stem(w) for w in hunspell_common}
    # frequent words (pelo, república) and short ones (art, nr) are ordinary whatever their stem; lookups are
    # folded, so a spelling (pêlo, republica) is name-like only if every word it folds with is
    def inflects(w: str) -> bool:  # a feminine or plural of a dictionary word (vendedora, vendedoras, advogada)
        forms = {w[:-1], w[:-2], w[:-1] + "o", w[:-2] + "o", w[:-2] + "os"}
        return bool(forms & hunspell_common) or stem(w) in stems

    out = {w for w in common_words if w not in hunspell_common and not inflects(w) and len(w) >= 4
           and zipf(w) < NAMELIKE_MAX_ZIPF and not w.endswith(DERIVED_ENDINGS)}
    ordinary = {fold(w) for w in common_words - out}
    return {w for w in out if fold(w) not in ordinary}


def _faker_places(names: set[str]) -> set[str]:
    """Brazilian states from Faker's pt_BR address provider (hunspell's pt_PT place entries have none: Mato
    Grosso, Pernambuco). A one-word state that a name list also has is left out: a place counts against a
    name, and recall comes first (Portugal's municipalities are left out for that reason: Moura, Abrantes,
    Pombal are surnames as often as towns)."""
    from faker.providers.address.pt_BR import Provider as Brazil

    out = {name for _, name in getattr(Brazil, "estados", ()) if isinstance(name, str) and LATIN_NAME.match(name)}
    return {p for p in out if " " in p or fold(p) not in names}


def build(out: Path = DATA) -> dict[str, int]:
    """Write names_first.txt, names_last.txt, places.txt, common_pt.txt, namelike_pt.txt, closed_pt.txt,
    lemmas_pt.txt and territories.txt; return their sizes."""
    from wordfreq import top_n_list

    first, last = _faker_names()
    people, places, common = _hunspell()
    # hunspell's person entries carry no first/last distinction: a name Faker knows as a
    # first name stays one, every other entry counts as a surname (recall-first: both are names).
    first_f = {fold(n) for n in first}
    last |= {p for p in people if fold(p) not in first_f}
    # wordfreq's frequent words include the names frequent in news (Luiz, Toffoli's colleagues Gilson, Dias):
    # a word a name list knows is ordinary only if hunspell lists it as a common word (rosa, costa)
    names = {fold(n) for n in first | last | people}
    places |= _faker_places(names)
    from .territories import territory_names

    hunspell_common = set(common)
    common |= {w for w in top_n_list("pt", 40000) if w.isalpha() and fold(w) not in names}
    files = {"names_first.txt": first, "names_last.txt": last, "places.txt": places, "common_pt.txt": common,
             "namelike_pt.txt": _namelike(common, hunspell_common),
             "closed_pt.txt": _hunspell_closed(), "lemmas_pt.txt": _hunspell_lemmas(), "territories.txt": territory_names({fold(n) for n in first})}
    sizes = {}
    for name, words in files.items():
        items = sorted({w.strip() for w in words if w.strip()})
        (out / name).write_text("\n".join(items) + "\n", encoding="utf-8")
        sizes[name] = len(items)
    return sizes


def _read(name: str) -> set[str]:
    path = DATA / name
    if not path.exists():
        raise FileNotFoundError(f"{path}: lexicon missing; rebuild with `python -m paranon.anonymize.lexicons`")
    return {fold(w) for w in path.read_text(encoding="utf-8").split("\n") if w}


class Lexicons:
    """Folded-form sets; shared by all recognizers of a process."""

    def __init__(self) -> None:
        self.first = _read("names_first.txt")
        self.last = _read("names_last.txt")
        # countries and territories (babel, pycountry: territories.py) are public places like places.txt's towns
        self.territories = _read("territories.txt")
        self.places = _read("places.txt") | self.territories
        self.closed = _read("closed_pt.txt")
        common = _read("common_pt.txt")
        # a word that is a known first name is not "ordinary" even if it is also a noun (Rosa, Vitória); nor is
        # a word only wordfreq knows that inflects no dictionary word (Laércio, Padilha: see _namelike)
        self.namelike = _read("namelike_pt.txt")
        self.common = common - self.first - self.namelike

    def is_name(self, word: str) -> bool:
        f = fold(word)
        return f in self.first or f in self.last

    def is_common(self, word: str) -> bool:
        return fold(word) in self.common

    def is_ordinary(self, word: str, min_zipf: float, surnames_too: bool = False) -> bool:
        """A word of the language that no name list knows: in the common list, or at least ``min_zipf`` in
        wordfreq's Portuguese (which has the inflected and derived forms the common list, hunspell's
        stems, lacks: ``prescricional``, ``denegada``). For telling headings and titled legal concepts
        (``NEGO PROVIMENTO AO RECURSO``, ``Chefe do Poder Executivo``) from names. With ``surnames_too``, a
        surname that is also a common word (Poder, Costa) counts as ordinary: for fall-backs, which run
        after the person rules have had their say on such words."""
        f = fold(word)
        if f in self.first or f in self.last and not (surnames_too and f in self.common):
            return False
        return f in self.common or zipf(word.lower()) >= min_zipf

    def is_place(self, word: str) -> bool:
        return fold(word) in self.places


@lru_cache(maxsize=200_000)
def zipf(word: str) -> float:
    """wordfreq's frequency of a Portuguese word (Zipf scale), cached."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "pt")


@lru_cache(maxsize=1)
def lexicons() -> Lexicons:
    return Lexicons()


if __name__ == "__main__":
    print(build(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA))
