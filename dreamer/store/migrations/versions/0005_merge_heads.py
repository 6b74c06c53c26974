"""merge the three heads (locks and gate decisions, router observations, live logs) into one

Revision ID: 0005_merge_heads
Revises: 0002_locks, 0002_router, 0004_live_logs
Create Date: 2026-11-30
"""

revision = "0005_merge_heads"
down_revision = ("0002_locks", "0002_router", "0004_live_logs")
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
