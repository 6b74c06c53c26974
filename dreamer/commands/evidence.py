"""Commands over the evidence store: ingest, sessions, show session, quarantine."""

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated

import typer

from dreamer.commands.common import console, esc, fail, print_json, show_app, store_or_exit

PROGRESS_MIN_FILES = 10
"""Below this many files a progress bar is noise."""


def register(app: typer.Typer) -> None:
    @app.command()
    def ingest(
        paths: Annotated[list[Path], typer.Argument(help="Trajectory files or folders (recursed).")],
        repo: Annotated[str | None, typer.Option(help="Repository, where a file does not say.")] = None,
        branch: Annotated[str | None, typer.Option(help="Branch, where a file does not say.")] = None,
        commit: Annotated[str | None, typer.Option(help="Commit, where a file does not say.")] = None,
        task: Annotated[str | None, typer.Option(help="Task or issue id, where a file does not say.")] = None,
        fmt: Annotated[str, typer.Option("--format", help="auto, or an adapter name.")] = "auto",
        manifest: Annotated[Path | None, typer.Option(
            help="A sessions manifest (JSONL: file, started_at, ended_at, repo) for formats "
                 "that record no time or repository, such as a corpus's sessions.jsonl.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    ) -> None:
        """Ingest trajectories into the append-only evidence store.

        Malformed files are quarantined (kept verbatim with the reason); the rest proceed.
        Exits 0 even when files were quarantined; non-zero on a usage or store failure.
        """
        from dreamer.ingest import ADAPTERS, Defaults, ingest_paths
        from dreamer.ingest import adapters as _adapters  # noqa: F401  (registers them)

        if fmt != "auto" and fmt not in ADAPTERS:
            fail(f"unknown --format {fmt!r}; known: auto, {', '.join(ADAPTERS.names())}", code=2)
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            fail(f"no such file or folder: {', '.join(missing)}", code=2)
        from dreamer.errors import IngestError
        from dreamer.ingest.driver import read_manifest

        try:
            rows = read_manifest(manifest) if manifest else {}
        except IngestError as exc:
            fail(str(exc), code=2)
        store = store_or_exit()
        report = ingest_paths(
            store, paths, Defaults(repo, branch, commit, task, manifest=rows), fmt,
            progress=None if as_json else _progress,
        )
        if as_json:
            print_json(report.summary())
            return
        _print_report(report)

    @app.command()
    def pull(
        sources: Annotated[list[str] | None, typer.Argument(
            help="Folders, or agents' standard places: claude-code (~/.claude/projects), "
            "openhands (~/.openhands/sessions), swe-agent (./trajectories). Default: every "
            "standard place that exists.")] = None,
        repo: Annotated[str | None, typer.Option(help="Repository, for every session.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    ) -> None:
        """Ingest what changed in each source since the last pull (a watermark per source).

        A session log that grew since is read again and extends its stored session.
        """
        from dreamer.ingest import Defaults
        from dreamer.ingest.pull import PLACES, resolve
        from dreamer.ingest.pull import pull as run_pull

        chosen = list(sources or [n for n in PLACES if resolve(n).path.exists()])
        if not chosen:
            fail("no source given and no standard place exists ("
                 + ", ".join(f"{n}: {p}" for n, p in PLACES.items()) + ")", code=2)
        result = run_pull(store_or_exit(), chosen, Defaults(repo=repo))
        if as_json:
            print_json(result.summary())
            return
        for source in result.sources:
            state = "missing" if source["missing"] else (
                f"{source['read']} read, {source['unchanged']} unchanged")
            console().print(f"[bold]{esc(source['source'])}[/bold] ({esc(source['path'])}): "
                            f"{state}", highlight=False)
        _print_report(result.report)

    @app.command()
    def sessions(
        repo: Annotated[str | None, typer.Option(help="Only this repository's sessions.")] = None,
        problems: Annotated[bool, typer.Option(
            "--problems", help="Only sessions with no time or repository, or with warnings.")
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """List stored sessions, oldest first (with --problems: what is missing in each)."""
        from dreamer.ingest.problems import session_problems

        rows = store_or_exit().evidence.sessions(repo=repo)
        if problems:
            listed = [(s, session_problems(s)) for s in rows]
            found = [(s, p) for s, p in listed if p]
            if as_json:
                print_json([{"id": s.id, "source_path": s.source_path, "repo": s.repo,
                             "started_at": s.started_at, "problems": p} for s, p in found])
                return
            for s, found_problems in found:
                console().print(f"[bold]{s.id}[/bold] {esc(s.source_path or '')}", highlight=False)
                for problem in found_problems:
                    console().print(f"  {esc(problem['code'])}: {esc(problem['message'])}",
                                    highlight=False)
            console().print(f"{len(found)} of {len(rows)} sessions with problems")
            return
        if as_json:
            print_json([s.model_dump(mode="json", exclude={"events"}) for s in rows])
            return
        from rich.table import Table

        table = Table("id", "format", "repo", "branch", "task", "outcome", "events", "started")
        for s in rows:
            table.add_row(
                s.id, esc(s.source_format), esc(s.repo or ""), esc(s.branch or ""),
                esc(s.task_id or ""), esc(s.outcome or ""), str(s.metadata.get("event_count", "")),
                s.started_at.isoformat(timespec="seconds") if s.started_at else "",
            )
        console().print(table)
        console().print(f"{len(rows)} sessions")

    @show_app.command("session")
    def show_session(
        session_id: Annotated[str, typer.Argument(help="Session id or a unique prefix.")],
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        width: Annotated[int, typer.Option(help="Characters of each event's text to show.")] = 300,
        raw: Annotated[bool, typer.Option(
            "--raw", help="Read the events again from the verbatim file, secrets unredacted.")
        ] = False,
    ) -> None:
        """Show a session with its structured events (secrets redacted unless --raw)."""
        from dreamer.errors import DreamerError, StoreError

        store = store_or_exit()
        try:
            session = store.evidence.session(session_id)
        except StoreError as exc:
            fail(str(exc))
        if raw:
            from dreamer.ingest.problems import unredacted

            try:
                session = unredacted(store, session)
            except DreamerError as exc:
                fail(str(exc))
        if as_json:
            print_json(session.model_dump(mode="json"))
            return
        _print_session(session, width)

    @app.command()
    def quarantine(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
        """List quarantined files with the reason and where in the file the fault is."""
        rows = store_or_exit().evidence.quarantined()
        items = [
            {"path": r.source_path, "sha256": r.sha256, "reason": r.reason, "where": r.location,
             "at": r.at.isoformat()}
            for r in rows
        ]
        if as_json:
            print_json(items)
            return
        for item in items:
            console().print(f"[red]{esc(item['path'])}[/red]: {esc(item['reason'])} "
                            f"(at {esc(item['where'])})", highlight=False)
        console().print(f"{len(items)} quarantined")


def _progress(files: Iterable[Path], total: int) -> Iterator[Path]:
    if total < PROGRESS_MIN_FILES or not sys.stderr.isatty():
        yield from files
        return
    from rich.progress import track

    yield from track(files, total=total, description="ingesting", console=console(stderr=True))


def _print_report(report) -> None:  # type: ignore[no-untyped-def]
    out = console()
    for item in report.ingested:
        out.print(f"[green]ingested[/green] {esc(item['path'])} ({esc(item['format'])}, "
                  f"{len(item['sessions'])} session(s): {', '.join(item['sessions'])})",
                  highlight=False)
    for item in report.duplicates:
        out.print(f"[yellow]duplicate[/yellow] {esc(item['path'])} (already {item['status']})",
                  highlight=False)
    for item in report.quarantined:
        out.print(f"[red]quarantined[/red] {esc(item['path'])}: {esc(item['reason'])} "
                  f"(at {esc(item['where'])})", highlight=False)
    for item in report.skipped:
        out.print(f"[dim]skipped[/dim] {esc(item['path'])}: {esc(item['reason'])}",
                  highlight=False)
    for item in report.failed:
        out.print(f"[red]failed[/red] {esc(item['path'])}: {esc(item['error'])}", highlight=False)
    for item in report.warnings:
        out.print(f"[yellow]warning[/yellow] {item['session']} ({esc(item['path'])}): "
                  f"{esc(item['code'])}: {esc(item['message'])}", highlight=False)
    out.print(
        f"{len(report.ingested)} ingested, {len(report.duplicates)} duplicates, "
        f"{len(report.quarantined)} quarantined, {len(report.skipped)} skipped"
        + (f", {len(report.failed)} FAILED" if report.failed else "")
        + (f", {len(report.warnings)} warnings (dreamer sessions --problems)"
           if report.warnings else "")
    )


def _print_session(session, width: int) -> None:  # type: ignore[no-untyped-def]
    from rich.markup import escape

    out = console()
    head = session.model_dump(mode="json", exclude={"events"})
    for key, value in head.items():
        if value not in (None, {}, ""):
            shown = json.dumps(value) if isinstance(value, dict) else value
            out.print(f"[bold]{key}[/bold]: {escape(str(shown))}", soft_wrap=True)
    for event in session.events:
        role = f" ({event.role})" if event.role else ""
        out.print(f"\n[bold cyan]#{event.seq} {event.kind.value}[/bold cyan]{role}")
        text = event.text if len(event.text) <= width else event.text[:width] + " …"
        if text.strip():
            out.print(escape(text), soft_wrap=True, highlight=False)
        data = {k: v for k, v in event.data.items() if k != "diff"}
        if "diff" in event.data:
            data["diff"] = f"<{len(str(event.data['diff']).splitlines())} lines>"
        if data:
            out.print(f"[dim]{escape(json.dumps(data, default=str)[: width * 2])}[/dim]", soft_wrap=True)
