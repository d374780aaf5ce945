"""Keyflower: the rules engine."""
