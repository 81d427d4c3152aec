/**
 * The signed-in user, generated from the server's OpenAPI document (accounts/api/serializers.py).
 * No UI-only view models here.
 */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

/** GET /api/auth/me/ */
export type CurrentUser = Schemas['User'];

/** POST /api/auth/login/ body. */
export type LoginCredentials = Schemas['CredentialsRequest'];

/** POST /api/auth/login/: the user signed in. */
export type LoginResponse = Schemas['User'];
