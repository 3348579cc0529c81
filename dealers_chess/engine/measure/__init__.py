"""A piece measured alone on a board: its offsets (probe), its value (values) and its text card (describe)."""
