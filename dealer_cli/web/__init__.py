"""The board page of `dealer serve`: index.html, board.css and board.js, served as they are (no build step)."""
