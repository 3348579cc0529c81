"""Cards: movement diagrams and card faces and backs as neutral drawings (never writes files)."""
