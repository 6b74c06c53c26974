"""A scale-out stack on one command: a Prefect server with a process work pool and its worker, an
MLflow tracking server backed by PostgreSQL, and a Chroma server, on loopback by default.

``up`` starts each service as its own process group (the project's own pip dependencies: the
``prefect``, ``mlflow`` and ``chroma`` commands; PostgreSQL is the machine's), waits until each
answers, and writes ``$DREAMER_HOME/stack/env``: ``DREAMER_DATABASE_URL``, ``PREFECT_API_URL``,
``MLFLOW_TRACKING_URI``, ``DREAMER_CHROMA_URL``. Every ``dreamer`` command reads that file at
start (``load_env``; a variable already set wins), so the CLI, the worker and the flows it runs
all point at the stack. ``down`` stops every process group it started; ``status`` asks each
service whether it answers.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dreamer import settings
from dreamer.errors import DreamerError

WORK_POOL = "dreamer"
ENV_KEYS = ("DREAMER_DATABASE_URL", "PREFECT_API_URL", "MLFLOW_TRACKING_URI", "DREAMER_CHROMA_URL")


class StackError(DreamerError):
    """A service of the stack could not start, answer or stop."""


@dataclass
class Service:
    name: str
    pid: int
    url: str
    health: str
    log: str


@dataclass
class Stack:
    host: str
    env: dict[str, str]
    services: list[Service] = field(default_factory=list)
    work_pool: str = WORK_POOL

    def ui(self) -> dict[str, str]:
        return {s.name: s.url.removesuffix("/api") for s in self.services
                if s.name != "prefect-worker"}


def folder() -> Path:
    path = settings.home() / "stack"
    path.mkdir(parents=True, exist_ok=True)
    return path


def env_file() -> Path:
    return settings.home() / "stack" / "env"


def load_env() -> dict[str, str]:
    """Set the stack's variables from ``$DREAMER_HOME/stack/env`` (those not set already)."""
    path = env_file()
    if not path.exists():
        return {}
    loaded = {}
    for line in path.read_text().splitlines():
        key, sep, value = line.removeprefix("export ").partition("=")
        if sep and key.strip() and key.strip() not in os.environ:
            os.environ[key.strip()] = value.strip()
            loaded[key.strip()] = value.strip()
    return loaded


def current() -> Stack | None:
    path = folder() / "stack.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return Stack(host=data["host"], env=data["env"], work_pool=data["work_pool"],
                 services=[Service(**s) for s in data["services"]])


def up(host: str = "127.0.0.1", postgres: str = "postgresql+psycopg://postgres@127.0.0.1:5432",
       prefix: str = "dreamer", work_pool: str = WORK_POOL, timeout_s: float = 180.0) -> Stack:
    """Start the stack (PostgreSQL must run already); raises StackError naming what failed."""
    if (running := current()) is not None and any(_alive(s.pid) for s in running.services):
        raise StackError(f"a stack already runs from {folder()}; `dreamer stack down` first")
    store_url = _database(postgres, f"{prefix}_store")
    mlflow_url = _database(postgres, f"{prefix}_mlflow")
    base = folder()
    ports = {name: _free_port(host) for name in ("prefect", "mlflow", "chroma")}
    prefect_api = f"http://{host}:{ports['prefect']}/api"
    env = {"DREAMER_DATABASE_URL": store_url, "PREFECT_API_URL": prefect_api,
           "MLFLOW_TRACKING_URI": f"http://{host}:{ports['mlflow']}",
           "DREAMER_CHROMA_URL": f"http://{host}:{ports['chroma']}"}
    stack = Stack(host=host, env=env, work_pool=work_pool)
    child_env = {**os.environ, **env, "DREAMER_HOME": str(settings.home()),
                 "PREFECT_HOME": str(base / "prefect"),
                 "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                 "PREFECT_LOGGING_LOGGERS_PREFECT_FLOW_RUNS_LEVEL": "INFO",
                 "PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL": "INFO",
                 "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false", "DREAMER_NO_WATCHDOG": "1"}
    child_env.pop("PREFECT_API_DATABASE_CONNECTION_URL", None)
    try:
        _start(stack, "prefect-server", [_tool("prefect"), "server", "start", "--host", host,
                                         "--port", str(ports["prefect"])],
               child_env, prefect_api, f"{prefect_api}/health", base)
        _start(stack, "mlflow-server", [
            _tool("mlflow"), "server", "--host", host, "--port", str(ports["mlflow"]),
            "--backend-store-uri", mlflow_url,
            "--artifacts-destination", (base / "mlartifacts").as_uri(), "--workers", "1"],
            child_env, env["MLFLOW_TRACKING_URI"], f"{env['MLFLOW_TRACKING_URI']}/health", base)
        _start(stack, "chroma-server", [_tool("chroma"), "run", "--host", host, "--port",
                                        str(ports["chroma"]), "--path", str(base / "chroma")],
               child_env, env["DREAMER_CHROMA_URL"],
               f"{env['DREAMER_CHROMA_URL']}/api/v2/heartbeat", base)
        deadline = time.monotonic() + timeout_s
        for service in stack.services:
            _wait(service, deadline)
        _run([_tool("prefect"), "work-pool", "create", work_pool, "--type", "process",
              "--overwrite"], child_env)
        _start(stack, "prefect-worker", [_tool("prefect"), "worker", "start", "--pool",
                                         work_pool, "--type", "process"],
               child_env, prefect_api, "", base)
    except BaseException:
        _save(stack)
        down()
        raise
    _save(stack)
    env_file().write_text("".join(f"{k}={v}\n" for k, v in env.items()))
    return stack


