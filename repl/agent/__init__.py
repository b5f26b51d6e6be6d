"""A conversation that reasons: chat turns that call sym's commands (loop.py), offline reading."""
