"""The replay benchmark corpus: repositories, task families, recorded sessions, leak checks.

``build_corpus`` writes a corpus folder (tasks, sessions, repositories, split, provenance);
``corpus_info`` summarises one; ``check_corpus_leaks`` verifies that no memory pack carries
later evidence or a task's own fix.
"""
