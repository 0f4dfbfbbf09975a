"""Guandan rules (rules.md Part G)."""

from cardavia.rules.guandan.combos import classify, readings_of

__all__ = ["classify", "readings_of"]
