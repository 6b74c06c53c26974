"""Where a sweep's Prefect tasks run: threads of this process (the default) or a Dask cluster.

A nightly config's ``fan_out`` section chooses it, and ``DREAMER_DASK_ADDRESS`` (or the command
line's ``--runner`` and ``--dask-address``) overrides it::

    fan_out:
      runner: dask          # threads | dask
      workers: 2            # threads, or the LocalCluster's worker processes
      address: null         # a running Dask scheduler (tcp://host:8786) instead of a LocalCluster

Threads stay the default: on one small machine a LocalCluster's worker processes each import
the project and load the embedding model before their first unit, which a small sweep does not
earn back. A cluster is for sweeps larger than one machine.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ADDRESS_ENV = "DREAMER_DASK_ADDRESS"


class FanOutConfig(BaseModel):
    """The task runner of a sweep."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    runner: Literal["threads", "dask"] = "threads"
    """``threads``: Prefect's thread pool in this process; ``dask``: prefect-dask's runner."""
    workers: int | None = Field(default=None, ge=1)
    """Threads, or a LocalCluster's worker processes; default: the machine's cores."""
    threads_per_worker: int = Field(default=1, ge=1)
    """Threads in each LocalCluster worker process."""
    address: str | None = None
    """A running Dask scheduler to send the tasks to (``tcp://host:8786``); implies ``dask``.
    None with ``dask``: a LocalCluster for the run, stopped when it ends."""

    def resolved(self, runner: str | None = None, address: str | None = None) -> FanOutConfig:
        """These settings under the command line's (``runner``, ``address``) and the
        environment's ``DREAMER_DASK_ADDRESS``: the command line first."""
        address = address or os.environ.get(ADDRESS_ENV) or self.address
        kind = runner or ("dask" if address else self.runner)
        return self.model_copy(update={"runner": kind, "address": address if kind == "dask"
                                       else None})

    def describe(self) -> str:
        if self.runner == "threads":
            return f"threads ({self.workers or os.cpu_count()})"
        if self.address:
            return f"dask scheduler {self.address}"
        return f"dask LocalCluster ({self.workers or os.cpu_count()} workers)"


def task_runner(config: FanOutConfig) -> Any:
    """The Prefect task runner for ``config``."""
    workers = config.workers or os.cpu_count() or 1
    if config.runner == "threads":
        from prefect.task_runners import ThreadPoolTaskRunner

        return ThreadPoolTaskRunner(max_workers=workers)
    from prefect_dask import DaskTaskRunner

    if config.address:
        return DaskTaskRunner(address=config.address)
    return DaskTaskRunner(cluster_class="distributed.LocalCluster",
                          cluster_kwargs={"n_workers": workers,
                                          "threads_per_worker": config.threads_per_worker,
                                          "processes": True, "dashboard_address": None})
