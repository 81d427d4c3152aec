from django.urls import path

from .views import LarryCheckView, ReconfigCostsView, ShareBackupSizeView

urlpatterns = [
    path("sharebackup/size/", ShareBackupSizeView.as_view(), name="sharebackup-size"),
    path("larry/check/", LarryCheckView.as_view(), name="larry-check"),
    path("reconfig/costs/", ReconfigCostsView.as_view(), name="reconfig-costs"),
]
