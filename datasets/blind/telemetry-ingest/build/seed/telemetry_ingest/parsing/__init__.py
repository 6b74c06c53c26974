"""Parsers for what devices and gateways send us."""

from telemetry_ingest.parsing.json_payload import ParseError, ParseResult, parse_payload

__all__ = ["ParseError", "ParseResult", "parse_payload"]
