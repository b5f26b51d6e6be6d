"""Working memory: facts, rules, schema and documents of one workspace."""
