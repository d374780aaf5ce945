"""The revisions, one file each, hand-written: they never import the store's models."""
