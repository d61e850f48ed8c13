"""Recognizer plug-ins: importing this package registers each one under its name."""

from . import (  # noqa: F401
    address,
    date,
    denylist,
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
    public_text,
    statistical,
)
