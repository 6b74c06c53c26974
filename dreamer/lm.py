"""The language-model backends of dreaming: none (the offline default), any litellm model, or a
canned engine for tests.

The offline default is ``None``: every stage then decides with its deterministic implementation.
With a model, stages hand their judgements to DSPy modules under ``dspy.context(lm=...)``; the LM
travels in the stage context and is never configured globally (``dspy.configure`` belongs to one
thread only). DSPy and litellm are imported inside these functions: they cost seconds.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from dreamer.errors import ConfigError


def _quiet_imports() -> None:
    # litellm fetches a cost map over the network at import unless told not to.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def make_lm(model: str | None, *, temperature: float = 0.0, cache: bool = True) -> Any | None:
    """A ``dspy.LM`` for a litellm model string (``openai/gpt-4o-mini``, ``ollama/llama3``...);
    ``None`` (or ``""``, ``"none"``, ``"offline"``) gives the offline default, ``None``."""
    if model is None or model.strip().lower() in {"", "none", "offline"}:
        return None
    if "/" not in model:
        raise ConfigError(
            f"language model {model!r} is not a litellm model string; write PROVIDER/NAME, "
            "for example openai/gpt-4o-mini"
        )
    _quiet_imports()
    import dspy

    return dspy.LM(model, temperature=temperature, cache=cache)


@dataclass
class CannedEngine:
    """A DSPy engine that answers from a function of the prompt, for offline tests of the LM path.

    ``respond(prompt)`` returns a dict of output field values; the engine writes them in the
    chat adapter's ``[[ ## field ## ]]`` format. Every prompt is kept in ``prompts``.
    """

    respond: Callable[[str], dict[str, Any]]
    prompts: list[str] = field(default_factory=list)

    def complete(self, request: Any) -> Any:
        """Answer one canonical request (``dspy.lm15.Request``)."""
        from dspy.lm15 import Message, Response, TextPart, Usage

        system = request.system if isinstance(request.system, str) else "".join(
            p.text for p in (request.system or ())
        )
        prompt = "\n".join([system, *((m.text or "") for m in request.messages)])
        self.prompts.append(prompt)
        text = format_fields(self.respond(prompt))
        return Response(
            id=None, model="canned", message=Message.assistant([TextPart(text)]),
            finish_reason="stop", usage=Usage(input_tokens=0, output_tokens=0, total_tokens=0),
        )

    def stream(self, request: Any) -> Iterator[Any]:
        from dspy.lm15 import response_to_events

        return iter(response_to_events(self.complete(request)))

    def close(self) -> None:
        """Nothing to release: the engine holds no connection."""


def format_fields(values: dict[str, Any]) -> str:
    """Output fields in the chat adapter's format (lists and dicts as JSON)."""
    import json

    parts = []
    for name, value in values.items():
        shown = json.dumps(value) if isinstance(value, list | dict) else str(value)
        parts.append(f"[[ ## {name} ## ]]\n{shown}")
    parts.append("[[ ## completed ## ]]")
    return "\n\n".join(parts)


def canned_lm(respond: Callable[[str], dict[str, Any]]) -> tuple[Any, CannedEngine]:
    """A ``dspy.LM`` backed by a :class:`CannedEngine`, with DSPy's cache off; and the engine."""
    _quiet_imports()
    import dspy

    engine = CannedEngine(respond)
    return dspy.LM("canned/test", engine=engine, cache=False), engine


def lm_name(lm: Any | None) -> str | None:
    """The model string of ``lm`` for provenance (None offline)."""
    return None if lm is None else str(getattr(lm, "model", type(lm).__name__))
