"""Relational evaluation backends: the same programs as the native engine, on DuckDB or Spark."""
