"""Exports of a game or deal for other programs: Fairy-Stockfish and the Interactive Diagram."""
