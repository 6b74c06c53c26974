import json, sys
from pathlib import Path
for line in Path(sys.argv[1]).read_text().splitlines():
    r = json.loads(line)
    if r["type"] == "summary":
        print("SUMMARY", r["summary"]); continue
    c = r["message"]["content"]
    if isinstance(c, str):
        print(f"[{r['timestamp']}] USER: {c}\n"); continue
    for p in c:
        if p["type"] == "text": print(f"[{r['timestamp']}] {r['type'].upper()} TEXT: {p['text']}\n")
        elif p["type"] == "tool_use": print(f"[{r['timestamp']}] TOOL_USE {p['name']}: {json.dumps(p['input'])[:300]}\n")
        elif p["type"] == "tool_result":
            cc = p["content"]
            print(f"[{r['timestamp']}] RESULT err={p['is_error']}:\n{cc[:int(sys.argv[2]) if len(sys.argv)>2 else 3000]}\n")
