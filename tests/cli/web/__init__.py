"""Browser tests of `dealer serve`'s page as players use it on phones (the fixtures are tests/cli/conftest.py's)."""
