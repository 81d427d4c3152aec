/**
 * Fetch wrapper for the Lightpath REST API.
 *
 * Same origin as the UI, session cookie auth. Django's CSRF protection wants the
 * csrftoken cookie echoed in X-CSRFToken on unsafe methods; when the cookie is
 * missing we ask GET /api/auth/csrf/ to set it first.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const CSRF_COOKIE = 'csrftoken';
const CSRF_ENDPOINT = '/api/auth/csrf/';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | QueryValue[]>;

export interface RequestOptions {
  method?: HttpMethod;
  query?: QueryParams;
  body?: unknown;
  /** Off for calls where 401 is an expected answer (who-am-I on the login page). */
  redirectOnUnauthorized?: boolean;
  signal?: AbortSignal;
}

/** Paginated list envelope used by every list endpoint. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** An API answer that was not 2xx; `messages` is ready to show to a person. */
export class ApiError extends Error {
  readonly status: number;
  readonly messages: string[];
  readonly body: unknown;

  constructor(status: number, messages: string[], body: unknown) {
    super(messages.join('\n') || `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.messages = messages.length > 0 ? messages : [`Request failed with status ${status}`];
    this.body = body;
  }
}

/** Keys whose messages need no field prefix: they are about the request as a whole. */
const GENERAL_KEYS = new Set(['non_field_errors', 'detail', '__all__']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function joinPath(prefix: string, key: string): string {
  if (GENERAL_KEYS.has(key)) return prefix;
  return prefix ? `${prefix}.${key}` : key;
}

function withPrefix(prefix: string, message: string): string {
  return prefix ? `${prefix}: ${message}` : message;
}

/** Fabric import errors: {"section","index","field","message"} rows. */
function isImportErrorRow(value: unknown): value is {
  section?: unknown;
  index?: unknown;
  field?: unknown;
  message: string;
} {
  return isRecord(value) && typeof value.message === 'string' && ('section' in value || 'field' in value);
}

function describeImportErrorRow(row: { section?: unknown; index?: unknown; field?: unknown; message: string }) {
  let location = typeof row.section === 'string' ? row.section : '';
  if (typeof row.index === 'number') location += `[${row.index}]`;
  if (typeof row.field === 'string' && row.field) location = location ? `${location}.${row.field}` : row.field;
  return withPrefix(location, row.message);
}

function collectMessages(value: unknown, prefix: string, out: string[]): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'string') {
    out.push(withPrefix(prefix, value));
    return;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    out.push(withPrefix(prefix, String(value)));
    return;
  }
  if (Array.isArray(value)) {
    const allScalar = value.every((item) => !isRecord(item) && !Array.isArray(item));
    value.forEach((item, index) => {
      if (isImportErrorRow(item)) {
        out.push(withPrefix(prefix, describeImportErrorRow(item)));
      } else if (allScalar) {
        collectMessages(item, prefix, out);
      } else {
        // A list of per-item error objects, as DRF returns for bulk creates.
        collectMessages(item, `${prefix}[${index}]`, out);
      }
    });
    return;
  }
  if (isRecord(value)) {
    for (const [key, nested] of Object.entries(value)) {
      collectMessages(nested, joinPath(prefix, key), out);
    }
  }
}

/**
 * Turn an error body (DRF validation dict, {"detail"}, fabric-import {"errors": [...]},
 * plain text) into one readable line per problem.
 */
export function parseErrorBody(body: unknown): string[] {
  const messages: string[] = [];
  if (typeof body === 'string') {
    const text = body.trim();
    // An HTML error page is no use to a person reading a form.
    if (text && !text.startsWith('<')) messages.push(text);
    return messages;
  }
  if (isRecord(body) && Array.isArray(body.errors)) {
    collectMessages(body.errors, '', messages);
    const rest = Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'errors'));
    collectMessages(rest, '', messages);
    return messages;
  }
  collectMessages(body, '', messages);
  return messages;
}

export function readCookie(name: string, cookieString: string = document.cookie): string | null {
  for (const part of cookieString.split(';')) {
    const [rawKey, ...rawValue] = part.trim().split('=');
    if (rawKey === name) return decodeURIComponent(rawValue.join('='));
  }
  return null;
}

export function buildUrl(path: string, query?: QueryParams): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined || item === null || item === '') continue;
      params.append(key, String(item));
    }
  }
  const search = params.toString();
  if (!search) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

let csrfTokenFromResponse: string | null = null;

async function csrfToken(): Promise<string | null> {
  const fromCookie = readCookie(CSRF_COOKIE);
  if (fromCookie) return fromCookie;
  const response = await fetch(CSRF_ENDPOINT, { credentials: 'include', headers: { Accept: 'application/json' } });
  if (response.ok) {
    const data: unknown = await response.json().catch(() => null);
    if (isRecord(data) && typeof data.csrf_token === 'string') csrfTokenFromResponse = data.csrf_token;
  }
  return readCookie(CSRF_COOKIE) ?? csrfTokenFromResponse;
}

type UnauthorizedHandler = () => void;

/** Default: full navigation to the login page, remembering where the user was. */
function redirectToLogin(): void {
  const { pathname, search } = window.location;
  if (pathname === '/login') return;
  const next = encodeURIComponent(`${pathname}${search}`);
  window.location.assign(`/login?next=${next}`);
}

let onUnauthorized: UnauthorizedHandler = redirectToLogin;

/** Lets the app route 401s through the router instead of a full page load. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const contentType = response.headers.get('Content-Type') ?? '';
  if (contentType.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (!SAFE_METHODS.has(method)) {
    const token = await csrfToken();
    if (token) headers['X-CSRFToken'] = token;
  }

  const response = await fetch(buildUrl(path, options.query), {
    method,
    headers,
    credentials: 'include',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const body = await readBody(response);

  if (response.ok) return body as T;

  if (response.status === 401 && (options.redirectOnUnauthorized ?? true)) {
    onUnauthorized();
  }
  throw new ApiError(response.status, parseErrorBody(body), body);
}

export const apiClient = {
  get: <T>(path: string, query?: QueryParams, options: Omit<RequestOptions, 'method' | 'query'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'GET', query }),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  patch: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options: Omit<RequestOptions, 'method'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** Messages to show for any thrown value (ApiError, network failure, bug). */
export function errorMessages(error: unknown): string[] {
  if (error instanceof ApiError) return error.messages;
  if (error instanceof TypeError) return [`Could not reach the server (${error.message}).`];
  if (error instanceof Error) return [error.message];
  return ['Unexpected error.'];
}
