"""The password hasher of the test session (conftest.py `fast_password_hashing`)."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneRoundPBKDF2(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 with one round: the same algorithm name and format, so any server verifies it."""

    iterations = 1
