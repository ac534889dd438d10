"""The judge's side of the contract, read once: cards, canonical forms and JSON pointers, the
portable shuffle, the seats (player counts, teams), the deal mapping and the spec's schemas."""
