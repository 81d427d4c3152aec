from django.contrib.auth import authenticate, get_user_model, login, logout
from django.middleware.csrf import get_token
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_protect, ensure_csrf_cookie
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..filtersets import UserFilterSet
from ..permissions import RolePermission
from ..throttle import LOGIN_THROTTLES
from .serializers import CredentialsSerializer, TokenSerializer, UserListSerializer, UserSerializer


def _authenticate(request):
    credentials = CredentialsSerializer(data=request.data)
    credentials.is_valid(raise_exception=True)
    user = authenticate(request, **credentials.validated_data)
    if user is None:
        raise serializers.ValidationError({"non_field_errors": ["Invalid username or password."]})
    return user


# README "Security": after too many failed logins for a user name or from a client, every login
# attempt (even with the right password) is refused until the window ends.
THROTTLED_LOGIN = OpenApiResponse(
    response=inline_serializer("LoginThrottled", {"detail": serializers.CharField()}),
    description="Too many failed logins for this user name or from this client; try again after "
    "`Retry-After` seconds (the right password is refused too until then).",
)
RETRY_AFTER = OpenApiParameter(
    "Retry-After", OpenApiTypes.INT, OpenApiParameter.HEADER, response=[429],
    description="Seconds until a login may be tried again.",
)  # fmt: skip


@method_decorator(ensure_csrf_cookie, name="dispatch")
class CsrfView(APIView):
    """Sets the csrftoken cookie the browser UI sends back in X-CSRFToken."""

    permission_classes = [AllowAny]

    @extend_schema(responses=inline_serializer("Csrf", {"csrf_token": serializers.CharField()}))
    def get(self, request):
        return Response({"csrf_token": get_token(request)})


@method_decorator(csrf_protect, name="dispatch")
class LoginView(APIView):
    """Session login for the browser UI."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = LOGIN_THROTTLES

    @extend_schema(
        request=CredentialsSerializer, responses={200: UserSerializer, 429: THROTTLED_LOGIN}, parameters=[RETRY_AFTER]
    )
    def post(self, request):
        user = _authenticate(request)
        login(request, user)
        return Response(UserSerializer(user).data)


class LogoutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=UserSerializer)
    def get(self, request):
        return Response(UserSerializer(request.user).data)


class TokenView(APIView):
    """API token for scripts and the CLI: the same token on every call until it is revoked."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = LOGIN_THROTTLES

    @extend_schema(
        request=CredentialsSerializer, responses={200: TokenSerializer, 429: THROTTLED_LOGIN}, parameters=[RETRY_AFTER]
    )
    def post(self, request):
        user = _authenticate(request)
        token, _ = Token.objects.get_or_create(user=user)
        data = UserSerializer(user).data
        return Response({**data, "token": token.key})


class UserViewSet(viewsets.ReadOnlyModelViewSet):
    """Active users with their roles, so a ticket can be assigned by picking a name
    (`?role=technician&role=operator`). Every role reads everything; nobody writes here
    (accounts are managed in the admin)."""

    queryset = get_user_model().objects.filter(is_active=True).prefetch_related("groups").order_by("username")
    serializer_class = UserListSerializer
    filterset_class = UserFilterSet
    permission_classes = [RolePermission]
    lookup_field = "username"
