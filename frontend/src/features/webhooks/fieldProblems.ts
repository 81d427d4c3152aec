import { ApiError, errorMessages, parseErrorBody } from '@/lib/api-client';

/**
 * A refused form's problems sorted to the fields that caused them, in words: the server answers
 * `{"payload_url": ["127.0.0.1 (loopback): …"]}`; the form shows "127.0.0.1 (loopback): …" under
 * "Payload URL" rather than the key. What belongs to no field of the form (a duplicate name, a
 * network error) stays in `general`.
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
  const general: string[] = [];
  for (const [key, value] of Object.entries(error.body as Record<string, unknown>)) {
    const messages = (Array.isArray(value) ? value : [value]).filter(
      (item): item is string => typeof item === 'string',
    );
    if ((fields as readonly string[]).includes(key) && messages.length > 0) byField[key as Field] = messages;
    else general.push(...parseErrorBody(value));
  }
  return { byField, general };
}
