"""Piece values measured by self-play: imbalanced starts, one game, the results file, the statistics, playouts."""
