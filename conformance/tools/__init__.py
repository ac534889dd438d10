"""Tools built on the runner: perft, fuzz, records and replay, identify, export, traceability."""
