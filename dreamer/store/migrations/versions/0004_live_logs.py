"""live logs: a session's native id and versions, extraction per version, source watermarks

Revision ID: 0004_live_logs
Revises: 0002_extraction
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_live_logs"
down_revision = "0002_extraction"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("native_id", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=False,
                                      server_default="1"))
        batch_op.create_index(batch_op.f("ix_sessions_native_id"), ["native_id"], unique=False)
    op.create_table(
        "session_versions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("raw_sha256", sa.String(length=64), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("events_before", sa.Integer(), nullable=False),
        sa.Column("events_after", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"]),
        sa.ForeignKeyConstraint(["raw_sha256"], ["blobs.sha256"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("session_versions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_session_versions_session_id"), ["session_id"],
                              unique=False)
    with op.batch_alter_table("extractions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("session_version", sa.Integer(), nullable=True))
    op.create_table(
        "source_watermarks",
        sa.Column("source", sa.String(length=512), nullable=False),
        sa.Column("mtime_ns", sa.BigInteger(), nullable=False),
        sa.Column("files", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("source"),
    )


def downgrade() -> None:
    op.drop_table("source_watermarks")
    with op.batch_alter_table("extractions", schema=None) as batch_op:
        batch_op.drop_column("session_version")
    with op.batch_alter_table("session_versions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_session_versions_session_id"))
    op.drop_table("session_versions")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_native_id"))
        batch_op.drop_column("version")
        batch_op.drop_column("native_id")
