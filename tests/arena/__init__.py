"""Cosmic Arena tests (spec shared/specs/arena.md, AR-*)."""
