"""spacetable: engine, AI and play server for five space board games."""

__version__ = "0.1.0"
