"""Recognizer plug-ins: importing this package registers each one under its name."""

from . import (  # noqa: F401
    address,
    date,
    denylist,
    english_title,
    fallback_compound,
    fallback_lone_name,
    fallback_numeric,
    fallback_upper,
    han_name,
    legal_reference,
    nameid,
    organization,
    organization_trade,
    person,
    person_initials,
    public_text,
    statistical,
)
