"""The language-model backends of dreaming: none (the offline default), any litellm model, or a
canned engine for tests.

The offline default is ``None``: every stage then decides with its deterministic implementation.
With a model, stages hand their judgements to DSPy modules under ``dspy.context(lm=...)``; the LM
travels in the stage context and is never configured globally (``dspy.configure`` belongs to one
thread only). DSPy and litellm are imported inside these functions: they cost seconds.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from dreamer.errors import ConfigError, LMRunError


def _quiet_imports() -> None:
    # litellm fetches a cost map over the network at import unless told not to.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


DEFAULT_MAX_FAILURES = 0.05
"""The share of LM calls a run may lose (each then decided by the offline rule) before it
aborts."""
FAILURES_IN_A_ROW = 10
"""A run aborts at once after this many consecutive failed LM calls, whatever the share."""
_OFFLINE = {"", "none", "offline"}


class LMConfig(BaseModel):
    """The language model of a run, as the strategy or nightly YAML (``lm:``) and the command
    line (``--lm``, ``--lm-base-url``, ``--lm-api-key-env``, ``--lm-max-failures``) give it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str | None = None
    """A litellm model string (``openai/gpt-4o-mini``, ``openai/gemma3`` behind a local
    OpenAI-compatible server); None or ``offline``: no model."""
    base_url: str | None = None
    """The server's base URL (``http://127.0.0.1:8080/v1``); None: the provider's default."""
    api_key_env: str | None = None
    """The environment variable holding the key (never the key itself in a file)."""
    temperature: float = 0.0
    max_tokens: int | None = None
    cache: bool = True
    """DSPy's response cache (tests turn it off)."""
    num_retries: int = Field(default=2, ge=0)
    """Retries of a transient provider error, with DSPy's backoff."""
    max_failures: float = Field(default=DEFAULT_MAX_FAILURES, ge=0.0, le=1.0)
    """The share of failed calls above which the run aborts."""

    @property
    def offline(self) -> bool:
        return self.model is None or self.model.strip().lower() in _OFFLINE

    def merged(self, **overrides: Any) -> LMConfig:
        """This config with the ``overrides`` that are not None (the command line wins)."""
        given = {k: v for k, v in overrides.items() if v is not None}
        return self.model_validate({**self.model_dump(), **given}) if given else self


def make_lm(
    model: Any, *, base_url: str | None = None, api_key: str | None = None,
    api_key_env: str | None = None, temperature: float = 0.0, max_tokens: int | None = None,
    cache: bool = True, num_retries: int = 2,
) -> Any | None:
    """The one LM factory of dreamer: a ``dspy.LM`` for a litellm model string
    (``openai/gpt-4o-mini``, ``ollama_chat/llama3``...), optionally at ``base_url`` (any
    OpenAI-compatible server) with ``api_key`` or the key in ``$api_key_env``.

    ``None`` (or ``""``, ``"none"``, ``"offline"``) gives the offline default, ``None``; an
    :class:`LMConfig` is read field by field; an LM object (a ``dspy.LM``, for instance one
    over a canned engine) is passed through unchanged.
    """
    if isinstance(model, LMConfig):
        cfg = model
        return make_lm(cfg.model, base_url=cfg.base_url, api_key=api_key,
                       api_key_env=cfg.api_key_env, temperature=cfg.temperature,
                       max_tokens=cfg.max_tokens, cache=cfg.cache, num_retries=cfg.num_retries)
    if model is not None and not isinstance(model, str):
        return model
    if model is None or model.strip().lower() in _OFFLINE:
        return None
    if "/" not in model:
        raise ConfigError(
            f"language model {model!r} is not a litellm model string; write PROVIDER/NAME, "
            "for example openai/gpt-4o-mini"
        )
    if api_key is None and api_key_env:
        api_key = os.environ.get(api_key_env)
        if api_key is None:
            raise ConfigError(f"--lm-api-key-env {api_key_env}: the environment variable "
                              f"{api_key_env} is not set")
    if base_url is not None and not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"--lm-base-url {base_url!r} is not an http(s) URL")
    if base_url is not None and api_key is None:
        api_key = "local"  # OpenAI-compatible local servers ignore it; litellm requires one
    _quiet_imports()
    import dspy

    client: dict[str, Any] = {}
    if base_url is not None:
        client["api_base"] = base_url
        # DSPy's default engine speaks to an ``openai/`` model in OpenAI's own dialect, which
        # sends ``max_completion_tokens``; OpenAI-compatible servers such as llama.cpp's ignore
        # it and generate without bound. litellm sends ``max_tokens``, which they honour.
        client["engine"] = "litellm"
    if api_key is not None:
        client["api_key"] = api_key
    return dspy.LM(model, temperature=temperature, max_tokens=max_tokens, cache=cache,
                   num_retries=num_retries, **client)


