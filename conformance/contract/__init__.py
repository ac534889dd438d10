"""The judge's side of the contract: cards, canonical forms, the portable shuffle."""
