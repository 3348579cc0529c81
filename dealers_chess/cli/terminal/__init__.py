"""The terminal game: the prompt with a drawn board (prompt) and the text of the board and status (text)."""
