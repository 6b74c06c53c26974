"""router usage: each memory's feedback events summed, so a recall reads counts, not history

Revision ID: 0006_router_usage
Revises: 0005_merge_heads
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_router_usage"
down_revision = "0005_merge_heads"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "router_usage",
        sa.Column("memory_id", sa.String(length=40), nullable=False),
        sa.Column("retrieved", sa.Integer(), nullable=False),
        sa.Column("helped", sa.Integer(), nullable=False),
        sa.Column("hurt", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("memory_id"),
    )
    # The events recorded so far, summed.
    op.execute(
        "INSERT INTO router_usage (memory_id, retrieved, helped, hurt) "
        "SELECT memory_id, "
        "SUM(CASE WHEN signal = 'retrieved' THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN signal = 'helped' THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN signal = 'hurt' THEN 1 ELSE 0 END) "
        "FROM router_feedback GROUP BY memory_id"
    )


def downgrade() -> None:
    op.drop_table("router_usage")
