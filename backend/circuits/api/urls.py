from rest_framework.routers import SimpleRouter

from .views import CircuitScheduleViewSet, CircuitSwitchViewSet, DemandViewSet

router = SimpleRouter()
router.register("circuit-switches", CircuitSwitchViewSet)
router.register("demands", DemandViewSet)
router.register("circuit-schedules", CircuitScheduleViewSet, basename="circuitschedule")

urlpatterns = router.urls
