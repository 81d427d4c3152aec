from django.urls import path

from .views import RailFecView, RailPlanLinksView, RailPlanView

urlpatterns = [
    path("rail/fec/", RailFecView.as_view(), name="rail-fec"),
    path("rail/plans/<int:job_id>/", RailPlanView.as_view(), name="rail-plan"),
    path("rail/plans/<int:job_id>/links/", RailPlanLinksView.as_view(), name="rail-plan-links"),
]
