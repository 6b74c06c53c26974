"""Print a recorded session's conversation (for reviewing while writing specs)."""
import json
import sys

d = json.load(open(sys.argv[1]))
start = int(sys.argv[2]) if len(sys.argv) > 2 else 2
for i, m in enumerate(d["history"][start:], start=start):
    print(f"----- [{i}] {m['role']}")
    print(m["content"])
