"""extraction records: extracted sessions and the write gate's rejections

Revision ID: 0002_extraction
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_extraction"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "extractions",
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("bank_id", sa.String(length=40), nullable=True),
        sa.Column("backend", sa.String(length=255), nullable=False),
        sa.Column("candidates", sa.Integer(), nullable=False),
        sa.Column("kept", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("session_id"),
    )
    with op.batch_alter_table("extractions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_extractions_bank_id"), ["bank_id"], unique=False)

    op.create_table(
        "rejections",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("session_id", sa.String(length=40), nullable=False),
        sa.Column("event_seq", sa.Integer(), nullable=True),
        sa.Column("memory_type", sa.String(length=32), nullable=False),
        sa.Column("rule", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.String(length=64), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("rejections", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rejections_reason"), ["reason"], unique=False)
        batch_op.create_index(batch_op.f("ix_rejections_session_id"), ["session_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("rejections", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rejections_session_id"))
        batch_op.drop_index(batch_op.f("ix_rejections_reason"))
    op.drop_table("rejections")
    with op.batch_alter_table("extractions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_extractions_bank_id"))
    op.drop_table("extractions")
