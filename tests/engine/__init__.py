"""Tests of the engine room."""
