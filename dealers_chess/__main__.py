"""`python -m dealers_chess` is the `dealer` command."""

from dealers_chess.cli import main

if __name__ == "__main__":
    main()
