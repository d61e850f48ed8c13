"""The errors paranon reports to a person: each message is one line naming the file, line or key."""

from __future__ import annotations


class InputError(Exception):
    """Bad input or configuration: the message is one line naming the file and line/unit, or the key.
    The command line prints it as one line and exits with 2."""
