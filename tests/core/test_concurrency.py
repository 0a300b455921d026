from datetime import UTC, datetime

import pytest

from project.core.concurrency import assert_fresh, etag_for
from project.core.errors import StaleWrite


class Row:
    updated_at = datetime(2026, 3, 2, 9, 30, 15, 123456, tzinfo=UTC)


def test_matching_values_pass():
    assert_fresh(Row(), None)
    assert_fresh(Row(), "*")
    assert_fresh(Row(), etag_for(Row()))
    assert_fresh(Row(), "2026-03-02T09:30:15.123456Z")
    assert_fresh(Row(), "2026-03-02T09:30:15.123Z")  # millisecond JSON rendering
    assert_fresh(Row(), "2026-03-02T20:30:15.123+11:00")


@pytest.mark.parametrize("value", ["2026-03-02T09:30:15.124Z", "2026-03-02T09:30:15Z", "garbage", '"2026-01-01T00:00:00+00:00"'])
def test_stale_or_malformed_values_fail(value):
    with pytest.raises(StaleWrite):
        assert_fresh(Row(), value)
