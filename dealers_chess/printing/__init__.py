"""Printing: the only room that writes files (PDF, SVG, PNG, STL)."""
