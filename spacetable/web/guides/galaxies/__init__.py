"""Players' guide data of one game (see spacetable.guide)."""
