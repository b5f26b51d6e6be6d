"""Built-in commands. Importing this package registers them with `repl.registry`."""

from repl.commands import logic, memory, session, shell  # noqa: F401
