"""What a chat message may say: text alone, at most :data:`MOST` characters once trimmed,
without control characters; or one of the quick phrases, sent as its key, which each reader's
page says in its own language.

The server never marks a message up, nor lets anything in it be read as markup: it keeps and
answers the text as written (JSON escapes what JSON must), and the page shows it as text
(``textContent``), never as HTML.

>>> clean("  Good  <b>game</b>! ")
'Good  <b>game</b>!'
>>> clean("two\\nlines")
'two lines'
>>> clean("\\x07")
Traceback (most recent call last):
...
backgammon.server.chat.texts.ChatTextError: A chat message holds no control characters.
"""

from __future__ import annotations

import unicodedata

#: The most characters a message may hold, once trimmed.
MOST = 300
#: The quick phrases' keys, in the order the page offers them (their words are the page's
#: catalogues', ``chat.phrase.<key>``).
PHRASES = ("hello", "good-luck", "nice-roll", "well-played", "thanks", "sorry-must-go")
#: The whitespace controls a message may hold, each read as a space (a pasted line break).
_SPACES = str.maketrans({"\t": " ", "\n": " ", "\r": " "})
#: The controls that reorder text (embeddings, overrides, isolates): taken out, so that no
#: message turns the words around it; the page isolates each message's direction itself.
_REORDERING = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A)], None
)


class ChatTextError(ValueError):
    """A message the chat does not take; its text says why, quoting nothing of it."""


def clean(text: str) -> str:
    """``text`` as the chat keeps it: line breaks and tabs as spaces, the controls that
    reorder text taken out, trimmed; ChatTextError where it is then empty, longer than
    :data:`MOST` characters, or holds another control character.

    >>> clean("\\u202eevil")
    'evil'
    >>> len(clean("x" * MOST))
    300
    """
    kept = text.translate(_SPACES).translate(_REORDERING).strip()
    if not kept:
        raise ChatTextError("A chat message says something: this one is empty.")
    if len(kept) > MOST:
        raise ChatTextError(f"A chat message holds at most {MOST} characters.")
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in kept):
        raise ChatTextError("A chat message holds no control characters.")
    return kept


def check_phrase(key: str) -> str:
    """``key`` where it is a quick phrase's; ChatTextError else.

    >>> check_phrase("thanks")
    'thanks'
    """
    if key not in PHRASES:
        raise ChatTextError("That is none of the quick phrases: " + ", ".join(PHRASES) + ".")
    return key
