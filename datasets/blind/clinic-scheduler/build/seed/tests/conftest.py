from datetime import date

import pytest

from clinic.api import PortalAPI
from clinic.booking import BookingService
from clinic.cache import AvailabilityCache
from clinic.models import Patient, Practitioner
from clinic.store import Store
from clinic.timeutil import clinic_datetime

DAY = date(2025, 5, 6)  # a Tuesday


def at(hour: int, minute: int = 0, day: date = DAY):
    """A clinic wall-clock time on ``day`` as a UTC instant."""
    return clinic_datetime(day, hour, minute)


@pytest.fixture
def store():
    s = Store()
    s.add_practitioner(Practitioner("pr-okafor", "Dr. Okafor", hours=(9, 17)))
    s.add_practitioner(Practitioner("pr-lee", "Dr. Lee", hours=(12, 21)))
    s.add_patient(Patient("p-maya", "Maya Chen", "(212) 555-0142", "America/New_York", "MRN-204481"))
    s.add_patient(Patient("p-ana", "Ana Ruiz", "+1 310 555 0199", "America/Los_Angeles", "MRN-310027"))
    s.add_patient(Patient("p-tom", "Tom Becker", "+44 20 7946 0958", "Europe/London", "MRN-118830"))
    return s


@pytest.fixture
def cache():
    return AvailabilityCache()


@pytest.fixture
def service(store, cache):
    return BookingService(store, cache)


@pytest.fixture
def api(store, cache, service):
    return PortalAPI(store, cache, service)
