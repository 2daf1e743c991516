"""The Shax rules engine: boards as data, positions, legal actions, outcomes.

Pure and synchronous; imports nothing outside the standard library.
"""

from engine.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    RecordError,
    ShaxError,
)
from engine.position import (
    MOVE_LIMIT,
    REPETITIONS,
    Action,
    Kind,
    Phase,
    Position,
    Step,
    parse_action,
)
from engine.record import format_record, iter_positions, normalize_record, replay, split_record
from engine.variants import (
    JAR,
    SHAX,
    SHAX_SMALL,
    VARIANT_IDS,
    VARIANTS,
    Color,
    UnknownVariantError,
    Variant,
    get_variant,
    iter_bits,
)
from engine.verdicts import Malformed, Outcome, Refusal, Termination

__all__ = [
    "JAR",
    "MOVE_LIMIT",
    "REPETITIONS",
    "SHAX",
    "SHAX_SMALL",
    "VARIANTS",
    "VARIANT_IDS",
    "Action",
    "Color",
    "GameOverError",
    "IllegalActionError",
    "Kind",
    "Malformed",
    "NotationError",
    "Outcome",
    "Phase",
    "Position",
    "RecordError",
    "Refusal",
    "ShaxError",
    "Step",
    "Termination",
    "UnknownVariantError",
    "Variant",
    "format_record",
    "get_variant",
    "iter_bits",
    "iter_positions",
    "normalize_record",
    "parse_action",
    "replay",
    "split_record",
]
