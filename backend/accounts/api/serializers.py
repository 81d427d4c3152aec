from rest_framework import serializers

from ..roles import ADMIN, user_roles


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
