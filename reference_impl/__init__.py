"""The reference Durak engine: the executable definition of spec/rules.md (pure Python, no I/O).

The public API lives in :mod:`reference_impl.api` and is re-exported here.
"""

from reference_impl.api import (
    BadRequest,
    EngineError,
    IllegalMove,
    InvalidState,
    Unsupported,
    apply,
    canonical_json,
    capabilities,
    legal_moves,
    new_game,
    validate_state,
)

__all__ = [
    "BadRequest",
    "EngineError",
    "IllegalMove",
    "InvalidState",
    "Unsupported",
    "apply",
    "canonical_json",
    "capabilities",
    "legal_moves",
    "new_game",
    "validate_state",
]
