from django.urls import path

from .views import FabricRecoveryView

urlpatterns = [
    path("fabrics/<int:pk>/recovery/", FabricRecoveryView.as_view(), name="fabric-recovery"),
]
