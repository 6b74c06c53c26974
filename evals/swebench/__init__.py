"""Real SWE-bench rows, graded as SWE-bench grades them, without Docker.

- ``sources``: a row's repository from a ``--repos-dir`` of mirrors (archives, git, bundles);
- ``pythons``: the spec's interpreter among the machine's (pyenv, ``uv python find``, PATH);
- ``specs``: the per-repository, per-version spec from ``swebench`` 4.x, and the test command;
- ``envs``: one isolated environment per spec, shared read-only, and per-copy overlays;
- ``grade``: install, test, parse with ``swebench``'s log parsers, grade with its rules;
- ``validate``: gold and empty patch per row, SWE-bench's ``report.json`` per instance;
- ``ordered``: one repository's rows in time order, each row's pack drawn from earlier rows.

Importing this package is cheap; ``swebench`` (seconds to import) is loaded where it is used.
"""
