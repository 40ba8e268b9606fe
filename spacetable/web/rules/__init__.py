"""Rules documents shipped with the package: copies of docs/rules/*.md (python -m spacetable.server.presentation sync-rules)."""
