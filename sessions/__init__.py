"""Sessions: the JSONL log of everything a run does, and saving, resuming and replaying it."""
