from datetime import timedelta

from clinic.reminders.scheduler import plan_reminders
from clinic.reminders.sms import SmsGateway

from .conftest import at


def test_one_reminder_a_day_before(service, store):
    booking = service.book("p-maya", "pr-okafor", at(10, 0), "follow-up")
    reminders = plan_reminders(booking, store.patient("p-maya"), store.practitioner("pr-okafor"))
    assert len(reminders) == 1
    assert reminders[0].send_at == booking.start - timedelta(hours=24)
    assert reminders[0].phone == "+12125550142"
    assert "Dr. Okafor" in reminders[0].text


def test_video_reminder_has_link(service):
    booking = service.book("p-ana", "pr-okafor", at(10, 0), "follow-up", telehealth=True)
    assert service.reminders[-1].text.endswith(f"Join by video: https://video.acme-health.example/v/{booking.id}")


def test_gateway_sends_due(service):
    service.book("p-maya", "pr-okafor", at(10, 0), "follow-up")
    gateway = SmsGateway()
    sent = gateway.send_due(service.reminders, now=at(10, 0) - timedelta(hours=23))
    assert len(sent) == 1 and gateway.sent[0][0] == "+12125550142"
