"""Vendored browser libraries (see VERSIONS.json)."""
