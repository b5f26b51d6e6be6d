"""Built-in commands. Importing this package registers them with `repl.registry`."""

from repl.commands import explore, llm, logic, memory, policy, proof, session, shell, swm  # noqa: F401
from repl.commands import semantic  # noqa: F401
