"""The users list the ticket page offers for assignment."""

import pytest

pytestmark = pytest.mark.django_db


def test_lists_active_users_with_roles_filtered_by_role(client_for, make_user, django_user_model):
    make_user("technician", username="tess")
    make_user("operator", username="otto")
    make_user("viewer", username="vera")
    gone = make_user("technician", username="gone")
    gone.is_active = False
    gone.save()
    django_user_model.objects.create_superuser("root", password="pw-for-tests-only")

    client = client_for("viewer")
    body = client.get("/api/users/", {"role": ["technician", "operator"]}).json()
    names = [user["username"] for user in body["results"]]
    # Superusers hold every role; inactive accounts cannot be assigned anything.
    assert names == ["otto", "root", "tess"]
    tess = next(user for user in body["results"] if user["username"] == "tess")
    assert tess["roles"] == ["technician"] and tess["is_admin"] is False


def test_unknown_role_is_a_400_and_nobody_writes(client_for):
    client = client_for("admin")
    response = client.get("/api/users/", {"role": "wizard"})
    assert response.status_code == 400
    assert "wizard" in str(response.json())
    assert client.post("/api/users/", {"username": "x"}, format="json").status_code == 405
