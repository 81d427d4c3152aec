import pytest

from lightpath.tests.api_base import APIViewTestBase

from .factories import FabricFactory, LinkFactory, SwitchFactory, TransceiverFactory, TransceiverModelFactory


class TestFabricAPI(APIViewTestBase):
    endpoint = "/api/fabrics/"
    brief_fields = ("id", "url", "name")
    update_data = {"capacity_constraint": 0.5}

    def make_objects(self, count):
        return FabricFactory.create_batch(count)

    def create_data(self):
        return [{"name": f"new-{i}", "tiers": ["tor", "fabric", "spine"], "capacity_constraint": 0.8} for i in range(3)]

    def filter_cases(self, objects):
        return [
            ({"name": objects[0].name}, objects[:1]),
            ({"name__n": objects[0].name, "name__isw": "fabric-"}, objects[1:]),
        ]

    def test_counts(self, client_for, small_fabric):
        body = client_for("viewer").get(f"/api/fabrics/{small_fabric.pk}/").json()
        assert (body["switch_count"], body["link_count"]) == (9, 14)

    def test_constraint_must_be_a_fraction(self, client_for):
        response = client_for("planner").post(
            self.endpoint, {"name": "x", "tiers": ["a", "b"], "capacity_constraint": 1.5}, format="json"
        )
        assert response.status_code == 400
        assert "capacity_constraint" in response.json()

    def test_tiers_cannot_shrink_below_existing_switches(self, client_for, small_fabric):
        response = client_for("planner").patch(
            f"/api/fabrics/{small_fabric.pk}/", {"tiers": ["tor", "fabric"]}, format="json"
        )
        assert response.status_code == 400
        assert "tier 2" in str(response.json()["tiers"])


class TestSwitchAPI(APIViewTestBase):
    endpoint = "/api/switches/"
    brief_fields = ("id", "url", "name", "tier")
    update_data = {"capacity_constraint": 0.5}

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()

    def make_objects(self, count):
        return SwitchFactory.create_batch(count, fabric=self.fabric)

    def create_data(self):
        return [{"fabric": self.fabric.pk, "name": f"tor-{i}", "tier": 0, "pod": 1} for i in range(3)]

    def filter_cases(self, objects):
        return [({"fabric": self.fabric.pk}, objects), ({"name": objects[1].name}, objects[1:2])]

    def test_tier_must_exist_in_fabric(self, client_for):
        response = client_for("planner").post(
            self.endpoint, {"fabric": self.fabric.pk, "name": "x", "tier": 3}, format="json"
        )
        assert response.status_code == 400
        assert "tier" in response.json()

    def test_filters(self, client_for):
        SwitchFactory(fabric=self.fabric, name="alpha", tier=0, pod=1)
        SwitchFactory(fabric=self.fabric, name="beta", tier=1, pod=2)
        SwitchFactory(fabric=self.fabric, name="gamma", tier=2, pod=None)
        client = client_for("viewer")

        def names(**params):
            return sorted(
                s["name"] for s in client.get(self.endpoint, {"fabric": self.fabric.pk, **params}).json()["results"]
            )

        assert names(name__ic="ALP") == ["alpha"]
        assert names(tier__gte=1) == ["beta", "gamma"]
        assert names(tier__n=1) == ["alpha", "gamma"]
        assert client.get(self.endpoint, {"pod": ["1", "2"]}).json()["count"] == 2  # repeated = OR
        assert client.get(self.endpoint, {"tier": "x"}).status_code == 400


