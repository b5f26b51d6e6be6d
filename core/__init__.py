"""The sym library: logic, memory, reasoners and events. It never imports UI code."""

__version__ = "0.1.0"
