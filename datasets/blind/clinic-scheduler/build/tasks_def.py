"""The evaluation tasks: side branches (features written the naive way), gold fixes, decoys, tests.

An edit is ``(path, old, new)``: replace the one occurrence of ``old`` in ``path`` with ``new``;
``old=None`` writes ``new`` as the whole file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Edit = tuple[str, str | None, str]


@dataclass
class TaskSpec:
    n: int
    family: str
    slug: str
    created_at: str
    problem: str
    tests: dict[str, str]  # hidden test files (new files)
    f2p: list[str]
    p2p: list[str]
    gold: list[Edit]
    decoys: list[list[Edit]]
    base: list[tuple[str, str, str, list[Edit]]] = field(default_factory=list)  # (who, when, message, edits)


TASKS: list[TaskSpec] = []

# =============================================================================== F1 (telehealth modifier)

GROUP_PY = '''"""Invoices for group classes (diabetes education, smoking cessation)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .invoice import Invoice, InvoiceLine

# program -> (procedure code, fee per attendee in cents)
GROUP_PROGRAMS: dict[str, tuple[str, int]] = {
    "diabetes-education": ("G0109", 3200),
    "smoking-cessation": ("99406", 2800),
}


@dataclass
class GroupClass:
    id: str
    program: str
    start: datetime
    attendees: list[str] = field(default_factory=list)
    virtual: bool = False


def invoices_for_class(group: GroupClass) -> dict[str, Invoice]:
    """One invoice per attendee, keyed by patient id."""
    code, fee = GROUP_PROGRAMS[group.program]
    invoices = {}
    for patient_id in group.attendees:
        line = InvoiceLine(code=code, description=f"group class: {group.program}", amount_cents=fee)
        invoices[patient_id] = Invoice(f"{group.id}:{patient_id}", [line])
    return invoices
'''

TEST_GROUP_PY = '''from clinic.billing.group import GroupClass, invoices_for_class

from .conftest import at


def test_one_invoice_per_attendee():
    group = GroupClass("g-1", "diabetes-education", at(10), ["p-maya", "p-ana"])
    invoices = invoices_for_class(group)
    assert sorted(invoices) == ["p-ana", "p-maya"]
    assert invoices["p-ana"].lines[0].code == "G0109"
    assert invoices["p-ana"].total_cents == 3200
'''

_LINE = '        line = InvoiceLine(code=code, description=f"group class: {group.program}", amount_cents=fee)\n'

TASKS.append(TaskSpec(
    n=1, family="F1", slug="virtual-group-class-claims", created_at="2025-04-23T09:40:00-04:00",
    base=[("omar", "2025-04-21T15:10:00-04:00", "billing: invoices for group classes",
           [("clinic/billing/group.py", None, GROUP_PY), ("tests/test_group.py", None, TEST_GROUP_PY)])],
    problem=(
        "Every claim for the virtual diabetes-education class on Tue 22 Apr (6 attendees) came back from the "
        "clearinghouse rejected with CO-4 (\"The procedure code is inconsistent with the modifier used or a "
        "required modifier is missing\"). The in-person class on Monday was paid, and nothing else in that "
        "batch was rejected. The smoking-cessation class runs online from next week, so it will hit the same "
        "problem."
    ),
    tests={"tests/test_group_claims.py": '''from clinic.billing.group import GroupClass, invoices_for_class

from .conftest import at


def test_virtual_diabetes_class_lines():
    group = GroupClass("g-7", "diabetes-education", at(10), ["p-maya", "p-ana"], virtual=True)
    for invoice in invoices_for_class(group).values():
        assert [(line.code, line.modifiers) for line in invoice.lines] == [("G0109", ("95",))]


def test_virtual_smoking_cessation_lines():
    group = GroupClass("g-9", "smoking-cessation", at(11), ["p-tom"], virtual=True)
    line = invoices_for_class(group)["p-tom"].lines[0]
    assert (line.code, line.modifiers, line.amount_cents) == ("99406", ("95",), 2800)


def test_in_person_class_lines_have_no_modifier():
    group = GroupClass("g-8", "smoking-cessation", at(10), ["p-tom"])
    line = invoices_for_class(group)["p-tom"].lines[0]
    assert (line.code, line.modifiers, line.amount_cents) == ("99406", (), 2800)
'''},
    f2p=["tests/test_group_claims.py::test_virtual_diabetes_class_lines",
         "tests/test_group_claims.py::test_virtual_smoking_cessation_lines"],
    p2p=["tests/test_group_claims.py::test_in_person_class_lines_have_no_modifier",
         "tests/test_group.py::test_one_invoice_per_attendee",
         "tests/test_billing.py::test_video_visit_line_has_telehealth_modifier"],
    gold=[
        ("clinic/billing/group.py", "from .invoice import Invoice, InvoiceLine\n",
         "from .codes import TELEHEALTH_MODIFIER\nfrom .invoice import Invoice, InvoiceLine\n"),
        ("clinic/billing/group.py", "    invoices = {}\n",
         "    modifiers = (TELEHEALTH_MODIFIER,) if group.virtual else ()\n    invoices = {}\n"),
        ("clinic/billing/group.py", "amount_cents=fee)\n", "amount_cents=fee, modifiers=modifiers)\n"),
    ],
    decoys=[
        [  # the modifier as it used to be
            ("clinic/billing/group.py", "# program -> (procedure code, fee per attendee in cents)\n",
             "# Claim modifier for classes held by video.\nVIRTUAL_MODIFIER = \"GT\"\n\n"
             "# program -> (procedure code, fee per attendee in cents)\n"),
            ("clinic/billing/group.py", "    invoices = {}\n",
             "    modifiers = (VIRTUAL_MODIFIER,) if group.virtual else ()\n    invoices = {}\n"),
            ("clinic/billing/group.py", _LINE,
             "        line = InvoiceLine(\n"
             "            code=code,\n"
             '            description=f"group class: {group.program}",\n'
             "            amount_cents=fee,\n"
             "            modifiers=modifiers,\n"
             "        )\n"),
        ],
        [  # every class line gets the modifier
            ("clinic/billing/group.py", "from .invoice import Invoice, InvoiceLine\n",
             "from .codes import TELEHEALTH_MODIFIER\nfrom .invoice import Invoice, InvoiceLine\n"),
            ("clinic/billing/group.py", _LINE,
             "        line = InvoiceLine(\n"
             "            code=code,\n"
             '            description=f"group class: {group.program}",\n'
             "            amount_cents=fee,\n"
             "            modifiers=(TELEHEALTH_MODIFIER,),\n"
             "        )\n"),
        ],
        [  # only the program that was rejected
            ("clinic/billing/group.py", "from .invoice import Invoice, InvoiceLine\n",
             "from .codes import TELEHEALTH_MODIFIER\nfrom .invoice import Invoice, InvoiceLine\n"),
            ("clinic/billing/group.py", "    invoices = {}\n",
             "    modifiers: tuple[str, ...] = ()\n"
             '    if group.virtual and group.program == "diabetes-education":\n'
             "        # G0109 is the code the payer checks for a telehealth modifier\n"
             "        modifiers = (TELEHEALTH_MODIFIER,)\n"
             "    invoices = {}\n"),
            ("clinic/billing/group.py", "amount_cents=fee)\n", "amount_cents=fee, modifiers=modifiers)\n"),
        ],
    ],
))

SUPERBILL_PY = '''"""Superbills: the itemised receipt patients send to their insurer for reimbursement."""

from __future__ import annotations

from ..models import Booking
from ..store import Store
from ..timeutil import CLINIC_TZ, to_zone
from ..visit_types import get_visit_type
from .codes import code_for, fee_for
from .fees import dollars

PROVIDER_NPI = "1558349021"


def superbill(store: Store, booking: Booking) -> dict:
    patient = store.patient(booking.patient_id)
    practitioner = store.practitioner(booking.practitioner_id)
    visit = get_visit_type(booking.visit_type)
    lines = [
        {
            "code": code_for(booking.visit_type),
            "modifiers": [],
            "description": visit.label,
            "amount": dollars(fee_for(booking.visit_type)),
        }
    ]
    return {
        "patient": patient.name,
        "mrn": patient.mrn,
        "provider": practitioner.name,
        "npi": PROVIDER_NPI,
        "date_of_service": to_zone(booking.start, CLINIC_TZ).date().isoformat(),
        "lines": lines,
        "total": dollars(fee_for(booking.visit_type)),
    }
'''

TEST_SUPERBILL_PY = '''from clinic.billing.superbill import superbill

from .conftest import at


def test_superbill_header(service, store):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    bill = superbill(store, booking)
    assert (bill["patient"], bill["mrn"], bill["provider"]) == ("Maya Chen", "MRN-204481", "Dr. Okafor")
    assert bill["total"] == "95.00"
'''

TASKS.append(TaskSpec(
    n=2, family="F1", slug="video-superbill-denied", created_at="2025-04-24T11:15:00-04:00",
    base=[("omar", "2025-04-22T10:30:00-04:00", "billing: superbills for out-of-network reimbursement",
           [("clinic/billing/superbill.py", None, SUPERBILL_PY), ("tests/test_superbill.py", None, TEST_SUPERBILL_PY)])],
    problem=(
        "Patients who send our superbill to their insurer for out-of-network reimbursement are getting denials "
        "for video visits (\"service not payable as submitted\"). The same patients' superbills for in-person "
        "visits are reimbursed. Example: Ana Ruiz, video follow-up with Dr. Okafor on Tue 6 May."
    ),
    tests={"tests/test_superbill_lines.py": '''from clinic.billing.superbill import superbill

