"""Tremble, Humans! tests (TH-*)."""
