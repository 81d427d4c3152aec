from django.urls import path

from .views import FabricRecoveryView, WorkOrderTodayView

urlpatterns = [
    # Before the router's work-orders/{pk}/, which would read "today" as an id.
    path("work-orders/today/", WorkOrderTodayView.as_view(), name="workorder-today"),
    path("fabrics/<int:pk>/recovery/", FabricRecoveryView.as_view(), name="fabric-recovery"),
]
