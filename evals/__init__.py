"""The replay harness: score a memory bank on SWE-bench-style tasks where real tests decide."""
