"""Built-in commands. Importing this package registers them with `repl.registry`: every module
here is imported, so a new command is one decorated function in one file."""

import importlib
import pkgutil

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")):
    importlib.import_module(f"{__name__}.{_module}")
