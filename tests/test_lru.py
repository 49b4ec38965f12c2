"""The companion's one bounded cache."""

from companion.lru import LRU


def test_the_entry_read_last_stays_and_the_oldest_goes():
    cache: LRU[str, int] = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the newest
    cache.put("c", 3)
    assert "b" not in cache and cache.get("a") == 1 and cache.get("c") == 3
    assert len(cache) == 2


def test_putting_a_kept_key_again_replaces_it_and_makes_it_newest():
    cache: LRU[str, int] = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 10)
    cache.put("c", 3)
    assert cache.get("a") == 10 and "b" not in cache


def test_pop_forgets_and_a_missing_key_is_none():
    cache: LRU[str, int] = LRU(1)
    cache.put("a", 1)
    assert cache.pop("a") == 1 and cache.pop("a") is None and cache.get("a") is None
