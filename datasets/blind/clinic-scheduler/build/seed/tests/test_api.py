from .conftest import DAY, at


def test_availability_lists_free_slots(api):
    starts = api.availability("pr-okafor", DAY)
    assert starts[0] == at(9, 0)


def test_second_lookup_is_a_cache_hit(api, cache):
    api.availability("pr-okafor", DAY)
    api.availability("pr-okafor", DAY)
    assert (cache.misses, cache.hits) == (1, 1)


def test_booking_through_api_updates_availability(api):
    api.availability("pr-okafor", DAY)
    reply = api.book({"patient_id": "p-maya", "practitioner_id": "pr-okafor", "start": at(9, 0).isoformat()})
    assert reply["id"] == "b-1001"
    assert at(9, 0) not in api.availability("pr-okafor", DAY)


def test_booking_conflict_reported(api):
    payload = {"patient_id": "p-maya", "practitioner_id": "pr-okafor", "start": at(9, 0).isoformat()}
    api.book(payload)
    assert api.book(payload)["error"] == "slot_unavailable"
