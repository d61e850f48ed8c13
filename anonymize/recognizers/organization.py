"""ORGANIZATION (subtypes COMPANY, ADMIN, INSTITUTION): head nouns, legal-form tails, remembered acronyms.

``Banco X``, ``Ministério das Finanças`` (head noun + more words), ``Y & Filhos, Lda.``
(legal-form tail). An all-uppercase acronym in parentheses right after an
organisation's long form is remembered for the rest of the document. A
sub-organisation (``Conselho de Administração``) alone is not anonymized.
"""

from __future__ import annotations

import regex

from ...text import fold
from ..aliases import abbreviates
from ..chains import ORDINAL, Chain, ChainRules
from ..dictionary import english_zipf, lemma_or_inflection, unknown_name
from ..lexicons import zipf
from ..recognizer import Gated, Recognizer, Segment, alternation, case_blind_gate, literal_gate, register

# a town after a registry's dotted abbreviation, without "de" ("C.R.C. Aveiro")
TOWN_AFTER = r"\s+(?P<town>\p{Lu}\p{Ll}+(?:\s+(?:d[aeo]s?\s+)?\p{Lu}\p{Ll}+){0,2})"


ARTICLED_OF = frozenset(("da", "do", "das", "dos"))  # "de" and the article, between a role noun and its body
OPENING = "(«\"“'‘["  # what may open a word before a name (a bracket, a quote)
ORGAN_LINKS = frozenset(("de", "da", "do", "das", "dos", "e"))  # the words inside a company's organ's name


def org_rule(ch: Chain, crules: ChainRules) -> tuple[str, str]:
    """(subtype, rule) when a chain is an organisation by head noun or legal-form tail."""
    content = tuple(fold(w) for w in ch.content)
    standalone = crules.standalone.get(" ".join(fold(w) for w in ch.words))
    if standalone:
        return standalone, "public-body"
    if ch.org_tail:
        return "COMPANY", "tail"
    if ch.org_head:
        # a company's organs ("Conselho de Administração", "a Assembleia Geral") are not entities; three or more
        # words after such a head name one ("Assembleia Legislativa do Estado", "Comissão de Constituição e Justiça");
        # so does a place after it: the body of that place ("Conselho de Ourém", "Comissão de Lamego"), and a
        # purpose after another preposition than "de" ("Comissão para a Paridade", "Conselho contra a Fraude")
        if content in crules.sub_heads or ch.places + ch.common == len(content) and ch.all_upper is False \
                and not ch.places and all(w in ORGAN_LINKS for w in ch.words if not w[:1].isupper()) \
                and content[:1] in {h[:1] for h in crules.sub_heads} and len(content) <= 2:
            return "", ""
        return ch.org_head[0], "head"
    return "", ""


# a capitalized name set off by a dash before an organisation's head ("Lousavel – Associação de ...", "CIMPA –
# Centro de ...", "Tribunal Judicial da Comarca de Faro – Juízo Local Cível"): the name and the body are one
# (a brand's name may end with a plus: "RECUPERA+ – Gestão de Créditos, S.A.")
NAME_BEFORE_DASH = regex.compile(r"(?:^|(?<=[\s(,;:]))(?P<name>\p{Lu}[\p{L}\p{M}.'’&+-]*(?:\s+(?:d[aeo]s?|e|&|\p{Lu}"
                                 r"[\p{L}\p{M}.'’&+-]*)){0,7})\s+[–—]\s+$")
DASH = regex.compile(r"\s+[–—]\s+")
AMPERSAND_INITIALS = regex.compile(r"\b\p{Lu}\s?&\s?\p{Lu}\b")  # "I&D", "P & D": a field's initials, no firm
START_ARTICLE = regex.compile(r"(?:^|[.;:!?]\s+)[OA]s?\s+\Z")  # a sentence's article: "A 2 Rodas, Lda."
NAME_RUN = regex.compile(r"(?:^|(?<=[\s(,;:]))(?P<name>\p{Lu}[\p{L}\p{M}.'’&-]*(?:\s+(?:d[aeo]s?|e|&|\p{Lu}"
                      r"[\p{L}\p{M}.'’&-]*)){0,7})\Z")  # (capitalized words right before a legal form in words)