def probe(lm: Any) -> None:
    """One trial call before a run: raises :class:`LMRunError` saying why when the model is
    unreachable, refuses the request or answers nothing. Never cached."""
    if lm is None:
        return
    name = lm_name(lm)
    base_url = getattr(lm, "kwargs", {}).get("api_base")
    if base_url:
        name = f"{name} at {base_url}"
    try:
        trial = lm.copy(cache=False, num_retries=0) if hasattr(lm, "copy") else lm
        answers = trial("Answer with the single word: ready")
    except Exception as exc:  # what the provider said is the reason the run cannot start
        raise LMRunError(
            f"the language model {name} failed its trial call, so the run did not start: "
            f"{type(exc).__name__}: {_short(exc)}") from exc
    if not answers or not any(str(a).strip() for a in answers):
        raise LMRunError(f"the language model {name} answered its trial call with nothing")


def _short(exc: BaseException, limit: int = 400) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + " ..."


@lru_cache(maxsize=64)
def unit_prices(model: str) -> tuple[float, float] | None:
    """litellm's price per prompt token and per completion token of ``model`` in USD (its
    bundled cost map, never fetched), or None when litellm does not price it (a local server,
    a canned engine)."""
    _quiet_imports()
    try:
        import litellm

        # Else litellm prints its provider list to stdout for an unknown model (--json output).
        litellm.suppress_debug_info = True
        prompt, completion = litellm.cost_per_token(
            model=model, prompt_tokens=1_000_000, completion_tokens=1_000_000)
    except Exception:  # litellm raises for a model missing from its map
        return None
    return float(prompt) / 1_000_000, float(completion) / 1_000_000


