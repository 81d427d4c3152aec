import { ApiError, errorMessages, parseErrorBody } from '@/lib/api-client';

/**
 * A refused form's problems sorted to the fields that caused them, in words: the server answers
 * `{"payload_url": ["127.0.0.1 (loopback): …"]}` (DRF) or `{"errors": [{"section": "params",
 * "field": "fabric", "message": "…"}]}` (jobs, uploads); the form shows the message under its field
 * rather than "payload_url: …" or "params.fabric: …" in a box. What belongs to no field of the form
 * (a duplicate name, a network error) stays in `general`.
 */
export function fieldProblems<Field extends string>(
  error: unknown,
  fields: readonly Field[],
): { byField: Partial<Record<Field, string[]>>; general: string[] } {
  const byField: Partial<Record<Field, string[]>> = {};
  if (!error) return { byField, general: [] };
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) {
    return { byField, general: errorMessages(error) };
  }
  const isField = (key: unknown): key is Field =>
    typeof key === 'string' && (fields as readonly string[]).includes(key);
  const add = (field: Field, message: string) => {
    byField[field] = [...(byField[field] ?? []), message];
  };
  const general: string[] = [];
  for (const [key, value] of Object.entries(error.body as Record<string, unknown>)) {
    if (key === 'errors' && Array.isArray(value)) {
      for (const row of value) {
        const { field, message } = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
        if (isField(field) && typeof message === 'string') add(field, message);
        else general.push(...parseErrorBody([row]));
      }
      continue;
    }
    const messages = (Array.isArray(value) ? value : [value]).filter(
      (item): item is string => typeof item === 'string',
    );
    if (isField(key) && messages.length > 0) messages.forEach((message) => add(key, message));
    else general.push(...parseErrorBody(value));
  }
  return { byField, general };
}
