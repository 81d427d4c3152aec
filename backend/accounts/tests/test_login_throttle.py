"""Login throttling (README "Security") with the production limits and the real Redis cache:
after 10 failed logins for a user name, or 30 from one client, every login attempt (the right
password too) answers 429 with Retry-After, at the token endpoint, the UI's session login and
Django admin's login alike."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-only"
PER_USERNAME = 10
PER_CLIENT = 30


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_production_defaults(settings):
    assert {"per_username": f"{PER_USERNAME}/min", "per_client": f"{PER_CLIENT}/min"} == settings.LOGIN_THROTTLE
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"


def token(client, username, password, addr="198.51.100.7"):
    return client.post("/api/auth/token/", {"username": username, "password": password}, REMOTE_ADDR=addr)


def assert_throttled(response):
    assert response.status_code == 429, response.content
    wait = int(response["Retry-After"])
    assert 0 < wait <= 60


def test_wrong_passwords_lock_the_user_name_even_for_the_right_password(make_user):
    make_user("admin", username="boss")
    client = APIClient()
    for _ in range(PER_USERNAME):
        response = token(client, "boss", "guess")
        assert response.status_code == 400
        assert response.json() == {"non_field_errors": ["Invalid username or password."]}
    locked = token(client, "boss", PASSWORD)
    assert_throttled(locked)
    assert "token" not in locked.json()
    # From another client too: the lock is on the name (a distributed guess is still a guess),
    # in any letter case, on the session login and on the admin's login.
    assert_throttled(token(APIClient(), "BOSS", PASSWORD, addr="203.0.113.9"))
    assert_throttled(APIClient().post("/api/auth/login/", {"username": "boss", "password": PASSWORD}))
    admin_login = Client().post("/admin/login/", {"username": "boss", "password": PASSWORD, "next": "/admin/"})
    assert_throttled(admin_login)
    # Another user from another client is not affected.
    make_user("viewer", username="vera")
    assert token(APIClient(), "vera", PASSWORD, addr="203.0.113.9").status_code == 200


def test_a_client_guessing_many_names_is_limited_per_client(make_user):
    make_user("viewer", username="vera")
    client = APIClient()
    for number in range(PER_CLIENT):
        assert token(client, f"nobody-{number}", "guess").status_code == 400  # each name far below its limit
    assert_throttled(token(client, "vera", PASSWORD))
    # The same user from elsewhere logs in: the lock is on the client.
    assert token(APIClient(), "vera", PASSWORD, addr="203.0.113.9").status_code == 200


def test_a_spoofed_forwarded_for_header_does_not_make_a_new_client(make_user):
    make_user("viewer", username="vera")
    client = APIClient()
    for number in range(PER_CLIENT):
        response = client.post(
            "/api/auth/token/", {"username": f"nobody-{number}", "password": "guess"},
            REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"10.0.0.{number}",
        )  # fmt: skip
        assert response.status_code == 400
    assert_throttled(token(client, "vera", PASSWORD))


def test_successful_logins_do_not_count(make_user):
    make_user("operator", username="otto")
    client = APIClient()
    for _ in range(PER_CLIENT + 5):
        assert token(client, "otto", PASSWORD).status_code == 200
    session = APIClient()
    for _ in range(PER_USERNAME + 5):
        assert session.post("/api/auth/login/", {"username": "otto", "password": PASSWORD}).status_code == 200


def test_failed_admin_logins_count_and_lock_the_api_too(make_user, django_user_model):
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    browser = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(PER_USERNAME):
        response = browser.post("/admin/login/", {"username": "root", "password": "guess", "next": "/admin/"})
        assert response.status_code == 200  # the form again, with its error
        assert b"Please enter the correct username and password" in response.content
    assert_throttled(browser.post("/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"}))
    assert_throttled(token(APIClient(), "root", PASSWORD, addr="203.0.113.9"))
    # Reading the login page is not a login attempt.
    assert browser.get("/admin/login/").status_code == 200


def test_a_session_login_failure_counts_for_the_token_endpoint(make_user):
    make_user("viewer", username="vera")
    client = APIClient()
    for _ in range(PER_USERNAME):
        assert client.post("/api/auth/login/", {"username": "vera", "password": "guess"}).status_code == 400
    assert_throttled(token(client, "vera", PASSWORD))


def test_limits_follow_the_settings(make_user, settings):
    make_user("viewer", username="vera")
    settings.LOGIN_THROTTLE = {"per_username": "2/hour", "per_client": None}
    client = APIClient()
    for _ in range(2):
        assert token(client, "vera", "guess").status_code == 400
    locked = token(client, "vera", PASSWORD)
    assert locked.status_code == 429 and 0 < int(locked["Retry-After"]) <= 3600


def test_the_schema_documents_429_with_retry_after(client_for):
    schema = client_for("viewer").get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/auth/token/", "/api/auth/login/"):
        throttled = schema["paths"][path]["post"]["responses"]["429"]
        assert "Retry-After" in throttled["headers"]
