from clinic.billing.fees import dollars
from clinic.billing.invoice import invoice_for_booking

from .conftest import at


def test_invoice_for_follow_up(service):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    invoice = invoice_for_booking(booking)
    assert [(l.code, l.amount_cents) for l in invoice.lines] == [("99213", 9500)]
    assert invoice.total_cents == 9500


def test_invoice_for_new_patient(service):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "new-patient")
    assert invoice_for_booking(booking).lines[0].code == "99203"


def test_dollars():
    assert dollars(9500) == "95.00"
    assert dollars(5) == "0.05"
