/** Mirrors webhooks/api/views.py: operators and admins manage endpoints and redeliver (admins always may). */
export const WEBHOOK_ROLES: readonly string[] = ['operator', 'admin'];

export function canManageWebhooks(user: { is_admin: boolean; roles: readonly string[] } | undefined): boolean {
  return !!user && (user.is_admin || WEBHOOK_ROLES.some((role) => user.roles.includes(role)));
}
