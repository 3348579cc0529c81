"""Card output: sheet geometry, card PDFs with backs and duplex, calibration, and SVG/PNG of one card or diagram."""
