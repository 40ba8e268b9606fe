"""Cosmic Arena tests (docs/rules/arena.md, AR-*)."""
