"""3D pieces derived from the movement: body, emblem, relief, code font (manifold3d) and rendered pictures."""