from .conftest import at


def test_video_visit_superbill_lines(service, store):
    booking = service.book("p-ana", "pr-okafor", at(10, 0), "follow-up", telehealth=True)
    bill = superbill(store, booking)
    assert bill["lines"] == [
        {"code": "99213", "modifiers": ["95"], "description": "follow-up visit", "amount": "95.00"}
    ]
    assert bill["total"] == "95.00"


def test_in_person_superbill_lines(service, store):
    booking = service.book("p-maya", "pr-okafor", at(11, 0), "new-patient")
    bill = superbill(store, booking)
    assert bill["lines"] == [
        {"code": "99203", "modifiers": [], "description": "new patient visit", "amount": "165.00"}
    ]
    assert bill["date_of_service"] == "2025-05-06"
'''},
    f2p=["tests/test_superbill_lines.py::test_video_visit_superbill_lines"],
    p2p=["tests/test_superbill_lines.py::test_in_person_superbill_lines",
         "tests/test_superbill.py::test_superbill_header",
         "tests/test_billing.py::test_invoice_for_follow_up"],
    gold=[
        ("clinic/billing/superbill.py",
         "from ..visit_types import get_visit_type\nfrom .codes import code_for, fee_for\nfrom .fees import dollars\n",
         "from .fees import dollars\nfrom .invoice import invoice_for_booking\n"),
        ("clinic/billing/superbill.py",
         "    visit = get_visit_type(booking.visit_type)\n"
         "    lines = [\n"
         "        {\n"
         "            \"code\": code_for(booking.visit_type),\n"
         "            \"modifiers\": [],\n"
         "            \"description\": visit.label,\n"
         "            \"amount\": dollars(fee_for(booking.visit_type)),\n"
         "        }\n"
         "    ]\n",
         "    invoice = invoice_for_booking(booking)\n"
         "    lines = [\n"
         "        {\n"
         "            \"code\": line.code,\n"
         "            \"modifiers\": list(line.modifiers),\n"
         "            \"description\": line.description,\n"
         "            \"amount\": dollars(line.amount_cents),\n"
         "        }\n"
         "        for line in invoice.lines\n"
         "    ]\n"),
        ("clinic/billing/superbill.py", "        \"total\": dollars(fee_for(booking.visit_type)),\n",
         "        \"total\": dollars(invoice.total_cents),\n"),
    ],
    decoys=[
        [("clinic/billing/superbill.py", '            "modifiers": [],\n',
          '            "modifiers": ["GT"] if booking.telehealth else [],\n')],
        [
            ("clinic/billing/superbill.py", "from .codes import code_for, fee_for\n",
             "from .codes import TELEHEALTH_MODIFIER, code_for, fee_for\n"),
            ("clinic/billing/superbill.py", '            "modifiers": [],\n',
             '            "modifiers": [TELEHEALTH_MODIFIER],\n'),
        ],
        [
            ("clinic/billing/superbill.py", 'PROVIDER_NPI = "1558349021"\n',
             'PROVIDER_NPI = "1558349021"\n\n# CMS place-of-service codes: 02 telehealth, 11 office.\n'
             'POS_TELEHEALTH = "02"\nPOS_OFFICE = "11"\n'),
            ("clinic/billing/superbill.py", '            "modifiers": [],\n',
             '            "modifiers": [],\n'
             '            "place_of_service": POS_TELEHEALTH if booking.telehealth else POS_OFFICE,\n'),
        ],
    ],
))

RESUBMIT_PY = '''"""Corrected claims (frequency code 7) replacing claims the clearinghouse accepted."""

from __future__ import annotations

from ..models import Booking
from ..store import Store
from ..timeutil import CLINIC_TZ, to_zone
from .codes import code_for, fee_for
from .fees import dollars

FREQUENCY_CORRECTED = "7"


def corrected_claim_row(store: Store, booking: Booking, original_claim_id: str) -> dict[str, str]:
    """The row that replaces ``original_claim_id`` after a correction (e.g. a wrong MRN)."""
    patient = store.patient(booking.patient_id)
    return {
        "claim_id": f"CLM-{booking.id}-R",
        "original_claim_id": original_claim_id,
        "frequency": FREQUENCY_CORRECTED,
        "mrn": patient.mrn,
        "service_date": to_zone(booking.start, CLINIC_TZ).date().isoformat(),
        "code": code_for(booking.visit_type),
        "modifier": "",
        "amount": dollars(fee_for(booking.visit_type)),
    }
'''

TEST_RESUBMIT_PY = '''from clinic.billing.resubmit import corrected_claim_row

from .conftest import at


def test_corrected_claim_points_at_original(service, store):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    row = corrected_claim_row(store, booking, "CLM-b-1001")
    assert (row["claim_id"], row["original_claim_id"], row["frequency"]) == ("CLM-b-1001-R", "CLM-b-1001", "7")
'''

TASKS.append(TaskSpec(
    n=3, family="F1", slug="corrected-video-claims", created_at="2025-04-25T10:05:00-04:00",
    base=[("raj", "2025-04-23T14:20:00-04:00", "billing: corrected claims (frequency 7)",
           [("clinic/billing/resubmit.py", None, RESUBMIT_PY), ("tests/test_resubmit.py", None, TEST_RESUBMIT_PY)])],
    problem=(
        "Corrected claims (frequency 7) that we send for video visits, for example after fixing a patient's "
        "MRN, are rejected by the clearinghouse with CO-4, although the original claims for the same visits "
        "were accepted in the nightly export. Corrected claims for in-person visits go through fine."
    ),
    tests={"tests/test_corrected_claims.py": '''from clinic.billing.resubmit import corrected_claim_row

from .conftest import at


def test_corrected_video_claim(service, store):
    booking = service.book("p-ana", "pr-okafor", at(10, 0), "follow-up", telehealth=True)
    row = corrected_claim_row(store, booking, "CLM-b-1001")
    assert (row["code"], row["modifier"], row["frequency"]) == ("99213", "95", "7")


def test_corrected_in_person_claim(service, store):
    booking = service.book("p-maya", "pr-okafor", at(11, 0), "new-patient")
    row = corrected_claim_row(store, booking, "CLM-b-1001")
    assert (row["code"], row["modifier"], row["amount"]) == ("99203", "", "165.00")
'''},
    f2p=["tests/test_corrected_claims.py::test_corrected_video_claim"],
    p2p=["tests/test_corrected_claims.py::test_corrected_in_person_claim",
         "tests/test_resubmit.py::test_corrected_claim_points_at_original",
         "tests/test_claims.py::test_claim_rows"],
    gold=[
        ("clinic/billing/resubmit.py", "from .codes import code_for, fee_for\n",
         "from .codes import TELEHEALTH_MODIFIER, code_for, fee_for\n"),
        ("clinic/billing/resubmit.py", '        "modifier": "",\n',
         '        "modifier": TELEHEALTH_MODIFIER if booking.telehealth else "",\n'),
    ],
    decoys=[
        [("clinic/billing/resubmit.py", '        "modifier": "",\n',
          '        "modifier": "GT" if booking.telehealth else "",\n')],
        [
            ("clinic/billing/resubmit.py", "from .codes import code_for, fee_for\n",
             "from .codes import TELEHEALTH_MODIFIER, code_for, fee_for\n"),
            ("clinic/billing/resubmit.py", 'FREQUENCY_CORRECTED = "7"\n',
             'FREQUENCY_CORRECTED = "7"\n\n# The clearinghouse wants a modifier on every corrected claim line.\n'
             "CORRECTED_MODIFIER = TELEHEALTH_MODIFIER\n"),
            ("clinic/billing/resubmit.py", '        "modifier": "",\n',
             '        "modifier": CORRECTED_MODIFIER,\n'),
        ],
        [
            ("clinic/billing/resubmit.py", "from .fees import dollars\n",
             "from .fees import dollars\nfrom .invoice import invoice_for_booking\n"),
            ("clinic/billing/resubmit.py", "    patient = store.patient(booking.patient_id)\n",
             "    patient = store.patient(booking.patient_id)\n"
             "    line = invoice_for_booking(booking).lines[0]\n"),
            ("clinic/billing/resubmit.py", '        "code": code_for(booking.visit_type),\n'
             '        "modifier": "",\n'
             '        "amount": dollars(fee_for(booking.visit_type)),\n',
             '        "code": line.code,\n'
             '        "modifier": line.modifiers,\n'
             '        "amount": dollars(line.amount_cents),\n'),
        ],
    ],
))

ADDONS_PY = '''"""Add-on services billed with a visit (interpreter, prolonged time)."""

from __future__ import annotations

from ..models import Booking
from .invoice import Invoice, InvoiceLine, invoice_for_booking

# add-on -> (procedure code, description, fee in cents)
ADDON_CODES: dict[str, tuple[str, str, int]] = {
    "interpreter": ("T1013", "interpreter services", 2500),
    "prolonged": ("99417", "prolonged service, each 15 minutes", 6000),
}


def invoice_with_addons(booking: Booking, addons: list[str]) -> Invoice:
    """The visit's invoice plus one line per add-on service."""
    invoice = invoice_for_booking(booking)
    for name in addons:
        code, description, fee = ADDON_CODES[name]
        invoice.lines.append(InvoiceLine(code=code, description=description, amount_cents=fee))
    return invoice
'''

TEST_ADDONS_PY = '''from clinic.billing.addons import invoice_with_addons

from .conftest import at


def test_addon_lines_follow_the_visit(service):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "new-patient")
    invoice = invoice_with_addons(booking, ["prolonged"])
    assert [line.code for line in invoice.lines] == ["99203", "99417"]
    assert invoice.total_cents == 16500 + 6000
