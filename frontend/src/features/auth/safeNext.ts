const DEFAULT_AFTER_LOGIN = '/fabrics';

/** Where to go after login: only same-site paths, so ?next= cannot send users off-site. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return DEFAULT_AFTER_LOGIN;
  if (next === '/login' || next.startsWith('/login?')) return DEFAULT_AFTER_LOGIN;
  return next;
}
