/** The header search's answer (fabric/api/pages.py), generated from the server's OpenAPI document. */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type SearchAnswer = Schemas['SearchAnswer'];
export type SearchGroup = Schemas['SearchGroup'];
export type SearchHit = Schemas['SearchHit'];
