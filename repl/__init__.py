"""Front-ends of sym: the command registry and dispatcher, batch mode, the line REPL, the CLI."""
