"""Tests of the printing room."""
