"""Tests of the dealer command line and its two interfaces, the terminal game and the board page."""
