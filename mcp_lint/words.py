"""Splitting identifiers into words and folding a word's endings, shared by the rules and the offline jury."""

from __future__ import annotations

import re
import string

# A separator run, a lower-case letter or digit before a capital (getUser), or the last capital of an
# acronym before a capitalised word (HTTPServer -> HTTP, Server).
_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
ASCII_NOT_ALNUM = "".join(c for c in map(chr, range(128)) if not c.isalnum())
# An ASCII text's words, as one byte table for `bytes.translate`: letters lower-cased, digits kept,
# every other ASCII character a space (`str.translate` with a mapping is a dictionary look-up per
# character, several times the cost). `name_words` splits lower-case names with it; the offline
# jury's word gates and tokens read ASCII text with it.
ASCII_WORD_BYTES = bytes.maketrans(
    (string.ascii_uppercase + ASCII_NOT_ALNUM).encode("ascii"),
    (string.ascii_lowercase + " " * len(ASCII_NOT_ALNUM)).encode("ascii"),
)


def name_words(name: str) -> list[str]:
    """Lower-case words of an identifier: `getUserInfo`, `get_user-info` -> get, user, info."""
    if name.isascii() and name.islower():
        # No capitals, so no camelCase boundaries: splitting on the separators is enough.
        return name.encode("ascii").translate(ASCII_WORD_BYTES).decode("ascii").split()
    return [word.lower() for word in _WORD_SPLIT.split(name) if word]


def singular(word: str) -> str:
    """A lower-case word without its plural ending: `entries` -> entry, `users` -> user; `class` stays."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def stem(word: str) -> str:
    """A lower-case word cut to a crude stem: "creates", "created" and "create" all become "creat".

    Crude on purpose: both sides of a comparison go through it, so only the meeting matters.
    """
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return word.rstrip("e") or word
