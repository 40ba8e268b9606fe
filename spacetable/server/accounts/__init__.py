"""Optional accounts (issue 20, docs/accounts.md): sign-up and sign-in with passkeys or e-mail and password,
sessions, seats bound to accounts, OpenSkill ratings per game, history, profiles, export and deletion.

``models`` (the tables, migration 0004), ``names`` (usernames and display names), ``service`` (accounts, sessions,
tokens, seats), ``passkeys`` (WebAuthn), ``ratings`` (results, ratings, history, leaderboards), ``mails`` (texts).
"""

from . import models

__all__ = ["models"]
