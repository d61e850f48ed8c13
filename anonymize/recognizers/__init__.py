"""Recognizer plug-ins: importing this package registers each one under its name."""

from . import address, date, fallbacks, legal_reference, lists, nameid, organization, person  # noqa: F401
