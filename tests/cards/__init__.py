"""Tests of the cards room."""
