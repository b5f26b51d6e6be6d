"""Built-in commands: every module here is imported, so a new command is one decorated function in
one file; `builtin_registry()` is a registry holding them and the built-in exporters, made once
when a shell starts (plugins are loaded separately)."""

import importlib
import pkgutil

from sym.repl.registry import Registry, registry_of_builtins

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")):
    importlib.import_module(f"{__name__}.{_module}")


def builtin_registry() -> Registry:
    """Every built-in command and exporter, in a registry of its own."""
    return registry_of_builtins()
