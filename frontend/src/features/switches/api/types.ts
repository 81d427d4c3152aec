/** The switch and rack pages' answers (fabric/api/pages.py), generated from the server's OpenAPI document. */
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type SwitchOverview = Schemas['SwitchOverview'];
export type RackOverview = Schemas['RackOverview'];
export type SwitchLinkRow = Schemas['SwitchLink'];
export type OpenTicket = Schemas['OpenTicket'];
