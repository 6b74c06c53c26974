"""Invoices for completed visits."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Booking
from ..visit_types import get_visit_type
from .codes import code_for, fee_for


@dataclass(frozen=True)
class InvoiceLine:
    code: str
    description: str
    amount_cents: int
    modifiers: tuple[str, ...] = ()


@dataclass
class Invoice:
    booking_id: str
    lines: list[InvoiceLine] = field(default_factory=list)

    @property
    def total_cents(self) -> int:
        return sum(line.amount_cents for line in self.lines)


def invoice_for_booking(booking: Booking) -> Invoice:
    visit = get_visit_type(booking.visit_type)
    line = InvoiceLine(
        code=code_for(booking.visit_type),
        description=visit.label,
        amount_cents=fee_for(booking.visit_type),
    )
    return Invoice(booking.id, [line])
