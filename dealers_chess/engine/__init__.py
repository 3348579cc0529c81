"""Engine: board geometry, the move kernel, positions, game rules, notation and dealing."""