# a sentence's article before that name is no part of it ("A Luz do Sol – Associação de Pais ..."), and names it
LEADING_ARTICLE = regex.compile(r"(?:[OA]s?|D[oa]s?|N[oa]s?|Pel[oa]s?|À|Ao)\s+(?=\p{Lu})")
NEXT_WORD = regex.compile(r"\s+(\p{Ll}+)\b")  # the lower-case word after a chain
EVERYDAY_ZIPF = 5.5  # as frequent as pronouns hunspell's closed classes lack (Ela, Você): no company's name
NAME_ARTICLE = regex.compile(r"(?:O|A|Os|As)")  # a capitalized article that opens a name after a lower-case noun
NAME_ARTICLE_BEFORE = regex.compile(r"(?<=\p{Ll}\s+)(?:O|A|Os|As)\s+\Z")
SUBJECT_ARTICLE = regex.compile(r"(?<![\p{L}])[OoAa]\s+\Z")  # a subject's article ("a Xpto anunciou")
ARTICLE_BEFORE = regex.compile(r"(?<![\p{L}])(?:[oa]s?|d[oa]s?|n[oa]s?|pel[oa]s?|à|ao)\s+\Z")
# a singular feminine article before a plural noun that opens a name: a company's elided noun ("A Sistemas Ribatejo",
# "pela Têxteis Cávado": "a [empresa] ..."); a kind of thing takes an article that agrees ("os Sistemas de Navegação");
# a bare "a" in lower case may be the preposition ("relativo a Pessoas Transportadas")
SINGULAR_ARTICLE_BEFORE = regex.compile(r"(?<![\p{L}])(?:A|à|[dn]a|pela)\s+\Z")
PLURAL_WORD = regex.compile(r"\p{Lu}\p{Ll}{2,}s")


def elided_company(text: str, ch: Chain, lex) -> bool:
    """A name after a singular article that opens with a plural word of the language (``a Cabos do Norte``): a
    company named after its trade, its noun ``empresa`` or ``sociedade`` left out; not a person (``a Inês``)."""
    first = ch.words[0]
    return bool(PLURAL_WORD.fullmatch(first)) and not ch.title and not ch.hum \
        and SINGULAR_ARTICLE_BEFORE.search(text, max(0, ch.start - 6), ch.start) is not None \
        and (f := fold(first)) not in lex.first and (f not in lex.last or len(ch.content) > 1) and not lex.is_place(first) \
        and (lemma_or_inflection(f) or lex.is_common(first) or zipf(first.lower()) >= 3.0)
# a preposition inside a body's name, where its capitalized chain breaks ("Associação para a Defesa do Vale",
# "Centro de Apoio a Jovens com Deficiência", "Instituto contra a Fome"); a place after it is no part of the name
# an article in capitals after a body's name, before a capitalized role: a signature block's next line ("Pelo
# Conselho de Ministros ACP-UE O Presidente", "Pela Comissão A Presidente"), no word of the name
ARTICLE_BEFORE_ROLE = regex.compile(r"\s+(?:O|A|Os|As)\Z")
NEXT_CAPITALIZED = regex.compile(r"\s+\p{Lu}\p{Ll}")
NAME_LINK = regex.compile(r"\s+(?:para|com|contra|sobre|sem|a)(?:\s+(?:o|a|os|as))?\s+(?=\p{Lu})")

# the capitalized words and English "of" before a company's name that ends in a legal form ("Bank of ", "The
# Royal Bank of "): one English name
ENGLISH_OF_BEFORE = regex.compile(r"(?<![\p{L}\d.-])(?:(?:The|the)\s+)?(?:\p{Lu}[\p{L}&'’-]*\s+){1,3}of\s+(?:the\s+)?\Z")
# adjectives that open a body's name before its head (Superior Tribunal, Supremo Tribunal)
HEAD_ADJECTIVES = {"superior", "supremo", "suprema", "alto", "alta"}
# the rest of a body's name that lists its competences after a comma and ends with its place: ", Predial e
# Comercial de Amares" after "Conservatória do Registo Civil"
COMPETENCES = regex.compile(r",\s+(?:\p{Lu}\p{Ll}+,\s+)*\p{Lu}\p{Ll}+\s+e\s+\p{Lu}\p{Ll}+\s+d[aeo]s?\s+\p{Lu}[\p{L}'’-]+"
                            r"(?:\s+(?:d[aeo]s?\s+)?\p{Lu}[\p{L}'’-]+){0,3}")


