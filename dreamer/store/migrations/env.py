"""Alembic environment: runs on the connection that ``dreamer.store.migrate`` hands over."""

from alembic import context
from sqlalchemy import create_engine

import dreamer.extract.records  # noqa: F401  (their tables share Base's metadata)
import dreamer.router.records  # noqa: F401
from dreamer.store.schema import Base

config = context.config
target_metadata = Base.metadata

connection = config.attributes.get("connection")
if connection is None:  # invoked from the alembic command line
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
