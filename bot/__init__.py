"""Keywood bot: store, table layer and transports."""
