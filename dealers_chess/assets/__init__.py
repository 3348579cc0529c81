"""Data: catalogue and game definitions (TOML), fonts and card-back art."""