'''

_ADDON_APPEND = "        invoice.lines.append(InvoiceLine(code=code, description=description, amount_cents=fee))\n"

TASKS.append(TaskSpec(
    n=4, family="F1", slug="video-addon-lines-rejected", created_at="2025-04-28T09:20:00-04:00",
    base=[("omar", "2025-04-24T16:40:00-04:00", "billing: add-on services (interpreter, prolonged time)",
           [("clinic/billing/addons.py", None, ADDONS_PY), ("tests/test_addons.py", None, TEST_ADDONS_PY)])],
    problem=(
        "For video visits with an interpreter or prolonged time, the payer pays the visit line but rejects the "
        "add-on lines (T1013, 99417) with CO-4. Add-ons on in-person visits are paid."
    ),
    tests={"tests/test_addon_claims.py": '''from clinic.billing.addons import invoice_with_addons

from .conftest import at


def test_video_visit_addon_lines(service):
    booking = service.book("p-ana", "pr-okafor", at(10, 0), "follow-up", telehealth=True)
    invoice = invoice_with_addons(booking, ["interpreter", "prolonged"])
    assert [(line.code, line.modifiers) for line in invoice.lines] == [
        ("99213", ("95",)),
        ("T1013", ("95",)),
        ("99417", ("95",)),
    ]
    assert invoice.total_cents == 9500 + 2500 + 6000


def test_in_person_addon_lines(service):
    booking = service.book("p-maya", "pr-okafor", at(11, 0), "new-patient")
    invoice = invoice_with_addons(booking, ["interpreter"])
    assert [(line.code, line.modifiers) for line in invoice.lines] == [("99203", ()), ("T1013", ())]
'''},
    f2p=["tests/test_addon_claims.py::test_video_visit_addon_lines"],
    p2p=["tests/test_addon_claims.py::test_in_person_addon_lines",
         "tests/test_addons.py::test_addon_lines_follow_the_visit",
         "tests/test_billing.py::test_video_visit_line_has_telehealth_modifier"],
    gold=[
        ("clinic/billing/addons.py", "from .invoice import Invoice, InvoiceLine, invoice_for_booking\n",
         "from .codes import TELEHEALTH_MODIFIER\nfrom .invoice import Invoice, InvoiceLine, invoice_for_booking\n"),
        ("clinic/billing/addons.py", "    for name in addons:\n",
         "    modifiers = (TELEHEALTH_MODIFIER,) if booking.telehealth else ()\n    for name in addons:\n"),
        ("clinic/billing/addons.py", _ADDON_APPEND,
         "        invoice.lines.append(\n"
         "            InvoiceLine(code=code, description=description, amount_cents=fee, modifiers=modifiers)\n"
         "        )\n"),
    ],
    decoys=[
        [  # old modifier, kept next to the add-on table
            ("clinic/billing/addons.py", '    "prolonged": ("99417", "prolonged service, each 15 minutes", 6000),\n}\n',
             '    "prolonged": ("99417", "prolonged service, each 15 minutes", 6000),\n}\n\n'
             "# Payers want add-on lines of a video visit flagged as telehealth.\n"
             'ADDON_TELEHEALTH_MODIFIER = "GT"\n'),
            ("clinic/billing/addons.py", "    for name in addons:\n",
             "    modifiers = (ADDON_TELEHEALTH_MODIFIER,) if booking.telehealth else ()\n    for name in addons:\n"),
            ("clinic/billing/addons.py", _ADDON_APPEND,
             "        invoice.lines.append(\n"
             "            InvoiceLine(code=code, description=description, amount_cents=fee, modifiers=modifiers)\n"
             "        )\n"),
        ],
        [  # modifier on every add-on line
            ("clinic/billing/addons.py", "from .invoice import Invoice, InvoiceLine, invoice_for_booking\n",
             "from .codes import TELEHEALTH_MODIFIER\nfrom .invoice import Invoice, InvoiceLine, invoice_for_booking\n"),
            ("clinic/billing/addons.py", _ADDON_APPEND,
             "        invoice.lines.append(\n"
             "            InvoiceLine(code=code, description=description, amount_cents=fee, modifiers=(TELEHEALTH_MODIFIER,))\n"
             "        )\n"),
        ],
        [  # do not bill add-ons on video visits
            ("clinic/billing/addons.py", "    invoice = invoice_for_booking(booking)\n",
             "    invoice = invoice_for_booking(booking)\n"
             "    if booking.telehealth:\n"
             "        # payers reject add-on codes on video visits\n"
             "        return invoice\n"),
        ],
    ],
))

# =============================================================================== F2 (whose clock)

NOTICES_PY = '''"""Texts telling a patient that their appointment moved."""

from __future__ import annotations

from datetime import datetime

from ..models import Booking, Patient, Practitioner
from ..timeutil import CLINIC_TZ, fmt_day, fmt_time, to_zone
from ..visit_types import get_visit_type


def reschedule_notice(booking: Booking, patient: Patient, practitioner: Practitioner, old_start: datetime) -> str:
    visit = get_visit_type(booking.visit_type)
    old = to_zone(old_start, CLINIC_TZ)
    new = to_zone(booking.start, CLINIC_TZ)
    return (
        f"Hi {patient.first_name}, your {visit.label} with {practitioner.name} has moved from "
        f"{fmt_day(old)} {fmt_time(old)} to {fmt_day(new)} {fmt_time(new)}. Reply C to confirm."
    )
'''

TEST_NOTICES_PY = '''from .conftest import at


def test_reschedule_sends_a_notice(service):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    service.reschedule(booking.id, at(9, 40))
    assert len(service.notices) == 1
    assert "follow-up visit with Dr. Okafor has moved" in service.notices[0]
'''

TASKS.append(TaskSpec(
    n=5, family="F2", slug="reschedule-text-wrong-time", created_at="2025-04-23T14:30:00-04:00",
    base=[("mina", "2025-04-21T11:25:00-04:00", "reminders: text the patient when an appointment moves",
           [("clinic/reminders/notices.py", None, NOTICES_PY),
            ("clinic/booking.py", "from .reminders.scheduler import Reminder, plan_reminders\n",
             "from .reminders.notices import reschedule_notice\n"
             "from .reminders.scheduler import Reminder, plan_reminders\n"),
            ("clinic/booking.py", "        self.reminders: list[Reminder] = []\n",
             "        self.reminders: list[Reminder] = []\n        self.notices: list[str] = []\n"),
            ("clinic/booking.py", "        self.reminders.extend(plan_reminders(booking, patient, practitioner))\n"
             '        self.audit.record("rescheduled"',
             "        self.reminders.extend(plan_reminders(booking, patient, practitioner))\n"
             "        self.notices.append(reschedule_notice(booking, patient, practitioner, old_start))\n"
             '        self.audit.record("rescheduled"'),
            ("tests/test_notices.py", None, TEST_NOTICES_PY)])],
    problem=(
        "Complaint from Tom Becker (video follow-ups with Dr. Okafor): after reception moved his appointment on "
        "Tue 6 May, our text said it \"has moved from Tue 06 May 10:00 to Tue 06 May 11:00\". He joined the "
        "video call at 11:00 and waited for half an hour; Dr. Okafor's calendar shows that he did not turn up. "
        "The booking itself is correct in the calendar."
    ),
    tests={"tests/test_notice_times.py": '''from .conftest import at


def test_notice_for_patient_abroad(service):
    booking = service.book("p-tom", "pr-okafor", at(10, 0), "follow-up", telehealth=True)
    service.reschedule(booking.id, at(11, 0))
    assert service.notices[-1] == (
        "Hi Tom, your follow-up visit with Dr. Okafor has moved from Tue 06 May 15:00 to "
        "Tue 06 May 16:00. Reply C to confirm."
    )


def test_notice_for_evening_move_past_midnight(service):
    booking = service.book("p-tom", "pr-lee", at(19, 0), "follow-up", telehealth=True)
    service.reschedule(booking.id, at(20, 20))
    assert "moved from Wed 07 May 00:00 to Wed 07 May 01:20." in service.notices[-1]


def test_notice_for_patient_in_clinic_zone(service):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    service.reschedule(booking.id, at(9, 40))
    assert "moved from Tue 06 May 09:00 to Tue 06 May 09:40." in service.notices[-1]
