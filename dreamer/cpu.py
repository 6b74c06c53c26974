"""What this machine offers the embedder and the dream's shards: the cores it leaves idle,
whether it multiplies bfloat16 faster than float32, and whether this process may fork.

Read from the machine itself (``psutil``'s sample, ``/proc/cpuinfo``), not from torch: a cache
lookup or a shard plan must not import it (only ``torch_threads`` does, to set torch's own
count). Overridden by ``DREAMER_EMBED_THREADS`` and ``DREAMER_EMBED_PRECISION``.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from dreamer import settings


def threads() -> int:
    """Torch threads for bulk embedding: ``DREAMER_EMBED_THREADS``, or the cores the machine
    leaves free (idle over a 0.1 s sample, rounded; at least one). Not the load average: it
    still counts, for a minute, the work that just ended (the previous step of a nightly run)."""
    if _limit is not None:
        return _limit
    return settings.count("DREAMER_EMBED_THREADS") or idle_cores()


_limit: int | None = None


@contextmanager
def limited(count: int) -> Iterator[None]:
    """Embed on ``count`` threads in the block, whatever was idle before it (a dream's first
    shard: its workers take the other cores meanwhile)."""
    global _limit
    before, _limit = _limit, count
    try:
        yield
    finally:
        _limit = before


def idle_cores() -> int:
    """The cores idle over a 0.1 s sample (rounded; at least one), sampled at most every
    ``_FREE_FOR_S`` seconds."""
    now = time.monotonic()
    if _free[0] is None or now - _free[1] > _FREE_FOR_S:
        import psutil

        cores = os.cpu_count() or 1
        busy = psutil.cpu_percent(interval=0.1) / 100  # every core, over the last 0.1 s
        _free[0], _free[1] = max(1, min(cores, round(cores * (1 - busy)))), now
    return _free[0]


_free: list[Any] = [None, 0.0]
"""The cores found free, and when: sampled at most every ``_FREE_FOR_S`` seconds."""
_FREE_FOR_S = 30.0


def precision() -> str:
    """``bf16`` or ``fp32``: ``DREAMER_EMBED_PRECISION`` (``auto`` by default: bf16 where the
    CPU embeds faster in it, ``bf16_is_faster``)."""
    chosen = settings.choice("DREAMER_EMBED_PRECISION", ("auto", "bf16", "fp32"))
    if chosen != "auto":
        return chosen
    return "bf16" if _native_bf16() else "fp32"


@lru_cache(maxsize=1)
def _native_bf16() -> bool:
    """Whether this CPU embeds faster in bfloat16 (``bf16_is_faster``; read from /proc/cpuinfo,
    not from torch: a cache lookup must not import torch)."""
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bf16_is_faster(info)


def bf16_is_faster(cpuinfo: str) -> bool:
    """Whether the CPU that ``cpuinfo`` (``/proc/cpuinfo``'s text) describes embeds faster in
    bfloat16 than in float32, as measured: yes with AMX bfloat16 tiles (``amx_bf16``: 570 texts/s
    against 158 in float32, stop 26), and on AMD CPUs with AVX-512 BF16: Zen 5 (family 26:
    249-256 texts/s on 4,475 texts cold, 331-343 warm, against 208-215 for ONNX Runtime in
    float32, stop 32) and Zen 4 (family 25, model 17: 184-187 against 109-110 for ONNX Runtime
    and 103 for torch in float32, stop 35); not on an Intel CPU with AVX-512 BF16 and no AMX
    (34-66 against 77-97, stop 27), nor without AVX-512 BF16 (Zen 3, AVX2)."""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        name, sep, value = line.partition(":")
        if not sep:
            if fields:
                break  # the first processor's block is enough
            continue
        fields.setdefault(name.strip(), value.strip())
    flags = set(fields.get("flags", "").split())
    if "amx_bf16" in flags:
        return True
    return fields.get("vendor_id") == "AuthenticAMD" and "avx512_bf16" in flags


@contextmanager
def torch_threads(count: int | None) -> Iterator[None]:
    """Run torch with ``count`` threads (None: ``threads()``), then restore the setting."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(count or threads())
    try:
        yield
    finally:
        torch.set_num_threads(before)


def may_fork() -> bool:
    """Whether this process may fork workers: the platform forks, and it is not a daemon (a
    multiprocessing pool's worker, which may not have children)."""
    import multiprocessing

    return ("fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon)  # a daemon may not have children


def _freeze_inherited() -> None:
    # In a forked child, what it inherited is exempt from its collector. A collection there
    # would finalize the parent's garbage, such as a SQLite connection another thread of the
    # parent held a mutex of at the fork, and wait on that mutex for good: a forked embedder of
    # `dreamer mcp`'s warm-up hung so. The embedding cache no longer leaves such connections
    # (``dreamer.vector_cache`` closes its own), but a library's may. It also keeps the
    # inherited pages shared (a collection writes to the header of every object it walks).
    gc.freeze()


os.register_at_fork(after_in_child=_freeze_inherited)
