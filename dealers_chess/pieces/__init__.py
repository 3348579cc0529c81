"""Pieces: the catalogue, the XBetza parser and the one movement model."""
