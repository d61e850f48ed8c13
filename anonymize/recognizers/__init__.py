"""Recognizer plug-ins: importing this package registers each one under its name."""

from . import address, date, fallbacks, lists, nameid, organization, person  # noqa: F401