'''},
    f2p=["tests/test_notice_times.py::test_notice_for_patient_abroad",
         "tests/test_notice_times.py::test_notice_for_evening_move_past_midnight"],
    p2p=["tests/test_notice_times.py::test_notice_for_patient_in_clinic_zone",
         "tests/test_notices.py::test_reschedule_sends_a_notice",
         "tests/test_reminder_times.py::test_reminder_for_ticket_2291"],
    gold=[
        ("clinic/reminders/notices.py", "from ..timeutil import CLINIC_TZ, fmt_day, fmt_time, to_zone\n",
         "from ..timeutil import fmt_day, fmt_time, to_zone\n"),
        ("clinic/reminders/notices.py",
         "    old = to_zone(old_start, CLINIC_TZ)\n    new = to_zone(booking.start, CLINIC_TZ)\n",
         "    old = to_zone(old_start, patient.tz)\n    new = to_zone(booking.start, patient.tz)\n"),
    ],
    decoys=[
        [  # clinic clock, labelled
            ("clinic/reminders/notices.py",
             "        f\"{fmt_day(old)} {fmt_time(old)} to {fmt_day(new)} {fmt_time(new)}. Reply C to confirm.\"\n",
             "        f\"{fmt_day(old)} {fmt_time(old)} ET to {fmt_day(new)} {fmt_time(new)} ET \"\n"
             "        \"(clinic time). Reply C to confirm.\"\n"),
        ],
        [  # the machine's local clock
            ("clinic/reminders/notices.py", "from ..timeutil import CLINIC_TZ, fmt_day, fmt_time, to_zone\n",
             "from ..timeutil import fmt_day, fmt_time\n"),
            ("clinic/reminders/notices.py",
             "    old = to_zone(old_start, CLINIC_TZ)\n    new = to_zone(booking.start, CLINIC_TZ)\n",
             "    # show local wall-clock times rather than a fixed zone\n"
             "    old = old_start.astimezone()\n    new = booking.start.astimezone()\n"),
        ],
        [  # both clocks
            ("clinic/reminders/notices.py",
             "    new = to_zone(booking.start, CLINIC_TZ)\n"
             "    return (\n"
             "        f\"Hi {patient.first_name}, your {visit.label} with {practitioner.name} has moved from \"\n"
             "        f\"{fmt_day(old)} {fmt_time(old)} to {fmt_day(new)} {fmt_time(new)}. Reply C to confirm.\"\n"
             "    )\n",
             "    new = to_zone(booking.start, CLINIC_TZ)\n"
             "    yours = to_zone(booking.start, patient.tz)\n"
             "    text = (\n"
             "        f\"Hi {patient.first_name}, your {visit.label} with {practitioner.name} has moved from \"\n"
             "        f\"{fmt_day(old)} {fmt_time(old)} to {fmt_day(new)} {fmt_time(new)} (clinic time)\"\n"
             "    )\n"
             "    if yours.utcoffset() != new.utcoffset():\n"
             "        text += f\", which is {fmt_day(yours)} {fmt_time(yours)} where you are\"\n"
             "    return text + \". Reply C to confirm.\"\n"),
        ],
    ],
))

WAITLIST_PY = '''"""Waitlist offers: when a time frees up, text the next patient on the waitlist."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..models import Patient, Practitioner
from ..phone import normalize
from ..timeutil import fmt_day, fmt_time


@dataclass(frozen=True)
class Offer:
    patient_id: str
    phone: str
    start: datetime
    text: str


def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:
    return (
        f"Hi {patient.first_name}, a time opened up with {practitioner.name} on "
        f"{fmt_day(start)} at {fmt_time(start)}. Reply YES within 2 hours to take it."
    )


def make_offer(patient: Patient, practitioner: Practitioner, start: datetime) -> Offer:
    return Offer(patient.id, normalize(patient.phone), start, offer_text(patient, practitioner, start))
'''

TEST_WAITLIST_PY = '''from clinic.reminders.waitlist import make_offer

from .conftest import at


def test_offer_goes_to_the_patients_phone(store):
    offer = make_offer(store.patient("p-maya"), store.practitioner("pr-okafor"), at(10, 0))
    assert offer.phone == "+12125550142"
    assert "Dr. Okafor" in offer.text and offer.text.endswith("Reply YES within 2 hours to take it.")
'''

TASKS.append(TaskSpec(
    n=6, family="F2", slug="waitlist-offer-odd-times", created_at="2025-04-24T15:50:00-04:00",
    base=[("mina", "2025-04-22T13:15:00-04:00", "reminders: waitlist offers by SMS",
           [("clinic/reminders/waitlist.py", None, WAITLIST_PY), ("tests/test_waitlist.py", None, TEST_WAITLIST_PY)])],
    problem=(
        "A patient on the waitlist got \"a time opened up with Dr. Lee on Wed 07 May at 00:20\". She thought "
        "it was a glitch and ignored it, and the slot stayed empty. Front desk say other waitlist offers "
        "show odd times too."
    ),
    tests={"tests/test_waitlist_times.py": '''from clinic.reminders.waitlist import make_offer, offer_text

from .conftest import at


def test_offer_for_patient_on_the_west_coast(store):
    text = offer_text(store.patient("p-ana"), store.practitioner("pr-lee"), at(20, 20))
    assert "with Dr. Lee on Tue 06 May at 17:20." in text


def test_offer_for_patient_in_clinic_zone(store):
    offer = make_offer(store.patient("p-maya"), store.practitioner("pr-lee"), at(20, 20))
    assert "with Dr. Lee on Tue 06 May at 20:20." in offer.text
'''},
    f2p=["tests/test_waitlist_times.py::test_offer_for_patient_on_the_west_coast",
         "tests/test_waitlist_times.py::test_offer_for_patient_in_clinic_zone"],
    p2p=["tests/test_waitlist.py::test_offer_goes_to_the_patients_phone",
         "tests/test_reminders.py::test_one_reminder_a_day_before"],
    gold=[
        ("clinic/reminders/waitlist.py", "from ..timeutil import fmt_day, fmt_time\n",
         "from ..timeutil import fmt_day, fmt_time, to_zone\n"),
        ("clinic/reminders/waitlist.py", "def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:\n"
         "    return (\n",
         "def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:\n"
         "    local = to_zone(start, patient.tz)\n"
         "    return (\n"),
        ("clinic/reminders/waitlist.py", '        f"{fmt_day(start)} at {fmt_time(start)}. Reply YES',
         '        f"{fmt_day(local)} at {fmt_time(local)}. Reply YES'),
    ],
    decoys=[
        [  # the clinic's clock
            ("clinic/reminders/waitlist.py", "from ..timeutil import fmt_day, fmt_time\n",
             "from ..timeutil import CLINIC_TZ, fmt_day, fmt_time, to_zone\n"),
            ("clinic/reminders/waitlist.py", "def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:\n"
             "    return (\n",
             "def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:\n"
             "    # offers quote the time as the clinic's calendar shows it\n"
             "    local = to_zone(start, CLINIC_TZ)\n"
             "    return (\n"),
            ("clinic/reminders/waitlist.py", '        f"{fmt_day(start)} at {fmt_time(start)}. Reply YES',
             '        f"{fmt_day(local)} at {fmt_time(local)}. Reply YES'),
        ],
        [  # patient's clock for the hour, but the UTC day
            ("clinic/reminders/waitlist.py", "from ..timeutil import fmt_day, fmt_time\n",
             "from ..timeutil import fmt_day, fmt_time, to_zone\n"),
            ("clinic/reminders/waitlist.py", "def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:\n"
             "    return (\n",
             "def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:\n"
             "    # the hour on the patient's own clock\n"
             "    hour = fmt_time(to_zone(start, patient.tz))\n"
             "    return (\n"),
            ("clinic/reminders/waitlist.py", '        f"{fmt_day(start)} at {fmt_time(start)}. Reply YES',
             '        f"{fmt_day(start)} at {hour}. Reply YES'),
        ],
        [  # clinic clock, labelled, as a helper
            ("clinic/reminders/waitlist.py", "from ..timeutil import fmt_day, fmt_time\n",
             "from ..timeutil import CLINIC_TZ, fmt_day, fmt_time, to_zone\n"),
            ("clinic/reminders/waitlist.py", "def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:\n"
             "    return (\n"
             "        f\"Hi {patient.first_name}, a time opened up with {practitioner.name} on \"\n"
             "        f\"{fmt_day(start)} at {fmt_time(start)}. Reply YES within 2 hours to take it.\"\n"
             "    )\n",
             "def _clinic_clock(start: datetime) -> str:\n"
             "    \"\"\"Day and time as the clinic's calendar shows them, with the zone spelled out.\"\"\"\n"
             "    local = to_zone(start, CLINIC_TZ)\n"
             "    return f\"{fmt_day(local)} at {fmt_time(local)} ET\"\n\n\n"
             "def offer_text(patient: Patient, practitioner: Practitioner, start: datetime) -> str:\n"
             "    return (\n"
             "        f\"Hi {patient.first_name}, a time opened up with {practitioner.name} on \"\n"
             "        f\"{_clinic_clock(start)}. Reply YES within 2 hours to take it.\"\n"
             "    )\n"),
        ],
    ],
))

NOSHOW_PY = '''"""No-show report for practice managers."""

from __future__ import annotations

from datetime import date, timedelta

from ..store import Store
from ..timeutil import clinic_datetime, fmt_day, fmt_time, to_zone


def noshow_report(store: Store, first_day: date, last_day: date) -> list[str]:
    """One line per no-show between two clinic days (inclusive), in time order."""
    start = clinic_datetime(first_day, 0)
    end = clinic_datetime(last_day, 0) + timedelta(days=1)
    lines = []
    for booking in store.bookings_between(start, end, active_only=False):
        if booking.status != "no_show":
            continue
        patient = store.patient(booking.patient_id)
        practitioner = store.practitioner(booking.practitioner_id)
        local = to_zone(booking.start, patient.tz)
        lines.append(f"{fmt_day(local)} {fmt_time(local)}  {practitioner.name:<12} {patient.name}")
    return lines
'''

TEST_NOSHOW_PY = '''from clinic.reports.noshow import noshow_report

from .conftest import DAY, at


def test_only_no_shows_listed(service, store):
    kept = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    missed = service.book("p-maya", "pr-okafor", at(10, 0), "follow-up")
    service.mark_no_show(missed.id)
    lines = noshow_report(store, DAY, DAY)
    assert len(lines) == 1 and lines[0].endswith("Maya Chen")
    assert kept.status == "booked"
'''

TASKS.append(TaskSpec(
    n=7, family="F2", slug="noshow-report-times", created_at="2025-04-25T16:10:00-04:00",
    base=[("raj", "2025-04-23T10:05:00-04:00", "reports: no-show report; mark bookings as no-shows",
           [("clinic/reports/noshow.py", None, NOSHOW_PY),
            ("clinic/booking.py", "    def reschedule(self, booking_id: str, new_start: datetime) -> Booking:\n",
             "    def mark_no_show(self, booking_id: str) -> Booking:\n"
             "        booking = self.store.booking(booking_id)\n"
             '        booking.status = "no_show"\n'
             '        self.audit.record("no_show", booking_id)\n'
             "        return booking\n\n"
             "    def reschedule(self, booking_id: str, new_start: datetime) -> Booking:\n"),
            ("tests/test_noshow.py", None, TEST_NOSHOW_PY)])],
    problem=(
        "The no-show report for last week says Ana Ruiz missed an 11:30 appointment with Dr. Okafor on "
        "Tue 6 May, but Dr. Okafor's day sheet had her at 14:30, and the practice manager checked that she "
        "really did not turn up at 14:30. Several other lines don't match the day sheets either, so the "
        "managers have stopped trusting the report."
    ),
    tests={"tests/test_noshow_times.py": '''from clinic.reports.noshow import noshow_report

from .conftest import DAY, at


def test_noshow_lines_match_the_day_sheet(service, store):
    ana = service.book("p-ana", "pr-okafor", at(14, 30), "follow-up", telehealth=True)
    tom = service.book("p-tom", "pr-lee", at(20, 20), "follow-up", telehealth=True)
    service.mark_no_show(ana.id)
    service.mark_no_show(tom.id)
    assert noshow_report(store, DAY, DAY) == [
        "Tue 06 May 14:30  Dr. Okafor   Ana Ruiz",
        "Tue 06 May 20:20  Dr. Lee      Tom Becker",
    ]


def test_noshow_line_for_patient_in_clinic_zone(service, store):
    maya = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    service.mark_no_show(maya.id)
    assert noshow_report(store, DAY, DAY) == ["Tue 06 May 09:00  Dr. Okafor   Maya Chen"]
'''},
    f2p=["tests/test_noshow_times.py::test_noshow_lines_match_the_day_sheet"],
    p2p=["tests/test_noshow_times.py::test_noshow_line_for_patient_in_clinic_zone",
         "tests/test_noshow.py::test_only_no_shows_listed",
         "tests/test_weekly.py::test_week_summary_lines"],
    gold=[
        ("clinic/reports/noshow.py", "from ..timeutil import clinic_datetime, fmt_day, fmt_time, to_zone\n",
         "from ..timeutil import CLINIC_TZ, clinic_datetime, fmt_day, fmt_time, to_zone\n"),
        ("clinic/reports/noshow.py", "        local = to_zone(booking.start, patient.tz)\n",
         "        local = to_zone(booking.start, CLINIC_TZ)\n"),
    ],
    decoys=[
        [  # UTC
            ("clinic/reports/noshow.py", "from ..timeutil import clinic_datetime, fmt_day, fmt_time, to_zone\n",
             "from ..timeutil import clinic_datetime, fmt_day, fmt_time\n"),
            ("clinic/reports/noshow.py", "        local = to_zone(booking.start, patient.tz)\n"
             '        lines.append(f"{fmt_day(local)} {fmt_time(local)}  {practitioner.name:<12} {patient.name}")\n',
             "        # stored instants are UTC; print them as stored\n"
             '        lines.append(f"{fmt_day(booking.start)} {fmt_time(booking.start)}  {practitioner.name:<12} {patient.name}")\n'),
        ],
        [  # patient's clock with the zone spelled out
            ("clinic/reports/noshow.py",
             '        lines.append(f"{fmt_day(local)} {fmt_time(local)}  {practitioner.name:<12} {patient.name}")\n',
             '        lines.append(f"{fmt_day(local)} {fmt_time(local)} {local.tzname()}  {practitioner.name:<12} {patient.name}")\n'),
        ],
        [  # the server's local clock
            ("clinic/reports/noshow.py", "        local = to_zone(booking.start, patient.tz)\n",
             "        local = booking.start.astimezone()  # the clinic server runs on local time\n"),
        ],
    ],
))

EXPORT_PY = '''"""CSV export of a practitioner's day, for the practitioners' own calendars."""

from __future__ import annotations

import csv
import io
from datetime import date

from ..store import Store
from ..timeutil import fmt_time

COLUMNS = ("time", "patient", "visit", "mode")


def schedule_csv(store: Store, practitioner_id: str, day: date) -> str:
    rows = []
    for booking in store.bookings_for(practitioner_id):
        if booking.start.date() != day:
            continue
        patient = store.patient(booking.patient_id)
        rows.append(
            {
                "time": fmt_time(booking.start),
                "patient": patient.name,
                "visit": booking.visit_type,
                "mode": "video" if booking.telehealth else "in person",
            }
        )
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
'''

TEST_EXPORT_PY = '''from clinic.reports.export import schedule_csv

from .conftest import DAY


def test_empty_day_has_header(store):
    assert schedule_csv(store, "pr-okafor", DAY) == "time,patient,visit,mode\\n"
'''

TASKS.append(TaskSpec(
    n=8, family="F2", slug="schedule-csv-evening-missing", created_at="2025-04-28T13:35:00-04:00",
    base=[("mina", "2025-04-24T09:50:00-04:00", "reports: per-practitioner schedule CSV",
           [("clinic/reports/export.py", None, EXPORT_PY), ("tests/test_export.py", None, TEST_EXPORT_PY)])],
    problem=(
        "Dr. Lee's schedule CSV for Tue 6 May is missing her 20:20 video visit (it turns up in Wednesday's "
        "file instead), and every time in the file is four hours later than on the front desk's day sheet."
    ),
    tests={"tests/test_export_clinic_day.py": '''from datetime import date

from clinic.reports.export import schedule_csv

from .conftest import DAY, at


def test_evening_visits_stay_on_their_day(service, store):
    service.book("p-ana", "pr-lee", at(20, 20), "follow-up", telehealth=True)
    service.book("p-maya", "pr-lee", at(12, 0), "new-patient")
    assert schedule_csv(store, "pr-lee", DAY) == (
        "time,patient,visit,mode\\n"
        "12:00,Maya Chen,new-patient,in person\\n"
        "20:20,Ana Ruiz,follow-up,video\\n"
    )
    assert schedule_csv(store, "pr-lee", date(2025, 5, 7)) == "time,patient,visit,mode\\n"
'''},
    f2p=["tests/test_export_clinic_day.py::test_evening_visits_stay_on_their_day"],
    p2p=["tests/test_export.py::test_empty_day_has_header",
         "tests/test_reports.py::test_daily_schedule_in_time_order"],
    gold=[
        ("clinic/reports/export.py", "from ..timeutil import fmt_time\n",
         "from ..timeutil import CLINIC_TZ, fmt_time, to_zone\n"),
        ("clinic/reports/export.py", "        if booking.start.date() != day:\n",
         "        local = to_zone(booking.start, CLINIC_TZ)\n        if local.date() != day:\n"),
        ("clinic/reports/export.py", '                "time": fmt_time(booking.start),\n',
         '                "time": fmt_time(local),\n'),
    ],
    decoys=[
        [  # the patient's clock
            ("clinic/reports/export.py", "from ..timeutil import fmt_time\n",
             "from ..timeutil import fmt_time, to_zone\n"),
            ("clinic/reports/export.py", "        if booking.start.date() != day:\n",
             "        if to_zone(booking.start, store.patient(booking.patient_id).tz).date() != day:\n"),
            ("clinic/reports/export.py", '                "time": fmt_time(booking.start),\n',
             '                "time": fmt_time(to_zone(booking.start, patient.tz)),\n'),
        ],
        [  # clinic clock for the times only
            ("clinic/reports/export.py", "from ..timeutil import fmt_time\n",
             "from ..timeutil import CLINIC_TZ, fmt_time, to_zone\n"),
            ("clinic/reports/export.py", '                "time": fmt_time(booking.start),\n',
             '                "time": fmt_time(to_zone(booking.start, CLINIC_TZ)),\n'),
        ],
        [  # the server's local clock
            ("clinic/reports/export.py", "        if booking.start.date() != day:\n",
             "        if booking.start.astimezone().date() != day:\n"),
            ("clinic/reports/export.py", '                "time": fmt_time(booking.start),\n',
             '                "time": fmt_time(booking.start.astimezone()),\n'),
        ],
    ],
))

# =============================================================================== F3 (new visit types)

VT = "clinic/visit_types.py"
CODES = "clinic/billing/codes.py"
TPL = "clinic/reminders/templates.py"
RENDER = "clinic/reminders/templates.py"

_VT_LAST = '        VisitType("lab-review", "lab results review", 20, telehealth_ok=True),\n'
_CODES_LAST = '    "lab-review": ("99212", 7500),\n'
_TPL_LAST = ('    "lab-review": "Hi {first_name}, reminder: your lab results review with {practitioner} is on {day} '
             'at {time}.",\n}\n')


def _vt(line: str) -> Edit:
    return (VT, _VT_LAST, _VT_LAST + line)


def _code(line: str) -> Edit:
    return (CODES, _CODES_LAST, _CODES_LAST + line)


def _tpl(text: str) -> Edit:
    return (TPL, _TPL_LAST, _TPL_LAST[:-2] + text + "}\n")


_FALLBACK_TEMPLATE: Edit = (
    TPL,
    "    template = REMINDER_TEMPLATES.get(visit_type)\n    if template is None:\n        return None\n",
    "    template = REMINDER_TEMPLATES.get(visit_type, DEFAULT_TEMPLATE)\n",
)
_DEFAULT_TEMPLATE: Edit = (
    TPL,
    'VIDEO_SUFFIX = " Join by video: {link}"\n',
    '# Used for visit types without a text of their own.\n'
    'DEFAULT_TEMPLATE = "Hi {first_name}, reminder: your appointment with {practitioner} is on {day} at {time}."\n\n'
    'VIDEO_SUFFIX = " Join by video: {link}"\n',
)
_TOLERANT_CODES: Edit = (
    CODES,
    "def code_for(visit_type: str) -> str:\n    return VISIT_CODES[visit_type][0]\n\n\n"
    "def fee_for(visit_type: str) -> int:\n    return VISIT_CODES[visit_type][1]\n",
    "# Unlisted evaluation and management service, for visit types not priced yet.\n"
    'UNLISTED = ("99499", 0)\n\n\n'
    "def code_for(visit_type: str) -> str:\n    return VISIT_CODES.get(visit_type, UNLISTED)[0]\n\n\n"
    "def fee_for(visit_type: str) -> int:\n    return VISIT_CODES.get(visit_type, UNLISTED)[1]\n",
)


def _visit_tests(key: str, label: str, minutes_end: tuple[int, int], code: str, cents: int, video: bool,
                 patient: str = "p-maya") -> str:
    h, m = minutes_end
    video_test = (
        f'''

def test_{key.replace("-", "_")}_by_video(service):
    booking = service.book("p-ana", "pr-okafor", at(15, 0), "{key}", telehealth=True)
    assert booking.telehealth
'''
        if video
        else f'''

def test_{key.replace("-", "_")}_not_by_video(service):
    with pytest.raises(PolicyError):
        service.book("p-ana", "pr-okafor", at(15, 0), "{key}", telehealth=True)
'''
    )
    return f'''import pytest

from clinic.billing.invoice import invoice_for_booking
from clinic.errors import PolicyError

from .conftest import at


def test_{key.replace("-", "_")}_booking(service):
    booking = service.book("{patient}", "pr-okafor", at(9, 0), "{key}")
    assert booking.end == at({h}, {m})
{video_test}

def test_{key.replace("-", "_")}_invoice(service):
    booking = service.book("{patient}", "pr-okafor", at(9, 0), "{key}")
    line = invoice_for_booking(booking).lines[0]
    assert (line.code, line.amount_cents, line.description) == ("{code}", {cents}, "{label}")


def test_{key.replace("-", "_")}_reminder(service):
    booking = service.book("{patient}", "pr-okafor", at(9, 0), "{key}")
    reminders = [r for r in service.reminders if r.booking_id == booking.id]
    assert len(reminders) == 1
    assert "{label}" in reminders[0].text
'''


def _ids(path: str, key: str, video: bool) -> list[str]:
    k = key.replace("-", "_")
    return [f"{path}::test_{k}_booking", f"{path}::test_{k}_{'by_video' if video else 'not_by_video'}",
            f"{path}::test_{k}_invoice", f"{path}::test_{k}_reminder"]


F3_P2P = ["tests/test_lab_review.py::test_lab_review_reminder", "tests/test_physio.py::test_book_physio_followup",
          "tests/test_booking.py::test_unknown_visit_type"]

TASKS.append(TaskSpec(
    n=9, family="F3", slug="flu-shot-visit-type", created_at="2025-04-22T10:20:00-04:00",
    problem=(
        "Flu season prep: the front desk needs a `flu-shot` visit type: 20 minutes, in person only, shown to "
        "patients as \"flu shot\". It bills as 90686 at $40.00."
    ),
    tests={"tests/test_flu_shot.py": _visit_tests("flu-shot", "flu shot", (9, 20), "90686", 4000, False)},
    f2p=_ids("tests/test_flu_shot.py", "flu-shot", False),
    p2p=F3_P2P,
    gold=[
        _vt('        VisitType("flu-shot", "flu shot", 20),\n'),
        _code('    "flu-shot": ("90686", 4000),\n'),
        _tpl('    "flu-shot": (\n'
             '        "Hi {first_name}, reminder: your flu shot with {practitioner} is on {day} at {time}. "\n'
             '        "Please wear a short-sleeved top, and tell us if you have ever had a reaction to a "\n'
             '        "vaccine."\n'
             "    ),\n"),
    ],
    decoys=[
        [_vt('        VisitType("flu-shot", "flu shot", 20),\n'), _code('    "flu-shot": ("90686", 4000),\n')],
        [_vt('        VisitType("flu-shot", "flu shot", 20),\n'), _code('    "flu-shot": ("90686", 4000),\n'),
         (TPL, "    template = REMINDER_TEMPLATES.get(visit_type)\n    if template is None:\n        return None\n",
          '    template = REMINDER_TEMPLATES.get(visit_type, REMINDER_TEMPLATES["follow-up"])\n')],
        [_vt('        VisitType("flu-shot", "flu shot", 20),\n'),
         _tpl('    "flu-shot": "Hi {first_name}, reminder: your flu shot with {practitioner} is on {day} at {time}.",\n')],
    ],
))

TASKS.append(TaskSpec(
    n=10, family="F3", slug="wound-check-invoicing-crash", created_at="2025-04-24T09:05:00-04:00",
    base=[("omar", "2025-04-21T08:45:00-04:00", "visit types: nurse wound checks",
           [_vt('        VisitType("wound-check", "wound check", 20),\n')])],
    problem=(
        "Nurses have been booking `wound-check` visits since Monday, but the end-of-day invoicing run crashes "
        "on them:\n\n    KeyError: 'wound-check'\n\nfrom `code_for` in clinic/billing/codes.py. Wound checks bill as "
        "97597 at $60.00."
    ),
    tests={"tests/test_wound_check.py": _visit_tests("wound-check", "wound check", (9, 20), "97597", 6000, False)},
    f2p=[_ids("tests/test_wound_check.py", "wound-check", False)[i] for i in (2, 3)],
    p2p=[_ids("tests/test_wound_check.py", "wound-check", False)[i] for i in (0, 1)] + F3_P2P,
    gold=[
        _code('    "wound-check": ("97597", 6000),\n'),
        _tpl('    "wound-check": "Hi {first_name}, reminder: your wound check with {practitioner} is on {day} at {time}.",\n'),
    ],
    decoys=[
        [_code('    "wound-check": ("97597", 6000),\n'), _TOLERANT_CODES],
        [_code('    "wound-check": ("97597", 6000),\n'), _DEFAULT_TEMPLATE, _FALLBACK_TEMPLATE],
        [("clinic/billing/invoice.py",
          "    line = InvoiceLine(\n        code=code_for(booking.visit_type),\n",
          "    if booking.visit_type == \"wound-check\":\n"
          "        # nurse visit, billed as debridement (97597)\n"
          "        return Invoice(booking.id, [InvoiceLine(\"97597\", visit.label, 6000)])\n"
          "    line = InvoiceLine(\n        code=code_for(booking.visit_type),\n")],
    ],
))

TASKS.append(TaskSpec(
    n=11, family="F3", slug="nutrition-consult-visit-type", created_at="2025-04-25T13:40:00-04:00",
    problem=(
        "A dietitian joins the clinic in May. Please add a `nutrition-consult` visit type: 40 minutes, can be "
        "done by video, shown to patients as \"nutrition consultation\". It bills as 97802 at $70.00."
    ),
    tests={"tests/test_nutrition_consult.py": _visit_tests(
        "nutrition-consult", "nutrition consultation", (9, 40), "97802", 7000, True)},
    f2p=_ids("tests/test_nutrition_consult.py", "nutrition-consult", True),
    p2p=F3_P2P,
    gold=[
        _vt('        VisitType("nutrition-consult", "nutrition consultation", 40, telehealth_ok=True),\n'),
        _code('    "nutrition-consult": ("97802", 7000),\n'),
        _tpl('    "nutrition-consult": (\n'
             '        "Hi {first_name}, reminder: your nutrition consultation with {practitioner} is on {day} at {time}."\n'
             "    ),\n"),
    ],
    decoys=[
        [_vt('        VisitType("nutrition-consult", "nutrition consultation", 40, telehealth_ok=True),\n'),
         _code('    "nutrition-consult": ("97802", 7000),\n')],
        [_vt('        VisitType("nutrition-consult", "nutrition consultation", 40, telehealth_ok=True),\n'),
         _code('    "nutrition-consult": ("97802", 7000),\n'), _DEFAULT_TEMPLATE, _FALLBACK_TEMPLATE],
        [_vt('        VisitType("nutrition-consult", "nutrition consultation", 40, telehealth_ok=True),\n'),
         _TOLERANT_CODES,
         _tpl('    "nutrition-consult": (\n'
              '        "Hi {first_name}, reminder: your nutrition consultation with {practitioner} is on {day} at {time}."\n'
              "    ),\n")],
    ],
))

TASKS.append(TaskSpec(
    n=12, family="F3", slug="ecg-visit-type", created_at="2025-04-29T10:00:00-04:00",
    problem=(
        "Cardiology referrals: please add an `ecg` visit type: 20 minutes, in person only, shown to patients as "
        "\"ECG\". It bills as 93000 at $55.00."
    ),
    tests={"tests/test_ecg.py": _visit_tests("ecg", "ECG", (9, 20), "93000", 5500, False)},
    f2p=_ids("tests/test_ecg.py", "ecg", False),
    p2p=F3_P2P,
    gold=[
        _vt('        VisitType("ecg", "ECG", 20),\n'),
        _code('    "ecg": ("93000", 5500),\n'),
        _tpl('    "ecg": "Hi {first_name}, reminder: your ECG with {practitioner} is on {day} at {time}.",\n'),
    ],
    decoys=[
        [_vt('        VisitType("ecg", "ECG", 20),\n'), _code('    "ecg": ("93000", 5500),\n')],
        [_vt('        VisitType("ecg", "ECG", 20),\n'),
         _tpl('    "ecg": "Hi {first_name}, reminder: your ECG with {practitioner} is on {day} at {time}.",\n')],
        [_vt('        VisitType("ecg", "ECG", 20),\n'), _TOLERANT_CODES,
         _tpl('    "ecg": "Hi {first_name}, reminder: your ECG with {practitioner} is on {day} at {time}.",\n')],
    ],
))

# =============================================================================== F4 (availability cache)

BK = "clinic/booking.py"

_WARM = '''

def test_other_practitioners_stay_cached(api, service, cache, store):
    api.availability("pr-okafor", DAY)
    {action}
    assert ("pr-okafor", DAY) in cache
'''

BLOCK_METHOD = '''
    def block_time(self, practitioner_id: str, start: datetime, end: datetime, reason: str = "") -> TimeOff:
        """Block part of a practitioner's calendar (training, meetings)."""
        self.store.practitioner(practitioner_id)
        block = self.store.add_time_off(TimeOff(practitioner_id, start, end, reason))
        self.audit.record("blocked", practitioner_id, start=start.isoformat(), end=end.isoformat())
        return block
