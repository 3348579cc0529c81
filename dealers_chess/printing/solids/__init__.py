"""3D piece output: validated STL and 3MF files, one per piece, and printer plates."""
