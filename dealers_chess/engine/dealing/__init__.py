"""Dealing: decks, the dealing procedures, arrangements of the dealt cards and deal files."""
