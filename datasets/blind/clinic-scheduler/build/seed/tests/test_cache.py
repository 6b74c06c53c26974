from datetime import date

from clinic.cache import AvailabilityCache, day_key
from clinic.timeutil import utc


def test_get_put_and_counters():
    cache = AvailabilityCache()
    assert cache.get("pr-okafor", date(2025, 5, 6)) is None
    cache.put("pr-okafor", date(2025, 5, 6), [utc(2025, 5, 6, 13)])
    assert cache.get("pr-okafor", date(2025, 5, 6)) == [utc(2025, 5, 6, 13)]
    assert (cache.hits, cache.misses) == (1, 1)


def test_invalidate_one_entry():
    cache = AvailabilityCache()
    cache.put("pr-okafor", date(2025, 5, 6), [])
    cache.put("pr-lee", date(2025, 5, 6), [])
    cache.invalidate("pr-okafor", date(2025, 5, 6))
    assert ("pr-okafor", date(2025, 5, 6)) not in cache
    assert ("pr-lee", date(2025, 5, 6)) in cache


def test_day_key():
    assert day_key(utc(2025, 5, 6, 15)) == date(2025, 5, 6)
