"""router observations: verifications and feedback (append-only)

Revision ID: 0002_router
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_router"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "router_verifications",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("memory_id", sa.String(length=40), nullable=False),
        sa.Column("bank_id", sa.String(length=40), nullable=True),
        sa.Column("repo", sa.String(length=255), nullable=False),
        sa.Column("checkout", sa.Text(), nullable=False),
        sa.Column("commit", sa.String(length=64), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("router_verifications", schema=None) as batch_op:
        batch_op.create_index("ix_router_verifications_memory", ["memory_id", "id"], unique=False)

    op.create_table(
        "router_feedback",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("memory_id", sa.String(length=40), nullable=False),
        sa.Column("signal", sa.String(length=16), nullable=False),
        sa.Column("bank_id", sa.String(length=40), nullable=True),
        sa.Column("repo", sa.String(length=255), nullable=True),
        sa.Column("task_id", sa.String(length=255), nullable=True),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("router_feedback", schema=None) as batch_op:
        batch_op.create_index("ix_router_feedback_memory", ["memory_id", "signal"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("router_feedback", schema=None) as batch_op:
        batch_op.drop_index("ix_router_feedback_memory")
    op.drop_table("router_feedback")
    with op.batch_alter_table("router_verifications", schema=None) as batch_op:
        batch_op.drop_index("ix_router_verifications_memory")
    op.drop_table("router_verifications")