class TestLinkAPI(APIViewTestBase):
    endpoint = "/api/links/"
    brief_fields = (
        "id",
        "url",
        "a_switch_name",
        "a_port",
        "z_switch_name",
        "z_port",
        "admin_state",
        "oper_state",
        "health",
    )
    update_data = {"admin_state": "disabled", "admin_reason": "corruption"}

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()
        self.tor = SwitchFactory(fabric=self.fabric, name="tor", tier=0)
        self.agg = SwitchFactory(fabric=self.fabric, name="agg", tier=1)
        self.spine = SwitchFactory(fabric=self.fabric, name="spine", tier=2)

    def make_objects(self, count):
        return LinkFactory.create_batch(count, fabric=self.fabric)

    def create_data(self):
        return [
            {
                "fabric": self.fabric.pk,
                "a_switch": self.tor.pk,
                "a_port": f"p{i}",
                "z_switch": self.agg.pk,
                "z_port": f"p{i}",
                "length_m": 5.0,
            }
            for i in range(3)
        ]

    def filter_cases(self, objects):
        return [({"fabric": self.fabric.pk}, objects), ({"a_switch": objects[2].a_switch_id}, objects[2:])]

    def test_admin_state_change_records_who_and_when(self, client_for):
        link = self.make_objects(1)[0]
        body = (
            client_for("operator")
            .patch(f"{self.endpoint}{link.pk}/", {"admin_state": "disabled"}, format="json")
            .json()
        )
        assert body["admin_changed_by"].startswith("operator")
        assert body["admin_changed_at"] is not None

    def test_links_only_join_adjacent_tiers(self, client_for):
        data = {
            "fabric": self.fabric.pk,
            "a_switch": self.tor.pk,
            "a_port": "x",
            "z_switch": self.spine.pk,
            "z_port": "x",
        }
        response = client_for("planner").post(self.endpoint, data, format="json")
        assert response.status_code == 400
        assert "adjacent tiers" in str(response.json())

    def test_side_a_is_the_lower_tier(self, client_for):
        data = {
            "fabric": self.fabric.pk,
            "a_switch": self.spine.pk,
            "a_port": "s1",
            "z_switch": self.agg.pk,
            "z_port": "u1",
        }
        body = client_for("planner").post(self.endpoint, data, format="json").json()
        assert (body["a_switch_name"], body["a_port"], body["z_switch_name"], body["z_port"]) == (
            "agg",
            "u1",
            "spine",
            "s1",
        )

    def test_a_port_carries_one_link(self, client_for):
        client = client_for("planner")
        data = {
            "fabric": self.fabric.pk,
            "a_switch": self.tor.pk,
            "a_port": "p",
            "z_switch": self.agg.pk,
            "z_port": "q",
        }
        assert client.post(self.endpoint, data, format="json").status_code == 201
        # the aggregation port "p" is free as a Z end, but "q" is taken
        again = {**data, "a_port": "other", "z_port": "q"}
        response = client.post(self.endpoint, again, format="json")
        assert response.status_code == 400
        assert "z_port" in response.json()

    def test_ends_are_fixed_after_creation(self, client_for):
        link = self.make_objects(1)[0]
        client_for("operator").patch(f"{self.endpoint}{link.pk}/", {"a_port": "moved"}, format="json")
        link.refresh_from_db()
        assert link.a_port != "moved"

    def test_filter_by_either_end_and_state(self, client_for, small_fabric):
        client = client_for("viewer")
        f0 = small_fabric.switches.get(name="f0")
        assert client.get(self.endpoint, {"switch": f0.pk}).json()["count"] == 4
        assert client.get(self.endpoint, {"fabric": small_fabric.pk, "admin_state": "disabled"}).json()["count"] == 0
        assert client.get(self.endpoint, {"admin_state": "bogus"}).status_code == 400


class TestTransceiverModelAPI(APIViewTestBase):
    endpoint = "/api/transceiver-models/"
    brief_fields = ("id", "url", "name")
    update_data = {"reach_m": 150.0}

    def make_objects(self, count):
        return TransceiverModelFactory.create_batch(count)

    def create_data(self):
        return [{"name": f"40G-{i}", "speed_gbps": 40, "fiber": "MMF", "reach_m": 100.0} for i in range(3)]

    def filter_cases(self, objects):
        return [({"name__ie": objects[0].name.upper()}, objects[:1]), ({"name": [o.name for o in objects]}, objects)]


class TestTransceiverAPI(APIViewTestBase):
    endpoint = "/api/transceivers/"
    brief_fields = ("id", "url", "link", "side", "model_name")
    update_data = {"serial": "SN-NEW"}

    def make_objects(self, count):
        return TransceiverFactory.create_batch(count)

    def create_data(self):
        model = TransceiverModelFactory()
        return [{"link": LinkFactory().pk, "side": "a", "model": model.pk, "serial": f"SN{i}"} for i in range(3)]

    def filter_cases(self, objects):
        return [({"link": objects[0].link_id}, objects[:1]), ({"fabric": objects[1].link.fabric_id}, objects[1:2])]


def test_deleting_a_fabric_removes_everything_in_it_and_keeps_its_jobs(client_for, small_fabric, small_document):
    from fabric.models import Link, Switch, Transceiver
    from jobs import services as jobs

    job = jobs.submit("fabric.capacity_report", fabric=small_fabric)
    other = client_for("planner").post("/api/fabrics/import/", {**small_document, "name": "other"}, format="json")
    assert client_for("admin").delete(f"/api/fabrics/{small_fabric.pk}/").status_code == 204
    assert not Switch.objects.filter(fabric=small_fabric.pk).exists()
    assert not Link.objects.filter(fabric=small_fabric.pk).exists()
    assert not Transceiver.objects.filter(link__fabric=small_fabric.pk).exists()
    job.refresh_from_db()
    assert job.fabric is None  # the job's record outlives the fabric
    # the other fabric is untouched
    assert Link.objects.filter(fabric=other.json()["id"]).count() == 14
    assert Transceiver.objects.filter(link__fabric=other.json()["id"]).count() == 2
