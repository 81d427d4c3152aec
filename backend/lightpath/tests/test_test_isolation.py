"""The tests' own isolation: a transactional test ends by flushing every table, the rows migrations
seed too (the transceiver catalog, fabric 0005); the root conftest's `migration_seeded_catalog`
seeds it again, so a catalog-dependent test passes in any order (session 27's rehearsal: a forecast
test read no catalog Tx limit in the suite's order). The two tests run in this order: the first
one's flush is what the second must not see."""

import pytest

from fabric.models import TransceiverModel

pytestmark = pytest.mark.django_db(transaction=True)

SEEDED = {"10GBASE-SR", "10GBASE-LR", "40GBASE-SR4", "40GBASE-LR4", "100G-SR4", "100G-PSM4", "100G-LR4"}


def catalog() -> dict[str, float | None]:
    return dict(TransceiverModel.objects.values_list("name", "rx_power_min_dbm"))


def test_a_transactional_test_sees_the_seeded_catalog_and_flushes_it_at_its_end():
    assert set(catalog()) >= SEEDED


def test_the_next_transactional_test_sees_it_again():
    assert set(catalog()) >= SEEDED and catalog()["100G-SR4"] == -10.3
