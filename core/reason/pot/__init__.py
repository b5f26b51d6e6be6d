"""Proof of Thought: a JSON program DSL (sorts, functions, knowledge base, rules,
verifications, optimization) checked by Z3 as entailment — proved, refuted, unknown or
inconsistent. Expression strings are parsed by a grammar and built from a whitelist; nothing
here evaluates text. Z3 is imported inside functions only.
"""
