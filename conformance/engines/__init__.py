"""Engines as the runner talks to them: the interface, the process protocol, hello."""