@dataclass
class LMUsage:
    """What a run asked its LM: calls, failures (provider errors and unparsable answers) and
    fallbacks (decisions the offline rule made instead), with the tokens and cost of the calls
    made under :meth:`metered`. Thread-safe.

    ``failed`` raises :class:`LMRunError` after ``FAILURES_IN_A_ROW`` consecutive failures
    (unless ``max_failures`` is 1, which tolerates every failure: a small local model whose
    answers rarely parse still runs to the end on the offline fallbacks); ``check`` raises when
    the share of failures passes ``max_failures``.
    """

    model: str | None = None
    max_failures: float = DEFAULT_MAX_FAILURES
    calls: int = 0
    failures: int = 0
    fallbacks: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    """litellm's cost of the tokens; a model it does not price adds 0 and is named in
    ``unpriced``."""
    unpriced: set[str] = field(default_factory=set)
    _in_a_row: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def ok(self) -> None:
        with self._lock:
            self.calls += 1
            self._in_a_row = 0

    def failed(self, where: str, exc: BaseException, fallback: bool = True) -> None:
        """Count a failed call of ``where`` (and its fallback to the offline rule)."""
        kind = type(exc).__name__
        with self._lock:
            self.calls += 1
            self.failures += 1
            self.fallbacks += int(fallback)
            self._in_a_row += 1
            self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
            if len(self.reasons) < 5:
                self.reasons.append(f"{where}: {kind}: {_short(exc, 200)}")
            in_a_row = self._in_a_row
        if in_a_row >= FAILURES_IN_A_ROW and self.max_failures < 1.0:
            raise LMRunError(
                f"the language model {self.model} failed {in_a_row} calls in a row; the run "
                f"stopped (first: {self.reasons[0]})") from exc

    @contextmanager
    def metered(self) -> Iterator[None]:
        """Count the tokens (and their cost) of the LM calls made inside, in this thread, with
        DSPy's own usage tracker. Cache hits cost nothing and count no tokens."""
        import dspy

        with dspy.track_usage() as tracker:
            try:
                yield
            finally:
                self.add_tokens(tracker.get_total_tokens())

    def add_tokens(self, by_model: Mapping[str, Mapping[str, Any]]) -> None:
        """Add DSPy's usage totals (``{model: {"prompt_tokens": n, "completion_tokens": m}}``)
        and their cost."""
        for model, totals in by_model.items():
            prompt = int(totals.get("prompt_tokens") or 0)
            completion = int(totals.get("completion_tokens") or 0)
            prices = unit_prices(model) if prompt or completion else (0.0, 0.0)
            with self._lock:
                self.prompt_tokens += prompt
                self.completion_tokens += completion
                if prices is None:
                    self.unpriced.add(model)
                else:
                    self.cost_usd += prompt * prices[0] + completion * prices[1]

    def absorb(self, other: Mapping[str, Any], tokens: bool = True) -> None:
        """Add another count's :meth:`as_dict` (a trial's, a sub-run's) to this one; with
        ``tokens=False`` only its calls, failures and fallbacks (when an enclosing
        :meth:`metered` already counted the tokens)."""
        with self._lock:
            for key in ("calls", "failures", "fallbacks"):
                setattr(self, key, getattr(self, key) + int(other.get(key) or 0))
            for kind, n in (other.get("by_kind") or {}).items():
                self.by_kind[kind] = self.by_kind.get(kind, 0) + int(n)
            if tokens:
                self.prompt_tokens += int(other.get("prompt_tokens") or 0)
                self.completion_tokens += int(other.get("completion_tokens") or 0)
                self.cost_usd += float(other.get("cost_usd") or 0.0)
                self.unpriced.update(other.get("unpriced_models") or ())

    @property
    def failure_rate(self) -> float:
        return self.failures / self.calls if self.calls else 0.0

    def check(self, what: str = "the run") -> None:
        """Raise :class:`LMRunError` when failures passed ``max_failures`` of the calls."""
        if self.calls and self.failure_rate > self.max_failures:
            raise LMRunError(
                f"{what} stopped: the language model {self.model} failed {self.failures} of "
                f"{self.calls} calls ({self.failure_rate:.0%} > the {self.max_failures:.0%} "
                f"allowed by --lm-max-failures); first failures: {'; '.join(self.reasons)}")

    def as_dict(self) -> dict[str, Any]:
        return {"model": self.model, "calls": self.calls, "failures": self.failures,
                "fallbacks": self.fallbacks, "failure_rate": round(self.failure_rate, 4),
                "by_kind": dict(sorted(self.by_kind.items())),
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.prompt_tokens + self.completion_tokens,
                "cost_usd": round(self.cost_usd, 6), "priced": not self.unpriced,
                "unpriced_models": sorted(self.unpriced)}


def usage_for(lm: Any, max_failures: float = DEFAULT_MAX_FAILURES) -> LMUsage:
    return LMUsage(model=lm_name(lm), max_failures=max_failures)


@dataclass
class CannedEngine:
    """A DSPy engine that answers from a function of the prompt, for offline tests of the LM path.

    ``respond(prompt)`` returns a dict of output field values; the engine writes them in the
    chat adapter's ``[[ ## field ## ]]`` format. Every prompt is kept in ``prompts``. It reports
    whitespace-separated words as tokens, so token accounting is testable offline.
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
            finish_reason="stop", usage=Usage(input_tokens=words(prompt),
                                              output_tokens=words(text),
                                              total_tokens=words(prompt) + words(text)),
        )

    def stream(self, request: Any) -> Iterator[Any]:
        from dspy.lm15 import response_to_events

        return iter(response_to_events(self.complete(request)))

    def close(self) -> None:
        """Nothing to release: the engine holds no connection."""


def words(text: str) -> int:
    """The canned engine's token count: whitespace-separated words."""
    return len(text.split())


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
