"""Players' guides, one folder per game (``meta.json`` and ``<lang>.md``; see :mod:`spacetable.guide`)."""