'''

TEST_BLOCK_PY = '''from clinic.availability.slots import is_free

from .conftest import at


def test_block_time_makes_time_unavailable(service, store):
    service.block_time("pr-okafor", at(13, 0), at(14, 0), "training")
    assert not is_free(store, "pr-okafor", at(13, 20), at(13, 40))
    assert store.time_off_for("pr-okafor")[0].reason == "training"
'''

TASKS.append(TaskSpec(
    n=13, family="F4", slug="blocked-time-still-offered", created_at="2025-04-23T11:30:00-04:00",
    base=[("dana", "2025-04-21T17:05:00-04:00", "booking: block time on a practitioner's calendar",
           [(BK, "from .models import Booking\n", "from .models import Booking, TimeOff\n"),
            (BK, "        return booking\n\n    def cancel(", "        return booking\n" + BLOCK_METHOD + "\n    def cancel("),
            ("tests/test_block_time.py", None, TEST_BLOCK_PY)])],
    problem=(
        "Dr. Lee blocked 20:00-21:00 on Tue 6 May for a staff meeting in the admin screen. The portal still "
        "offers 20:00, 20:20 and 20:40 that evening, and patients who pick one of them get \"Sorry, this time "
        "is no longer available\"."
    ),
    tests={"tests/test_block_time_portal.py": '''from .conftest import DAY, at