def down() -> list[str]:
    """Stop every process group the stack started; returns the services stopped."""
    stack = current()
    if stack is None:
        return []
    stopped = []
    for service in reversed(stack.services):
        if _stop_group(service.pid):
            stopped.append(service.name)
    (folder() / "stack.json").unlink(missing_ok=True)
    env_file().unlink(missing_ok=True)
    return stopped


def status() -> dict[str, Any]:
    stack = current()
    if stack is None:
        return {"running": False, "services": []}
    rows = [{"name": s.name, "pid": s.pid, "url": s.url, "alive": _alive(s.pid),
             "answers": _answers(s.health) if s.health else _alive(s.pid)}
            for s in stack.services]
    return {"running": all(r["answers"] for r in rows), "services": rows, "env": stack.env}


def _start(stack: Stack, name: str, command: list[str], env: dict[str, str], url: str,
           health: str, base: Path) -> None:
    log = base / f"{name}.log"
    with log.open("ab") as out:
        proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True,
                                cwd=settings.home())
    stack.services.append(Service(name, proc.pid, url, health, str(log)))


def _wait(service: Service, deadline: float) -> None:
    while time.monotonic() < deadline:
        if not _alive(service.pid):
            raise StackError(f"{service.name} exited while starting; see {service.log}:\n"
                             + _tail(service.log))
        if _answers(service.health):
            return
        time.sleep(0.5)
    raise StackError(f"{service.name} did not answer at {service.health} in time; see "
                     f"{service.log}:\n{_tail(service.log)}")


def _answers(url: str) -> bool:
    import urllib.request  # lazy: it cost a third of `dreamer --help`

    try:
        with urllib.request.urlopen(url, timeout=3) as response:  # noqa: S310 (loopback)
            return bool(200 <= response.status < 300)
    except Exception:
        return False


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise StackError(f"{' '.join(command)} failed: {done.stderr[-1000:]}")


def _database(admin: str, name: str) -> str:
    """``name`` on the PostgreSQL server at ``admin`` (created when absent): its URL."""
    from sqlalchemy import create_engine, text

    engine = create_engine(f"{admin.rstrip('/')}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            found = conn.execute(text("select 1 from pg_database where datname = :n"),
                                 {"n": name}).first()
            if found is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        raise StackError(f"cannot reach PostgreSQL at {admin} to create {name}: {exc}") from exc
    finally:
        engine.dispose()
    return f"{admin.rstrip('/')}/{name}"


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _tool(name: str) -> str:
    path = Path(sys.executable).with_name(name)
    if not path.exists():
        raise StackError(f"the `{name}` command is not installed beside {sys.executable}")
    return str(path)


def _alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _stop_group(pid: int, grace_s: float = 10.0) -> bool:
    if not _alive(pid):
        return False
    os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        if not _alive(pid):
            return True
        time.sleep(0.2)
    os.killpg(pid, signal.SIGKILL)
    return True


def _save(stack: Stack) -> None:
    (folder() / "stack.json").write_text(json.dumps(asdict(stack), indent=1))


def _tail(path: str, lines: int = 20) -> str:
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
