"""What the machine offers the embedder: the cores it leaves free, and bfloat16 only on the CPUs
where it was measured faster."""

from __future__ import annotations

import multiprocessing

from dreamer import cpu


def test_threads_are_the_cores_the_machine_leaves_free(monkeypatch) -> None:
    import psutil

    monkeypatch.delenv("DREAMER_EMBED_THREADS", raising=False)
    monkeypatch.setattr(cpu.os, "cpu_count", lambda: 8)
    for busy, expected in ((3.0, 8), (60.0, 3), (100.0, 1)):  # a saturated machine still gets 1
        monkeypatch.setattr(cpu, "_free", [None, 0.0])
        monkeypatch.setattr(psutil, "cpu_percent", lambda interval, busy=busy: busy)
        assert cpu.threads() == expected
    monkeypatch.setattr(psutil, "cpu_percent", lambda interval: 0.0)
    assert cpu.threads() == 1  # sampled at most every 30 s
    monkeypatch.setenv("DREAMER_EMBED_THREADS", "2")
    assert cpu.threads() == 2


def _cpuinfo(vendor: str, family: int, flags: str) -> str:
    block = (f"processor\t: {{n}}\nvendor_id\t: {vendor}\ncpu family\t: {family}\n"
             f"model name\t: a CPU\nflags\t\t: fpu sse2 avx2 {flags}\n\n")
    return block.format(n=0) + block.format(n=1)


def test_bfloat16_is_chosen_only_where_it_was_measured_faster() -> None:
    """AMX tiles, or AVX-512 BF16 on AMD's Zen 4 and Zen 5: bfloat16; AVX-512 BF16 on Intel
    without AMX (measured slower), or plain AVX2 (Zen 3): float32."""
    faster = cpu.bf16_is_faster
    assert faster(_cpuinfo("GenuineIntel", 6, "avx512f avx512_bf16 amx_bf16 amx_tile"))
    assert faster(_cpuinfo("AuthenticAMD", 26, "avx512f avx512_bf16 avx512_vnni"))
    assert not faster(_cpuinfo("GenuineIntel", 6, "avx512f avx512_bf16"))
    assert faster(_cpuinfo("AuthenticAMD", 25, "avx512f avx512_bf16"))
    assert not faster(_cpuinfo("AuthenticAMD", 25, "avx2"))  # Zen 3
    assert not faster(_cpuinfo("AuthenticAMD", 26, "avx512f"))
    assert not faster("")


def _frozen_in_child() -> int:
    import gc

    return gc.get_freeze_count()


def test_a_forked_child_never_collects_what_it_inherited() -> None:
    """A collection in a forked embedder finalized the parent's garbage (a SQLite connection
    whose mutex another thread of the parent held at the fork) and hung: the child freezes what
    it inherits, the parent is left as it was."""
    import gc

    before = gc.get_freeze_count()
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_frozen_in_child) > 0
    assert gc.get_freeze_count() == before
