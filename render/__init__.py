"""Keywood renderers: public views to PNG images."""