def test_blocked_evening_leaves_the_portal(api, service):
    assert at(20, 20) in api.availability("pr-lee", DAY)
    service.block_time("pr-lee", at(20, 0), at(21, 0), "staff meeting")
    starts = api.availability("pr-lee", DAY)
    assert at(20, 0) not in starts and at(20, 40) not in starts
    assert at(19, 40) in starts
''' + _WARM.format(action='service.block_time("pr-lee", at(20, 0), at(21, 0), "staff meeting")')},
    f2p=["tests/test_block_time_portal.py::test_blocked_evening_leaves_the_portal"],
    p2p=["tests/test_block_time_portal.py::test_other_practitioners_stay_cached",
         "tests/test_block_time.py::test_block_time_makes_time_unavailable",
         "tests/test_api.py::test_second_lookup_is_a_cache_hit",
         "tests/test_api.py::test_cancelled_evening_slot_is_offered_again"],
    gold=[
        (BK, "        block = self.store.add_time_off(TimeOff(practitioner_id, start, end, reason))\n",
         "        block = self.store.add_time_off(TimeOff(practitioner_id, start, end, reason))\n"
         "        self.cache.invalidate(practitioner_id, day_key(start))\n"
         "        self.cache.invalidate(practitioner_id, day_key(end))\n"),
    ],
    decoys=[
        [(BK, "        block = self.store.add_time_off(TimeOff(practitioner_id, start, end, reason))\n",
          "        block = self.store.add_time_off(TimeOff(practitioner_id, start, end, reason))\n"
          "        self.cache.clear()\n")],
        [(BK, "        block = self.store.add_time_off(TimeOff(practitioner_id, start, end, reason))\n",
          "        block = self.store.add_time_off(TimeOff(practitioner_id, start, end, reason))\n"
          "        # a block can span several days: drop every cached day it touches\n"
          "        day = start.date()\n"
          "        while day <= end.date():\n"
          "            self.cache.invalidate(practitioner_id, day)\n"
          "            day += timedelta(days=1)\n")],
        [("clinic/api.py",
          "        starts = self.cache.get(practitioner_id, day)\n"
          "        if starts is None:\n"
          "            starts = free_starts(self.store, practitioner_id, day)\n"
          "            self.cache.put(practitioner_id, day, starts)\n"
          "        return starts\n",
          "        # Always read the calendar: time off and bookings change outside the portal.\n"
          "        starts = free_starts(self.store, practitioner_id, day)\n"
          "        self.cache.put(practitioner_id, day, starts)\n"
          "        return starts\n")],
    ],
))

REASSIGN_METHOD = '''
    def reassign(self, booking_id: str, practitioner_id: str) -> Booking:
        """Give a booking to another practitioner at the same time."""
        booking = self.store.booking(booking_id)
        practitioner = self.store.practitioner(practitioner_id)
        if not within_hours(practitioner, booking.start, booking.end):
            raise SlotUnavailable("outside working hours")
        if not is_free(self.store, practitioner_id, booking.start, booking.end):
            raise SlotUnavailable("time is taken")
        previous = booking.practitioner_id
        booking.practitioner_id = practitioner_id
        patient = self.store.patient(booking.patient_id)
        self.reminders = [r for r in self.reminders if r.booking_id != booking_id]
        self.reminders.extend(plan_reminders(booking, patient, practitioner))
        self.audit.record("reassigned", booking_id, old=previous, new=practitioner_id)
        return booking
