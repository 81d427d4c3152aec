import factory

from fabric.models import Fabric, Link, Switch, Transceiver, TransceiverModel


class FabricFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Fabric

    name = factory.Sequence(lambda n: f"fabric-{n}")
    tiers = factory.LazyFunction(lambda: ["tor", "fabric", "spine"])


class SwitchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Switch

    fabric = factory.SubFactory(FabricFactory)
    name = factory.Sequence(lambda n: f"sw-{n}")
    tier = 0
    pod = 0


class LinkFactory(factory.django.DjangoModelFactory):
    """A ToR-to-fabric link in one fabric."""

    class Meta:
        model = Link

    fabric = factory.SubFactory(FabricFactory)
    a_switch = factory.LazyAttribute(lambda o: SwitchFactory(fabric=o.fabric, tier=0))
    a_port = factory.Sequence(lambda n: f"eth{n}")
    z_switch = factory.LazyAttribute(lambda o: SwitchFactory(fabric=o.fabric, tier=1))
    z_port = factory.Sequence(lambda n: f"eth{n}")


class TransceiverModelFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TransceiverModel

    name = factory.Sequence(lambda n: f"optic-{n}")
    speed_gbps = 100
    fiber = "MMF"
    reach_m = 100.0


class TransceiverFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Transceiver

    link = factory.SubFactory(LinkFactory)
    side = "a"
    model = factory.SubFactory(TransceiverModelFactory)
