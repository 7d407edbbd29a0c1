"""Splitting identifiers into words, shared by the rules and the offline jury."""

from __future__ import annotations

import re

# A separator run, a lower-case letter or digit before a capital (getUser), or the last capital of an
# acronym before a capitalised word (HTTPServer -> HTTP, Server).
_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# ASCII letters and digits stay, every other ASCII character separates words.
_NON_ALNUM = str.maketrans({chr(code): " " for code in range(128) if not chr(code).isalnum()})


def name_words(name: str) -> list[str]:
    """Lower-case words of an identifier: `getUserInfo`, `get_user-info` -> get, user, info."""
    if name.isascii() and name.islower():
        # No capitals, so no camelCase boundaries: splitting on the separators is enough.
        return name.translate(_NON_ALNUM).split()
    return [word.lower() for word in _WORD_SPLIT.split(name) if word]
