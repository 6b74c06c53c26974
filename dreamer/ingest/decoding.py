"""Bytes to a ``Document``: empty, binary, mis-encoded and oversized files refused, JSON or JSON
Lines decoded, and the decoded value held to ingest's limits (``limits``) before any adapter
sees it. Every refusal is an ``IngestError`` that says what and where.
"""

from __future__ import annotations

import json

from dreamer.errors import IngestError
from dreamer.ingest.base import Document
from dreamer.ingest.limits import Limits, check_structure, deep_nesting, int_parser

JSONL_SUFFIXES = (".jsonl", ".ndjson")


def decode(data: bytes, path: str, limits: Limits | None = None) -> Document:
    """Turn raw bytes into a ``Document``, or raise ``IngestError`` saying what and where.

    The document is held to ``limits`` (nesting depth, integer digits) before any adapter sees
    it; unpaired surrogates in its strings become U+FFFD.
    """
    limits = limits or Limits.from_env()
    if not data.strip():
        raise IngestError("empty file", "byte 0")
    if len(data) > limits.max_bytes:
        raise IngestError(
            f"file is {len(data)} bytes, over the {limits.max_bytes}-byte limit "
            "(DREAMER_INGEST_MAX_BYTES)"
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        raise IngestError("binary file (NUL byte)", f"byte {nul}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IngestError(f"not UTF-8 text: {exc.reason}", f"byte {exc.start}") from exc
    if not path.endswith(JSONL_SUFFIXES):
        try:
            return Document("json", _loads(text, text, limits, "document"), path)
        except json.JSONDecodeError as exc:
            if text.lstrip().startswith("[") or text.count("\n") < 1:
                raise IngestError(
                    f"invalid JSON: {exc.msg}", f"line {exc.lineno}, column {exc.colno}"
                ) from exc
            first_error = exc
        try:
            return _decode_jsonl(text, path, limits)
        except IngestError:
            raise IngestError(
                f"invalid JSON: {first_error.msg}",
                f"line {first_error.lineno}, column {first_error.colno}",
            ) from first_error
    return _decode_jsonl(text, path, limits)


def _loads(text: str, whole: str, limits: Limits, where: str) -> object:
    """``json.loads`` held to the limits: too deep or too long a number is an IngestError."""
    try:
        value = json.loads(text, parse_int=int_parser(limits, whole))
    except RecursionError as exc:
        raise deep_nesting(text, limits) from exc
    except ValueError as exc:
        if isinstance(exc, json.JSONDecodeError):
            raise
        raise IngestError(f"a value Python cannot read: {exc}", where) from exc
    return check_structure(value, limits, where)


def _decode_jsonl(text: str, path: str, limits: Limits) -> Document:
    records: list[object] = []
    lines: list[int] = []
    rows = text.splitlines()
    for number, line in enumerate(rows, start=1):
        if not line.strip():
            continue
        try:
            records.append(_loads(line, line, limits, f"line {number}"))
        except json.JSONDecodeError as exc:
            raise IngestError(
                f"invalid JSON Lines record: {exc.msg}", f"line {number}, column {exc.colno}"
            ) from exc
        except IngestError as exc:
            where = exc.where or ""
            raise IngestError(exc.reason, where.replace("line 1,", f"line {number},", 1)
                              if where.startswith("line 1,") else where or f"line {number}"
                              ) from exc
        lines.append(number)
    return Document("jsonl", records, path, tuple(lines))
