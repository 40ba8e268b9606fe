"""Finding a table (issue 21, goals 2 and 3): open seeks in the lobby (``seeks``), rematch and "play again" after a
match (``rematch``), and presence, who is online in the lobby and at each seat of a match, "last seen", an
invisible mode (``presence``). Challenges of a named player live in ``..challenges``."""
