"""One entity, one number, both sides: an English date the Portuguese side of the pair shows stays visible."""

from __future__ import annotations

import pytest
from paranon.align.sides import drop_dates_shown_in_source, drop_spread_words, visible_source_dates
from paranon.corpora.model import Mention, SegmentPair

from paranon.inmemory import process_in_memory


def _date(text: str, tgt: str, entity: int, recognizer: str = "consistency") -> Mention:
    s = tgt.index(text)
    return Mention(s, s + len(text), "DATE", text, recognizer, "test", entity=entity)


def _src_date(src: str, text: str, entity: int) -> Mention:
    s = src.index(text)
    return Mention(s, s + len(text), "DATE", text, "date", "test", entity=entity)


@pytest.mark.parametrize("src, masked_src, tgt, date_en, visible", [
    # an act's date the source keeps public: its English spread is dropped
    ("de 18 de fevereiro de 2019", None, "of 18 February 2019", "18 February 2019", True),
    ("O Regulamento (UE) 2017/363 da Comissão, de 1 de março de 2017, altera", None,
     "Commission Regulation (EU) 2017/363 of 1 March 2017 amends", "1 March 2017", True),
    ("é revogado com efeitos a partir de 11 de setembro de 2018.", None,
     "is repealed with effect from 11 September 2018.", "September 2018", True),   # a partial spread
    ("JO L 35 de 4.2.2009, p. 47.", None, "OJ L 35 of 4 February 2009, p. 47.", "4 February 2009", True),
    # the source masks the date: the English one is the same entity and stays masked
    ("assinado em 18 de fevereiro de 2019", "18 de fevereiro de 2019", "signed on 18 February 2019",
     "18 February 2019", False),
    # the source shows another date: the English one stays masked
    ("de 18 de fevereiro de 2019", None, "of 19 February 2019", "19 February 2019", False),
    ("de 18 de fevereiro de 2019", None, "of 18 February 2018", "18 February 2018", False),
    # a month name alone in Portuguese is no date ("marco" is also a landmark)
    ("o marco geodésico", None, "the landmark of March 2019", "March 2019", False),
])
def test_an_english_date_follows_the_portuguese_sides_public_date(src, masked_src, tgt, date_en, visible):
    ms = [_src_date(src, masked_src, 1)] if masked_src else []
    entity = 1 if masked_src else 7
    kept = drop_dates_shown_in_source(src, ms, [_date(date_en, tgt, entity)])
    assert (kept == []) is visible


def test_other_categories_and_source_entities_are_left_alone():
    src = "de 18 de fevereiro de 2019"  # the English: "Mr Smith of 18 February 2019"
    person = Mention(0, 8, "PERSON", "Mr Smith", "consistency", "test", entity=3)
    assert drop_dates_shown_in_source(src, [], [person]) == [person]


@pytest.mark.parametrize("src, values", [
    ("de 18 de fevereiro de 2019 e de 3 de agosto de 2012", [(18, 2, 2019), (3, 8, 2012)]),
    ("JO L 224 de 21.8.2012, p. 1", [(21, 8, 2012)]),
    ("em maio", []),
])
def test_the_dates_a_source_shows(src, values):
    assert sorted(visible_source_dates(src, [])) == sorted(values)


def _spread(text: str, category: str, entity: int, recognizer: str = "consistency") -> Mention:
    return Mention(0, len(text), category, text, recognizer, "corpus:test", entity=entity)


@pytest.mark.parametrize("text, category, on_source_side, recognizer, kept", [
    # a Portuguese form spread onto an English word, its entity absent from the pair's source side
    ("Code", "PERSON", False, "consistency", False),
    ("Council", "ORGANIZATION", False, "consistency", False),
    ("Liechtenstein", "PERSON", False, "consistency", False),          # a country
    # a phrase of frequent English words: a heading, a generic title
    ("POWER OF ATTORNEY", "ORGANIZATION", False, "consistency", False),
    ("Official Journal of the European Union", "ORGANIZATION", False, "consistency", False),
    ("Board of Directors", "ORGANIZATION", False, "consistency", False),
    # a name spread where the source side does not name it: still a name, still masked
    ("Hortogal", "ORGANIZATION", False, "consistency", True),
    ("Rui Tavares", "PERSON", False, "consistency", True),
    ("Brightwell Logistics", "ORGANIZATION", False, "consistency", True),   # one rare word makes a name
    ("Águas do Planalto Beirão", "ORGANIZATION", False, "consistency", True),
    # the pair's source side carries the entity: one entity, one number, both sides
    ("Code", "PERSON", True, "consistency", True),
    # found in this pair by a transfer step, not spread
    ("Union", "ORGANIZATION", False, "transfer:alignment", True),
])
def test_a_spread_english_word_is_unmasked_unless_its_entity_is_on_the_source_side(
        text, category, on_source_side, recognizer, kept):
    src = [Mention(0, 4, category, "Code", "surname", "test", entity=5)] if on_source_side else []
    m = _spread(text, category, 5 if on_source_side else 9, recognizer)
    assert (drop_spread_words(src, [m]) == [m]) is kept


@pytest.mark.parametrize("act_src, act_tgt", [
    ("O Regulamento (UE) 2017/363 da Comissão, de 1 de março de 2017, é aplicável.",
     "Commission Regulation (EU) 2017/363 of 1 March 2017 shall apply."),
    ("Regulamento de Execução (UE) 2019/12 da Comissão, de 1 de março de 2017",
     "Commission Implementing Regulation (EU) 2019/12 of 1 March 2017"),
    ("A Decisão (UE) 2019/5 do Conselho, de 1 de março de 2017, é revogada.",
     "Council Decision (EU) 2019/5 of 1 March 2017 is repealed."),
])
def test_an_acts_date_stays_visible_on_both_sides_where_the_same_date_is_masked_elsewhere(cfg, act_src, act_tgt):
    pairs = [SegmentPair("d:1", "d", "O contrato foi assinado em 1 de março de 2017 pela Hortogal, Lda.",
                         "The contract was signed on 1 March 2017 by Hortogal, Lda."),
             SegmentPair("d:2", "d", act_src, act_tgt)]
    signed, act = process_in_memory(pairs, cfg)
    assert "March 2017" not in signed.anonymized.tgt  # masked where the source masks it
    assert "1 de março de 2017" in act.anonymized.src and "1 March 2017" in act.anonymized.tgt
    assert {m.entity for m in act.src_mentions} == {m.entity for m in act.tgt_mentions}