'''

TEST_REASSIGN_PY = '''from .conftest import at


def test_reassign_moves_the_booking(service, store):
    booking = service.book("p-maya", "pr-okafor", at(13, 0), "follow-up")
    service.reassign(booking.id, "pr-lee")
    assert store.bookings_for("pr-lee") == [booking]
    assert store.bookings_for("pr-okafor") == []
    assert "Dr. Lee" in service.reminders[-1].text
'''

_REASSIGN_ANCHOR = "        booking.practitioner_id = practitioner_id\n"

TASKS.append(TaskSpec(
    n=14, family="F4", slug="reassigned-visit-portal-stale", created_at="2025-04-24T16:45:00-04:00",
    base=[("dana", "2025-04-22T15:30:00-04:00", "booking: reassign a visit to another practitioner",
           [(BK, "\n    def reschedule(", REASSIGN_METHOD + "\n    def reschedule("),
            ("tests/test_reassign.py", None, TEST_REASSIGN_PY)])],
    problem=(
        "When reception gives a visit to another practitioner at the same time (\"Reassign\" in the admin "
        "screen), the portal keeps showing the time as taken for the first practitioner and as free for the "
        "second one. Example: Tue 6 May, the 20:20 video visit moved from Dr. Lee to Dr. Diaz (both run the "
        "evening clinic). Patients who then pick Dr. Diaz at 20:20 get \"Sorry, this time is no longer "
        "available\", and Dr. Lee's freed 20:20 is never offered."
    ),
    tests={"tests/test_reassign_portal.py": '''from clinic.models import Practitioner

from .conftest import DAY, at


def test_reassigned_evening_visit_updates_both_calendars(api, service, store):
    store.add_practitioner(Practitioner("pr-diaz", "Dr. Diaz", hours=(12, 21)))
    booking = service.book("p-ana", "pr-lee", at(20, 20), "follow-up", telehealth=True)
    assert at(20, 20) not in api.availability("pr-lee", DAY)
    assert at(20, 20) in api.availability("pr-diaz", DAY)
    service.reassign(booking.id, "pr-diaz")
    assert at(20, 20) in api.availability("pr-lee", DAY)
    assert at(20, 20) not in api.availability("pr-diaz", DAY)
