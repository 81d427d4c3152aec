from rest_framework import serializers

from ..roles import ADMIN, ROLES, user_roles


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, style={"input_type": "password"}, trim_whitespace=False)


class UserSerializer(serializers.Serializer):
    username = serializers.CharField()
    roles = serializers.SerializerMethodField()
    is_admin = serializers.SerializerMethodField()

    def get_roles(self, user) -> list[str]:
        return sorted(user_roles(user))

    def get_is_admin(self, user) -> bool:
        return ADMIN in user_roles(user)


class TokenSerializer(UserSerializer):
    token = serializers.CharField()


class UserListSerializer(UserSerializer):
    """A user as others see it: who can be assigned what."""

    full_name = serializers.SerializerMethodField()

    def get_full_name(self, user) -> str:
        return user.get_full_name()

    def get_roles(self, user) -> list[str]:
        # From the prefetched groups: one query for the page, not one per user.
        if user.is_superuser:
            return sorted(ROLES)
        return sorted(group.name for group in user.groups.all() if group.name in ROLES)

    def get_is_admin(self, user) -> bool:
        return ADMIN in self.get_roles(user)
