"""Plugins: the entry-point loader and the built-in plugins that ship with sym."""
