"""The eight dreaming stages, one class per file, registered by name in ``STAGES``.

``STAGE_ORDER`` is the order of the design (and of the ``default`` strategy); a strategy may list
any subset, in any order, with each stage's parameters.
"""

from __future__ import annotations

from dreamer.stages import (  # noqa: F401  (importing a stage module registers it)
    abstraction,
    compression,
    conflicts,
    dedupe,
    forgetting,
    linking,
    promotion,
    specialization,
)
from dreamer.stages.base import (
    STAGES,
    BankEditor,
    Stage,
    StageConfig,
    StageContext,
    StageResult,
)
from dreamer.stages.similarity import Similarity

STAGE_ORDER = (
    "dedupe", "conflicts", "abstraction", "specialization", "compression", "linking",
    "forgetting", "promotion",
)

__all__ = [
    "STAGES", "STAGE_ORDER", "BankEditor", "Similarity", "Stage", "StageConfig", "StageContext",
    "StageResult",
]
