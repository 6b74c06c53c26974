"""Prefect flows: the nightly dream, the strategy comparison. They stay thin: the logic lives in
``dreamer.loop`` and ``evals``, where it is tested without Prefect. Flow files are named
``*_flow.py`` because Prefect puts this folder on ``sys.path`` when it loads an entrypoint."""
