"""Built-in commands. Importing this package registers them with `repl.registry`."""

from repl.commands import logic, shell  # noqa: F401