@register("organization")
class OrganizationRecognizer(Recognizer):
    assigns = ("ORGANIZATION",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        o = rules["organization"]
        self.territories = {" ".join(fold(w) for w in t.split()) for t in o.get("territories", [])}
        heads = alternation(o.get("numbered_heads", []))
        words = alternation(o.get("ordinal_words", []))
        # "7ª Turma", "2.ª Secção Cível", "SEGUNDA TURMA": an ordinal and a numbered organ, with the capitalized
        # words that follow it
        sections = alternation(rules["organization_section_words"])
        self.section_after = regex.compile(rf"\s+[–—-]\s+(?:{sections})\s+\d{{1,3}}(?![\d\p{{L}}])")
        # the name before a legal person's number: "X, NIPC ...", "X (NIPC ...)", "X tem o NIPC", "X, com o NIPC"
        self.holder = regex.compile(
            rf"\s*(?:,\s*|\(\s*|,?\s+(?:tem|com|titular\s+d[oa])\s+(?:o|a)\s+)?(?:n\.?\s?º\s+de\s+)?"
            rf"(?i:{alternation(o.get('holder_number_words', []))})(?![\p{{L}}])")
        # what follows a legal form: a law firm's suffix after a comma, or another legal form ("Unipessoal Lda.",
        # "Consulting Ltd", "Holding, S.A.")
        self.tail_suffix = regex.compile(
            rf"\s*,\s*(?:{alternation(o.get('tail_suffixes', []))})(?![\p{{L}}])"
            rf"|\.?\s*,?\s+(?:{alternation(o['tails'])})(?![\p{{L}}\d])")
        # a foreign company's registered branch after its name ("X Limited – Sucursal em Portugal", "X, Branch")
        self.branch_after = regex.compile(
            rf"\s*(?:[–—-]|,)\s*(?:{alternation(o.get('branch_words', []))})(?![\p{{L}}])"
            r"(?:\s+(?:em|in|de|no|na)\s+\p{Lu}[\p{L}-]+)?")
        # "gerentes da X" (a company's role and "da"), "a seguradora X" (a noun that says what kind of company)
        self.role_before = regex.compile(
            rf"(?<![\p{{L}}-])(?:(?i:{alternation(o.get('company_role_nouns', []))})\s+d[aeo]s?"
            rf"|(?-i:{alternation(o.get('company_kind_nouns', []))}))\s+\Z")
        # "a presidente da X": a body's role noun before a name no dictionary knows; "o jornal X": its kind noun
        # (looked up in sets, word by word: two more searches per chain cost more than the rest of the check)
        self.body_roles = {fold(w) for w in o.get("body_role_nouns", [])}
        self.body_kinds = set(o.get("body_kind_nouns", []))
        self.possessions = {fold(w) for w in o.get("company_possession_nouns", [])}
        self.business_verbs = frozenset(o.get("business_verbs", []))
        self.subject_verbs = frozenset(o.get("subject_verbs", []))
        fb = rules.get("fallbacks", {})
        # a subject's first word of its predicate (é, foi, tem, pode, não ...) after a brand the lone-name fall-back
        # keeps public, it being frequent in English (a Xpto tem, o Xpto não)
        self.predicate_openers = frozenset(fb.get("predicate_openers", []))
        self.english_max_zipf = float(fb.get("lone_name_english_max_zipf", 4.0))
        self.end_heads = {fold(w) for w in o.get("end_heads", [])}
        self.appeal_nouns = {fold(w) for w in o.get("appeal_nouns", [])}
        dotted = [h for h in o["heads"].get("ADMIN", []) if regex.fullmatch(r"(?:\p{Lu}\.)+\p{L}*\.?", h)]
        self.abbreviation_town = Gated(regex.compile(rf"(?<![\p{{L}}.])(?:{alternation(dotted)}){TOWN_AFTER}"),
                                       regex.compile(alternation(dotted)))
        # a company's name in quotes, then its legal form ("«Vinhos Velhos do Dão», Lda.")
        self.quoted_tail = Gated(regex.compile(
            rf"[«\"“](?P<name>\p{{Lu}}[^«»\"“”\n]{{0,80}}?)[»\"”],?\s+(?:{alternation(o['tails'])})(?![\p{{L}}\d])"),
            regex.compile(r"[«\"“]"))
        self.numbered = regex.compile(
            rf"(?<![\p{{L}}\d])(?:\d{{1,3}}\s?\.?\s?[ªºa°o](?![\p{{L}}])|(?i:{words}))\s+(?i:{heads})(?![\p{{L}}])"
            rf"(?:\s+(?!(?i:de|do|da|e)\b)\p{{Lu}}[\p{{L}}\p{{M}}]+)*")
        self.numbered_gate = case_blind_gate(o.get("numbered_heads", []))  # (every match holds a head)
        self._compile_forms(o)

    def _compile_forms(self, o: dict) -> None:
        """The patterns of names before a legal form: with digits, before a form in words, before a written-out form."""
        # a name word with digits before a legal form ("Tech4U, Lda.", "4Life Nutrição, Lda.", "A 2 Rodas – ..., Lda."):
        # chains hold no digits, so the company is read here
        self.digit_name = Gated(regex.compile(
            rf"(?<![\p{{L}}\d.,/-])(?:(?:[\p{{Lu}}\d][\p{{L}}\d]*\d[\p{{L}}\d]*|\d+\p{{Lu}}[\p{{L}}\d]*)(?=[\s,])"
            rf"|\d{{1,4}}(?=\s+\p{{Lu}}))(?=(?:\s+(?:[–—]\s+)?\p{{Lu}}[\p{{L}}\p{{M}}'’-]*|\s+d[aeo]s?|\s+e){{0,6}},?\s+"
            rf"(?:{alternation(o['tails'])})(?![\p{{L}}\d]))"), regex.compile(r"\d"))
        # a legal form written out after a comma or in lower case ("Seguradora X, Sociedade Anónima", "Transportes X lda")
        forms = rf"(?i:{alternation(o.get('trade_forms', []))})"
        self.form_after = regex.compile(rf",?\s+{forms}(?:,?\s+{forms}){{0,2}}(?![\p{{L}}\d])")
        self.form_phrase = Gated(regex.compile(rf"\s+[–—,]\s+(?:{alternation(o['form_phrases'])})(?![\p{{L}}])"),
                                 literal_gate(alternation(o["form_phrases"])))

    def find(self, seg: Segment) -> list:
        out = []
        chains = seg.analysis.chains
        crules = seg.analysis.rules
        for k, ch in enumerate(chains):
            if seg.covered(ch.start, ch.end):
                continue
            subtype, rule = org_rule(ch, crules)
            known = seg.analysis.acronym(ch.words[0]) if not rule and ch.all_upper and len(ch.words) == 1 else None
            if known:
                subtype, rule = known[1], "acronym:remembered"
            if not rule and ch.in_parens and ch.all_upper and k > 0:
                long = chains[k - 1]
                lsub, lrule = org_rule(long, crules)
                if lrule and long.end_tok + 1 == ch.start_tok and abbreviates(ch.words[0], long_text := seg.text[
                        long.start:long.end]):
                    seg.analysis.learn_acronym(ch.words[0], "ORGANIZATION", lsub, long_text)
                    subtype, rule = lsub, "acronym:after-long-form"
            namesake = self._namesake(seg, k, crules)
            if not rule and namesake:
                subtype, rule = namesake[0], "head"
            if not rule:
                subtype, rule = self._by_context(seg, ch)
            if not rule and not ch.inverted and not self._names_in(ch):
                # (a chain with names is left whole to the person recognizers, which skip covered chains; a
                # surname that is also a place does not count: "Associação dos Amigos do Porto")
                out += self._bodies_inside(seg, ch, crules)
            if rule:
                start, end = self._extent(seg, k, rule, subtype)
                end = max(end, namesake[1]) if namesake and rule == "head" else end
                out.append(self.mention(seg, start, end, "ORGANIZATION", rule, subtype=subtype))
                if k + 1 < len(chains) and chains[k + 1].in_parens and chains[k + 1].all_upper \
                        and ch.end_tok + 1 == chains[k + 1].start_tok and len(chains[k + 1].words) == 1 \
                        and abbreviates(chains[k + 1].words[0], seg.text[ch.start:ch.end]):
                    seg.analysis.learn_acronym(chains[k + 1].words[0], "ORGANIZATION", subtype,
                                               seg.text[ch.start:ch.end])
        for m in self.abbreviation_town.finditer(seg.text):
            s, e = m.start(), m.end()
            if self.lex.is_place(m.group("town").split()[0]) and not any(x.start < e and s < x.end for x in out):
                out.append(self.mention(seg, s, e, "ORGANIZATION", "head", subtype="ADMIN"))
        out = self._quoted(seg, out)
        for m in self.numbered.finditer(seg.text) if self.numbered_gate.search(seg.folded) else ():
            s, e = m.start(), m.end()
            if not seg.covered(s, e) and not any(x.start < e and s < x.end for x in out):
                out.append(self.mention(seg, s, e, "ORGANIZATION", "numbered", subtype="ADMIN"))
        out = self._form_phrases(seg, self._digit_names(seg, out))
        return self._dash_joined(seg, out) if "–" in seg.text or "—" in seg.text else out

    def _extent(self, seg: Segment, k: int, rule: str, subtype: str) -> tuple[int, int]:
        """Where the organisation of chain ``k`` starts and ends: its ordinal before, its legal form's suffixes,
        competences, branch and English words around it, the rest of a body's name after a preposition."""
        ch = seg.analysis.chains[k]
        start = ch.start
        toks = seg.doc
        if ch.start_tok > 0 and ORDINAL.match(toks[ch.start_tok - 1].text):
            start = toks[ch.start_tok - 1].idx  # "8ª Turma Cível", "2ª Auditoria"
        end = ch.end
        while rule in ("tail", "ampersand") and (more := self.tail_suffix.match(seg.text, end)):
            end = more.end()  # "Sociedade de Advogados, SP, RL"
        if subtype in ("ADMIN", "INSTITUTION") and (more := COMPETENCES.match(seg.text, end)):
            end = more.end()  # "Conservatória do Registo Civil, Predial e Comercial de Amares"
        if rule == "head" and subtype == "INSTITUTION":
            end = self._name_goes_on(seg, k, end)
        if rule == "body-kind" and (art := NAME_ARTICLE_BEFORE.search(seg.text, max(0, start - 4), start)):
            start = art.start()  # "o infantário O Pimpolho": the article is the name's
        if rule == "head" and subtype != "ADMIN" and (form := self.form_after.match(seg.text, end)):
            end = form.end()  # "Seguradora Lusa do Minho, Sociedade Anónima"
        if rule == "tail":
            if more := self.branch_after.match(seg.text, end):
                end = more.end()  # "Bank of China Limited – Sucursal em Portugal"
            if of := ENGLISH_OF_BEFORE.search(seg.text, max(0, start - 60), start):
                start = of.start()  # "Bank of China Limited", "Royal Bank of Scotland plc"
        if (art := ARTICLE_BEFORE_ROLE.search(seg.text, start, end)) and NEXT_CAPITALIZED.match(seg.text, end):
            end = art.start()  # "Pelo Conselho de Ministros ACP-UE O Presidente": the article opens the next line
        return start, end

    def _namesake(self, seg: Segment, k: int, crules: ChainRules) -> tuple[str, int] | None:
        """(subtype, end) when chain ``k`` is an institution's head (with or without more words) and a titled person's
        name follows it: the body is named after that person ("Agrupamento de Escolas Padre Tomás Cunha", "Fundação
        Engenheiro Rui Matos"), one organisation, not a body and a person."""
        chains = seg.analysis.chains
        if k + 1 >= len(chains) or not chains[k + 1].title or chains[k + 1].start_tok <= chains[k].end_tok:
            return None
        ch, nxt = chains[k], chains[k + 1]
        sub = ch.org_head[0] if ch.org_head else crules.org_heads.get(tuple(fold(w) for w in ch.words))
        between = seg.doc[ch.end_tok:nxt.start_tok]
        if sub != "INSTITUTION" or not all(fold(t.text) in crules.titles or t.text == "." for t in between):
            return None
        return sub, nxt.end

    def _name_goes_on(self, seg: Segment, k: int, end: int) -> int:
        """A body's name goes on after a preposition that breaks the capitalized chain ("Associação para a
        Defesa do Vale", "Centro de Apoio a Jovens com Deficiência Auditiva"), over the next chains that are
        neither a place nor names nor another body."""
        chains = seg.analysis.chains
        while k + 1 < len(chains) and (link := NAME_LINK.match(seg.text, end)) and link.end() == chains[k + 1].start:
            nxt = chains[k + 1]
            if nxt.org_head or nxt.extra.get("territory") or all(self.lex.is_place(w) for w in nxt.content) \
                    or self._names_in(nxt) or seg.covered(nxt.start, nxt.end):
                break
            k, end = k + 1, nxt.end
        return end

    def _by_context(self, seg: Segment, ch) -> tuple[str, str]:
        """(subtype, rule) when the words around a chain make it an organisation: a legal person's number after
        it, an "&" between names, a singular article before a plural word of the language, a company's role or
        kind noun before it, a body's role or kind noun before it, a kind noun that ends it."""
        if not ch.title and not ch.hum and not ch.inverted and len(ch.content) >= 2 and self.holder.match(seg.text, ch.end):
            return "COMPANY", "number-holder"  # "a Quinta da Fraga Alta tem o NIPC ..."
        if "&" in ch.words and not ch.title and not ch.hum and not ch.inverted \
                and sum(1 for w in ch.content if len(w) > 1) >= 2 and not AMPERSAND_INITIALS.search(seg.text, ch.start, ch.end):
            return "COMPANY", "ampersand"  # two names joined by "&": partners' firm (Luz & Sombra, Ribeiro & Ribeiro)
        if not ch.inverted and not ch.extra.get("territory") and elided_company(seg.text, ch, self.lex):
            return "COMPANY", "elided-noun"  # "a Sistemas Ribatejo instalou", "pela Têxteis Cávado"
        if ch.inverted or ch.places >= len(ch.content) or ch.extra.get("territory"):
            return "", ""
        if len(ch.content) >= 2 and fold(ch.words[-1]) in self.end_heads and ch.words[-2][:1].isupper():
            return "INSTITUTION", "end-head"  # "Vilarinho Futebol Clube", "Harbour Press" (not "Contrato de Seguros")
        if self._names_in(ch):
            return "", ""
        if not ch.title and self.role_before.search(seg.text, max(0, ch.start - 40), ch.start):
            return "COMPANY", "company-role"  # "na qualidade de gerentes da GRANITOS DO CÁVADO"
        before = seg.text[max(0, ch.start - 40):ch.start]
        words = before.split()[-2:] if before[-1:].isspace() else []
        # (a title with "da" is the body's, not the name's: "a presidente da Lusoflora")
        if len(words) == 2 and words[1] in ARTICLED_OF and fold(words[0].lstrip(OPENING)) in self.body_roles and (
                ch.all_upper or unknown_name(ch.content[0], self.lex)):
            return "INSTITUTION", "body-role"  # "os membros da ABVQ"
        if not ch.title and words and (words[-1].lstrip(OPENING) in self.body_kinds or len(words) == 2
                                       and NAME_ARTICLE.fullmatch(words[1]) and words[0] in self.body_kinds):
            return "INSTITUTION", "body-kind"  # "a banda Zirkões", "o jornal Expresso", "a creche O Pimpolho"
        return self._company_context(seg, ch, words)

    def _company_context(self, seg: Segment, ch, words: list[str]) -> tuple[str, str]:
        """A lone capitalized word no dictionary knows (English-frequent or not: brands) in a company's position:
        after what a company has and "da"/"do" ("os clientes da Xpto"), or after an article and before a verb of
        business ("a Xpto anunciou", "A Xpto lançou")."""
        if len(ch.words) != 1 or ch.title or ch.hum or ch.all_upper:
            return "", ""
        if len(words) == 2 and words[1] in ARTICLED_OF and fold(words[0].lstrip(OPENING)) in self.possessions:
            rule = "company-possession"
        elif (nxt := NEXT_WORD.match(seg.text, ch.end)) and (
                nxt.group(1) in self.subject_verbs and SUBJECT_ARTICLE.search(seg.text, max(0, ch.start - 4), ch.start)
                or nxt.group(1) in self.business_verbs and (ch.sentence_initial or SUBJECT_ARTICLE.search(
                    seg.text, max(0, ch.start - 4), ch.start))):
            rule = "business-subject"
        elif nxt and nxt.group(1) in self.predicate_openers and SUBJECT_ARTICLE.search(
                seg.text, max(0, ch.start - 4), ch.start) and english_zipf(ch.words[0].lower()) >= self.english_max_zipf:
            rule = "business-subject"
        else:
            return "", ""  # (the context first: most chains have none, the dictionary's look-ups cost more)
        word = ch.words[0]
        if fold(word) in self.lex.closed or fold(word) in seg.memory.lower_vocab or not unknown_name(word, self.lex) \
                or zipf(word.lower()) >= EVERYDAY_ZIPF:  # (a word the document writes in lower case: a noun)
            return "", ""
        return "COMPANY", rule

    def _form_phrases(self, seg: Segment, out: list) -> list:
        """The capitalized name before a legal form written in words: "Mão Amiga – Instituição Particular de
        Solidariedade Social"."""
        for m in self.form_phrase.finditer(seg.text):
            name = NAME_RUN.search(seg.text, max(0, m.start() - 80), m.start())
            if name and (s := self._named_before(seg.text, name)) is not None and not seg.covered(s, m.end()) \
                    and not any(x.start < m.end() and s < x.end for x in out):
                out.append(self.mention(seg, s, m.end(), "ORGANIZATION", "tail", subtype="INSTITUTION"))
        return out

    def _digit_names(self, seg: Segment, out: list) -> list:
        """A company whose name opens with a word holding digits (``Tech4U, Lda.``, ``2 Rodas – Motociclos, Lda.``):
        from that word to its legal form, over the mention found in it (after an article or a sentence's start)."""
        t = seg.text
        for m in self.digit_name.finditer(t):
            s = m.start()
            if not (s == 0 or ARTICLE_BEFORE.search(t, max(0, s - 6), s) or START_ARTICLE.search(t, max(0, s - 6), s)):
                continue
            tail = self.tail_suffix.search(t, m.end())
            end = tail.end() if tail else m.end()
            while more := self.tail_suffix.match(t, end):
                end = more.end()
            if not seg.covered(s, end) and not any(x.start < end and s < x.end and not (s <= x.start and x.end <= end) for x in out):
                out = [x for x in out if not (s <= x.start and x.end <= end)]
                out.append(self.mention(seg, s, end, "ORGANIZATION", "tail", subtype="COMPANY"))
        return out

    def _quoted(self, seg: Segment, out: list) -> list:
        """A company's name in quotes before its legal form ("«Vinhos Velhos do Dão», Lda."), over the mentions
        found inside it ("«X», Unipessoal, Lda." is one company, not "Unipessoal, Lda.")."""
        for m in self.quoted_tail.finditer(seg.text):
            s, e = m.start(), m.end()
            while more := self.tail_suffix.match(seg.text, e):
                e = more.end()
            if not any(x.start < e and s < x.end and not (s <= x.start and x.end <= e) for x in out):
                out = [x for x in out if not (s <= x.start and x.end <= e)]
                out.append(self.mention(seg, s, e, "ORGANIZATION", "tail", subtype="COMPANY"))
        return out

    def _dash_joined(self, seg: Segment, out: list) -> list:
        """A body's name and its parts set off by dashes are one name: the capitalized name before a dash and
        a head-noun organisation after it (not a place, not ordinary words), an organisation after another,
        and a numbered section after it ("– Juiz 2")."""
        t = seg.text
        out = sorted(out, key=lambda m: m.start)
        joined: list = []
        for m in out:
            if m.rule in ("head", "public-body", "tail", "head-inside"):
                before = NAME_BEFORE_DASH.search(t, max(0, m.start - 80), m.start)
                prev = joined[-1] if joined else None
                if prev is not None and DASH.fullmatch(t, prev.end, m.start):
                    joined.pop()  # two bodies in a row: the court and its section
                    m = self.mention(seg, prev.start, m.end, "ORGANIZATION", prev.rule, prev.subtype)
                elif before and not seg.covered(before.start(), m.start) and (start := self._named_before(t, before)) is not None:
                    m = self.mention(seg, start, m.end, "ORGANIZATION", m.rule, m.subtype)
            after = self.section_after.match(t, m.end)
            if after:
                m = self.mention(seg, m.start, after.end(), "ORGANIZATION", m.rule, m.subtype)
            joined.append(m)
        return joined

    def _named_before(self, t: str, before) -> int | None:
        """Where the name set off by a dash before a body starts: its capitalized words after a sentence's article;
        ordinary words are a name there after an article (``a Norte Vivo – Associação Cultural``)."""
        start, name = before.start("name"), before.group("name")
        if art := LEADING_ARTICLE.match(name):
            start, name = start + art.end(), name[art.end():]
        named = art is not None or ARTICLE_BEFORE.search(t, max(0, start - 6), start) is not None
        words = [w for w in name.split() if w[:1].isupper()]
        if words and (self._name_like(name) or named and not all(self.lex.is_place(w) for w in words)):
            return start
        return None

    def _name_like(self, name: str) -> bool:
        words = [w for w in name.split() if w[:1].isupper()]
        if not words or all(self.lex.is_place(w) for w in words):
            return False
        return any(w.isupper() and len(w) > 1 or not self.lex.is_common(w) for w in words)

    def _names_in(self, ch) -> bool:
        if not ch.first_names + ch.surnames:
            return False
        return any(self.lex.is_name(w) and not self.lex.is_place(w) for w in ch.content)

    def _territory(self, folded: list[str], i: int, n: int) -> bool:
        """``Governador do Distrito Federal``, ``Administração Pública do Distrito Federal``: after ``do``/``da``
        and a word of the run, a body that is also a territory (``organization.territories``) is the place,
        not the party; ``Poderes do Distrito Federal`` are its organs."""
        if i < 2 or folded[i - 1] not in ("do", "da") or folded[i - 2] in ("poder", "poderes"):
            return False
        return " ".join(folded[i:i + n]) in self.territories

    def _longest_standalone(self, crules) -> int:
        """Words in the longest standalone public body (computed once: the rules do not change)."""
        got = self.__dict__.get("_longest")
        if got is None:
            got = self.__dict__["_longest"] = max((len(k.split()) for k in crules.standalone), default=0)
        return got

    def _bodies_inside(self, seg: Segment, ch, crules) -> list:
        """Public bodies of two or more words (one after a particle) inside a longer chain that is no organisation itself:
        ``União, Estados, Distrito Federal e Municípios``, ``Senhores Desembargadores do CONSELHO ESPECIAL``;
        and an organisation named after a particle (``Ministros do Supremo Tribunal Federal``)."""
        folded = [fold(w) for w in ch.words]
        for p in range(2, len(folded) - 1):
            adjective = folded[p - 1] in HEAD_ADJECTIVES and ch.words[p - 1][:1].isupper()
            if folded[p - 2] in self.appeal_nouns:
                continue  # "Recurso de Revista": an appeal's name, not a body
            if (folded[p - 1] in crules.particles or adjective) and ch.words[p][:1].isupper() and crules.head_at(
                    seg.doc, ch.start_tok + p, ch.end_tok) and any(w[:1].isupper() for w in ch.words[p + 1:]):
                tail = seg.doc[ch.start_tok + len(ch.words) - 1]
                # "... da União Superior Tribunal Militar": the adjective belongs to the head
                start = seg.doc[ch.start_tok + p - adjective].idx
                return [self.mention(seg, start, tail.idx + len(tail.text), "ORGANIZATION", "head-inside",
                                     subtype=crules.org_heads.get((folded[p],), "ADMIN"))]
        longest = self._longest_standalone(crules)
        out, i = [], 0
        while i < len(folded):
            # one word only after a particle: "Justiça Militar da União", "Advogado-Geral da União"
            # (not a head noun: "Secretaria de Governo" is an office, not the government)
            shortest = 1 if i and folded[i - 1] in crules.particles and (folded[i],) not in crules.org_heads else 2
            for n in range(min(longest, len(folded) - i), shortest - 1, -1):
                sub = crules.standalone.get(" ".join(folded[i:i + n]))
                if sub and ch.words[i][:1].isupper() and not self._territory(folded, i, n):
                    a, b = seg.doc[ch.start_tok + i], seg.doc[ch.start_tok + i + n - 1]
                    out.append(self.mention(seg, a.idx, b.idx + len(b.text), "ORGANIZATION", "public-body-inside",
                                            subtype=sub))
                    i += n
                    break
            else:
                i += 1
        return out
