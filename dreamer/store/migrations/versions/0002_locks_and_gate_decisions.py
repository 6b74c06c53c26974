"""locks and gate decisions

Revision ID: 0002_locks
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_locks"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "locks",
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("holder", sa.String(length=255), nullable=False),
        sa.Column("acquired_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "gate_decisions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("repo", sa.String(length=255), nullable=False),
        sa.Column("candidate", sa.String(length=40), nullable=False),
        sa.Column("production", sa.String(length=40), nullable=True),
        sa.Column("passed", sa.Boolean(), nullable=False),
        sa.Column("promoted", sa.Boolean(), nullable=False),
        sa.Column("reasons", sa.JSON(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_gate_decisions_repo", "gate_decisions", ["repo"])


def downgrade() -> None:
    op.drop_index("ix_gate_decisions_repo", table_name="gate_decisions")
    op.drop_table("gate_decisions")
    op.drop_table("locks")
