"""Keywood game engines: pure rules behind one contract (engine.core)."""
