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


def test_every_role_reads_the_list_and_a_user_without_one_does_not(client_for, make_user, anonymous, every_role):
    """Who reads /api/users/: every role, because every role may hand work to someone. Technicians
    assign tickets to each other (the ticket page's names), operators, planners and admins plan the
    day from ?role=technician (the plan form), viewers and collectors read as they read everything.
    An account without a role reads nothing (403), an anonymous client is asked to sign in (401)."""
    make_user("technician", username="tess")
    answer = client_for(every_role).get("/api/users/", {"role": "technician"})
    assert answer.status_code == 200
    tess = next(row for row in answer.json()["results"] if row["username"] == "tess")
    assert tess == {"username": "tess", "full_name": "", "roles": ["technician"], "is_admin": False}
    assert client_for(None).get("/api/users/").status_code == 403
    assert anonymous.get("/api/users/").status_code == 401


def test_the_plan_form_lists_everyone_who_may_go_on_the_floor(client_for, make_user):
    """The people a maintenance plan may name (maintenance.jobs.ASSIGNABLE_ROLES: technicians,
    operators, admins), with their full names, and nobody else."""
    tess = make_user("technician", username="tess")
    tess.first_name, tess.last_name = "Tess", "Ng"
    tess.save()
    make_user("operator", username="otto")
    make_user("admin", username="ada")
    make_user("planner", username="pat")
    make_user("viewer", username="vera")
    body = client_for("planner").get("/api/users/", {"role": ["technician", "operator", "admin"]}).json()
    names = {row["username"]: row["full_name"] for row in body["results"]}
    assert {"tess": "Tess Ng", "otto": "", "ada": ""}.items() <= names.items()
    assert "pat" not in names and "vera" not in names
