"""Check digits and validity of personal identifiers (python-stdnum, phonenumbers), one home for the NAMEID
recognizer's tests of a number: NIF/NIPC, CPF/CNPJ, IBAN and NIB, EU VAT, a postal item's S10 and phone numbers.
(The English recognizer still calls python-stdnum's ``nif``/``iban`` itself: a twin left as it was.)"""

from __future__ import annotations

import phonenumbers
from stdnum import iban as stdnum_iban
from stdnum.br import cnpj, cpf
from stdnum.eu import vat
from stdnum.pt import nif as pt_nif


def phone_valid(digits: str) -> bool:
    """Whether ``digits`` (a "+" or "00" form, or the country code and number) are a valid phone number."""
    d = "".join(c for c in digits.replace("(0)", "") if c.isdigit())
    if digits.lstrip().startswith("00"):
        d = d[2:]
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse("+" + d))
    except phonenumbers.NumberParseException:
        return False

def phone_valid_in(number: str, region: str) -> bool:
    """Whether ``number``, written in ``region``'s national layout, is a valid phone number there."""
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(number, region))
    except phonenumbers.NumberParseException:
        return False

def nif_valid(digits: str) -> bool:
    d = "".join(c for c in digits if c.isdigit())
    return len(d) == 9 and pt_nif.is_valid(d)

def checked_identifier(code: str) -> str:
    """The identifier whose check digits ``code`` passes (``nif``, ``cpf``, ``cnpj``, ``iban``, ``vat``), or ''.

    A passed check raises a mention's confidence; a failed one does not drop a code a trigger word names."""
    compact = code.replace(" ", "").replace(".", "").replace("-", "").replace("/", "")
    if not compact:
        return ""
    if compact.isdigit():
        n = len(compact)
        if n == 9 and pt_nif.is_valid(compact):
            return "nif"
        if n == 11 and cpf.is_valid(compact):
            return "cpf"
        if n == 14 and cnpj.is_valid(compact):
            return "cnpj"
        return ""
    if compact[:2].isalpha() and compact[2:4].isdigit() and len(compact) >= 15 and stdnum_iban.is_valid(compact):
        return "iban"
    if compact[:2].isalpha() and vat.is_valid(compact):
        return "vat"
    return ""

def iban_valid(text: str) -> bool:
    s = text.replace(" ", "").upper()
    if not (15 <= len(s) <= 34):
        return False
    moved = s[4:] + s[:4]
    try:
        return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1
    except ValueError:
        return False

def s10_valid(text: str) -> bool:
    """A postal item's UPU S10 check digit: weights 8, 6, 4, 2, 3, 5, 9, 7 on its first eight digits, mod 11."""
    digits = [int(c) for c in text if c.isdigit()]
    rest = 11 - sum(d * w for d, w in zip(digits, (8, 6, 4, 2, 3, 5, 9, 7), strict=False)) % 11
    return len(digits) == 9 and digits[8] == {10: 0, 11: 5}.get(rest, rest)

def nib_valid(text: str) -> bool:
    d = "".join(c for c in text if c.isdigit())
    return len(d) == 21 and (98 - (int(d[:19]) * 100) % 97) == int(d[19:])