''' + _WARM.format(action='booking = service.book("p-ana", "pr-lee", at(13, 0), "follow-up")\n'
                   '    store.add_practitioner(Practitioner("pr-diaz", "Dr. Diaz", hours=(12, 21)))\n'
                   '    service.reassign(booking.id, "pr-diaz")')},
    f2p=["tests/test_reassign_portal.py::test_reassigned_evening_visit_updates_both_calendars"],
    p2p=["tests/test_reassign_portal.py::test_other_practitioners_stay_cached",
         "tests/test_reassign.py::test_reassign_moves_the_booking",
         "tests/test_api.py::test_second_lookup_is_a_cache_hit",
         "tests/test_api.py::test_rescheduled_slot_leaves_the_portal"],
    gold=[
        (BK, _REASSIGN_ANCHOR,
         _REASSIGN_ANCHOR
         + "        self.cache.invalidate(previous, day_key(booking.start))\n"
         "        self.cache.invalidate(practitioner_id, day_key(booking.start))\n"),
    ],
    decoys=[
        [(BK, _REASSIGN_ANCHOR, _REASSIGN_ANCHOR + "        self.cache.invalidate(practitioner_id, day_key(booking.start))\n")],
        [(BK, _REASSIGN_ANCHOR, _REASSIGN_ANCHOR + "        self.cache.clear()\n")],
        [(BK, _REASSIGN_ANCHOR, _REASSIGN_ANCHOR + "        self.cache.invalidate(previous, booking.start.date())\n")],
    ],
))

IMPORTER_PY = '''"""Import the bookings the call centre took by phone (their nightly CSV export)."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta

from .availability.slots import is_free
from .booking import BookingService
from .errors import SlotUnavailable
from .models import Booking
from .visit_types import get_visit_type


def import_call_centre(service: BookingService, text: str) -> list[Booking]:
    """Add the bookings of a call-centre export. The call centre sends its own reminders."""
    imported = []
    for row in csv.DictReader(io.StringIO(text)):
        start = datetime.fromisoformat(row["start"])
        visit = get_visit_type(row["visit_type"])
        end = start + timedelta(minutes=visit.minutes)
        if not is_free(service.store, row["practitioner_id"], start, end):
            raise SlotUnavailable(f"{row['patient_id']} at {row['start']}: time is taken")
        booking = Booking(
            id=service.store.new_booking_id(),
            patient_id=row["patient_id"],
            practitioner_id=row["practitioner_id"],
            start=start,
            end=end,
            visit_type=row["visit_type"],
        )
        service.store.add_booking(booking)
        service.audit.record("imported", booking.id, start=start.isoformat())
        imported.append(booking)
    return imported
'''

TEST_IMPORTER_PY = '''from clinic.importer import import_call_centre

from .conftest import at


def _export(*rows):
    return "patient_id,practitioner_id,start,visit_type\\n" + "".join(f"{r}\\n" for r in rows)


def test_import_adds_bookings_without_reminders(service, store):
    text = _export(f"p-maya,pr-okafor,{at(9, 0).isoformat()},follow-up")
    [booking] = import_call_centre(service, text)
    assert store.booking(booking.id).start == at(9, 0)
    assert service.reminders == []
'''

_IMPORT_ANCHOR = "        service.store.add_booking(booking)\n"

TASKS.append(TaskSpec(
    n=15, family="F4", slug="call-centre-import-portal", created_at="2025-04-25T11:55:00-04:00",
    base=[("omar", "2025-04-23T09:15:00-04:00", "import the call centre's bookings",
           [("clinic/importer.py", None, IMPORTER_PY), ("tests/test_importer.py", None, TEST_IMPORTER_PY)])],
    problem=(
        "Appointments we import from the call centre's nightly export still show as free on the portal, "
        "mostly in the evening clinic. Patients pick them online and get \"Sorry, this time is no longer "
        "available\"."
    ),
    tests={"tests/test_importer_portal.py": '''from clinic.importer import import_call_centre

from .conftest import DAY, at


def _export(*rows):
    return "patient_id,practitioner_id,start,visit_type\\n" + "".join(f"{r}\\n" for r in rows)


def test_imported_evening_booking_leaves_the_portal(api, service):
    assert at(20, 40) in api.availability("pr-lee", DAY)
    import_call_centre(service, _export(f"p-tom,pr-lee,{at(20, 40).isoformat()},follow-up"))
    assert at(20, 40) not in api.availability("pr-lee", DAY)
''' + _WARM.format(action='import_call_centre(service, _export(f"p-tom,pr-lee,{at(20, 40).isoformat()},follow-up"))')},
    f2p=["tests/test_importer_portal.py::test_imported_evening_booking_leaves_the_portal"],
    p2p=["tests/test_importer_portal.py::test_other_practitioners_stay_cached",
         "tests/test_importer.py::test_import_adds_bookings_without_reminders",
         "tests/test_api.py::test_second_lookup_is_a_cache_hit"],
    gold=[
        ("clinic/importer.py", "from .availability.slots import is_free\n",
         "from .availability.cache import day_key\nfrom .availability.slots import is_free\n"),
        ("clinic/importer.py", _IMPORT_ANCHOR,
         _IMPORT_ANCHOR + "        service.cache.invalidate(booking.practitioner_id, day_key(start))\n"),
    ],
    decoys=[
        [("clinic/importer.py", _IMPORT_ANCHOR,
          _IMPORT_ANCHOR + "        service.cache.invalidate(booking.practitioner_id, start.date())\n")],
        [("clinic/importer.py", "    return imported\n",
          "    if imported:\n        # imports touch many practitioners and days: start the portal afresh\n"
          "        service.cache.clear()\n    return imported\n")],
        [("clinic/importer.py",
          "        end = start + timedelta(minutes=visit.minutes)\n"
          "        if not is_free(service.store, row[\"practitioner_id\"], start, end):\n"
          "            raise SlotUnavailable(f\"{row['patient_id']} at {row['start']}: time is taken\")\n"
          "        booking = Booking(\n"
          "            id=service.store.new_booking_id(),\n"
          "            patient_id=row[\"patient_id\"],\n"
          "            practitioner_id=row[\"practitioner_id\"],\n"
          "            start=start,\n"
          "            end=end,\n"
          "            visit_type=row[\"visit_type\"],\n"
          "        )\n"
          "        service.store.add_booking(booking)\n"
          "        service.audit.record(\"imported\", booking.id, start=start.isoformat())\n",
          "        # go through the booking service so the portal and the audit log stay in step\n"
          "        booking = service.book(row[\"patient_id\"], row[\"practitioner_id\"], start, visit.key)\n"),
         ("clinic/importer.py",
          "from .availability.slots import is_free\nfrom .booking import BookingService\n"
          "from .errors import SlotUnavailable\nfrom .models import Booking\n",
          "from .booking import BookingService\nfrom .models import Booking\n"),
         ("clinic/importer.py", "from datetime import datetime, timedelta\n", "from datetime import datetime\n")],
    ],
))

EXTEND_METHOD = '''
    def extend(self, booking_id: str, minutes: int) -> Booking:
        """Make a visit longer, e.g. when the nurse needs more time."""
        booking = self.store.booking(booking_id)
        practitioner = self.store.practitioner(booking.practitioner_id)
        new_end = booking.end + timedelta(minutes=minutes)
        if not within_hours(practitioner, booking.start, new_end):
            raise SlotUnavailable("outside working hours")
        if not is_free(self.store, booking.practitioner_id, booking.end, new_end):
            raise SlotUnavailable("time is taken")
        booking.end = new_end
        self.audit.record("extended", booking_id, end=new_end.isoformat())
        return booking
'''

TEST_EXTEND_PY = '''import pytest

from clinic.errors import SlotUnavailable

from .conftest import at


def test_extend_visit(service):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    service.extend(booking.id, 20)
    assert booking.end == at(9, 40)


def test_extend_into_next_booking_rejected(service):
    booking = service.book("p-maya", "pr-okafor", at(9, 0), "follow-up")
    service.book("p-ana", "pr-okafor", at(9, 20), "follow-up")
    with pytest.raises(SlotUnavailable):
        service.extend(booking.id, 20)
'''

_EXTEND_ANCHOR = "        booking.end = new_end\n"

TASKS.append(TaskSpec(
    n=16, family="F4", slug="extended-visit-portal-offers-time", created_at="2025-04-29T14:20:00-04:00",
    base=[("dana", "2025-04-25T10:10:00-04:00", "booking: extend a visit",
           [(BK, "\n    def reschedule(", EXTEND_METHOD + "\n    def reschedule("),
            ("tests/test_extend.py", None, TEST_EXTEND_PY)])],
    problem=(
        "After a nurse extends a visit, the portal keeps offering the time the visit now uses. For example, "
        "Dr. Lee's 20:20 visit on Tue 6 May was extended by 20 minutes, and the portal still offered 20:40 "
        "to patients, who then got \"Sorry, this time is no longer available\"."
    ),
    tests={"tests/test_extend_portal.py": '''from .conftest import DAY, at


def test_extended_evening_visit_leaves_the_portal(api, service):
    booking = service.book("p-maya", "pr-lee", at(20, 20), "follow-up")
    assert at(20, 40) in api.availability("pr-lee", DAY)
    service.extend(booking.id, 20)
    assert at(20, 40) not in api.availability("pr-lee", DAY)
''' + _WARM.format(action='booking = service.book("p-maya", "pr-lee", at(20, 20), "follow-up")\n'
                   '    api.availability("pr-lee", DAY)\n    service.extend(booking.id, 20)')},
    f2p=["tests/test_extend_portal.py::test_extended_evening_visit_leaves_the_portal"],
    p2p=["tests/test_extend_portal.py::test_other_practitioners_stay_cached",
         "tests/test_extend.py::test_extend_visit",
         "tests/test_api.py::test_second_lookup_is_a_cache_hit"],
    gold=[
        (BK, _EXTEND_ANCHOR,
         _EXTEND_ANCHOR + "        self.cache.invalidate(booking.practitioner_id, day_key(booking.start))\n"),
    ],
    decoys=[
        [(BK, _EXTEND_ANCHOR,
          _EXTEND_ANCHOR + "        day = new_end.date()\n        self.cache.invalidate(booking.practitioner_id, day)\n")],
        [(BK, _EXTEND_ANCHOR, _EXTEND_ANCHOR + "        # cheap enough: rebuild availability on next lookup\n"
          "        self.cache.clear()\n")],
        [("clinic/api.py",
          "        starts = self.cache.get(practitioner_id, day)\n"
          "        if starts is None:\n"
          "            starts = free_starts(self.store, practitioner_id, day)\n"
          "            self.cache.put(practitioner_id, day, starts)\n"
          "        return starts\n",
          "        # Visits can change length after booking, so read the calendar every time.\n"
          "        return free_starts(self.store, practitioner_id, day)\n")],
    ],
))
