"""Usernames, display names, e-mail addresses and languages: normalised and bounded before anything is stored.

A username is NFKC-normalised; its key (unique in the database) is the NFKC casefold, so ``Ana``, ``ANA`` and
``Ａｎａ`` (full-width) are one name. Letters, digits, ``_`` and ``-`` only, 3 to 24 characters, not a reserved
word. A display name is any printable text of 1 to 40 characters (no control or format characters); it is shown
escaped everywhere (the client writes every name as text, never as HTML).
"""

from __future__ import annotations

import re
import unicodedata

from ..errors import ServiceError

LANGS = ("en", "fr", "nl", "ru")
USERNAME_MIN, USERNAME_MAX = 3, 24
DISPLAY_MAX = 40
EMAIL_MAX = 254
PASSWORD_MIN, PASSWORD_MAX = 10, 256
#: names nobody may take (staff-looking names, routes, the deleted player)
RESERVED = frozenset({
    "admin", "administrator", "root", "system", "server", "support", "help", "moderator", "mod", "staff",
    "spacetable", "official", "security", "abuse", "postmaster", "webmaster", "noreply", "no-reply", "api",
    "account", "accounts", "login", "logout", "signin", "signup", "signout", "register", "settings", "profile",
    "leaderboard", "player", "players", "me", "null", "none", "undefined", "anonymous", "guest", "ai",
    "deleted", "deleted-player", "deleted_player", "everyone", "all",
})
_USERNAME = re.compile(r"^[\w-]+$")


def username_key(name: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_username(name: object) -> tuple[str, str]:
    """The username as stored and its unique key; 422 when it is not acceptable."""
    if not isinstance(name, str):
        raise ServiceError(422, "bad_username", "a username is required")
    text = unicodedata.normalize("NFKC", name.strip())
    if not USERNAME_MIN <= len(text) <= USERNAME_MAX:
        raise ServiceError(422, "bad_username", f"a username has {USERNAME_MIN} to {USERNAME_MAX} characters")
    if not _USERNAME.match(text) or text.startswith("-"):
        raise ServiceError(422, "bad_username", "a username has letters, digits, '_' and '-' only")
    key = username_key(text)
    if key in RESERVED or key.strip("_-") in RESERVED:
        raise ServiceError(422, "reserved_username", "this username is reserved")
    return text, key


def check_display_name(name: object, fallback: str = "") -> str:
    if name is None or name == "":
        name = fallback
    if not isinstance(name, str):
        raise ServiceError(422, "bad_display_name", "a display name is text")
    if len(name) > DISPLAY_MAX * 4:
        raise ServiceError(422, "bad_display_name", f"a display name has at most {DISPLAY_MAX} characters")
    text = unicodedata.normalize("NFKC", name).strip()
    if not 1 <= len(text) <= DISPLAY_MAX:
        raise ServiceError(422, "bad_display_name", f"a display name has 1 to {DISPLAY_MAX} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp") for ch in text):
        raise ServiceError(422, "bad_display_name", "a display name may not hold control characters")
    return text


def check_email(email: object) -> tuple[str, str]:
    """The address as given (trimmed) and its key (lower case: one account per mailbox)."""
    if not isinstance(email, str) or len(email) > EMAIL_MAX:
        raise ServiceError(422, "bad_email", "a valid e-mail address is required")
    text = unicodedata.normalize("NFKC", email.strip())
    local, at, domain = text.rpartition("@")
    if not at or not local or "." not in domain or any(c.isspace() or c in "<>,;\"\\" for c in text) \
            or len(text) > EMAIL_MAX:
        raise ServiceError(422, "bad_email", "a valid e-mail address is required")
    return text, text.lower()


def check_password(password: object) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ServiceError(422, "bad_password", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


def check_lang(lang: object) -> str:
    if lang is None or lang == "":
        return "en"
    if not isinstance(lang, str) or lang not in LANGS:
        raise ServiceError(422, "bad_lang", f"the language is one of {', '.join(LANGS)}")
    return lang
