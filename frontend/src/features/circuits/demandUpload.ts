/** Demand uploads read in the browser: CSV text as is, JSON as rows (the server reports bad rows by line or entry). */
import { type FormCheck, formCheck } from '@/lib/formCheck';
import { lengthHint } from '@/lib/format/length';
import type { TextUpload } from '@/lib/textUpload';

import type { DemandUpload } from './api/types';

/** The server's body limit (contract-circuits §2). */
export const MAX_DEMAND_BYTES = 64 * 1024 * 1024;

/** The upload's bounds (circuits.services.upload_demand / create_demand). */
export const DEMAND_NAME_MAX = 100;
export const MAX_WINDOW_S = 86_400;
/** The fields a problem is said at, by the server's names (`csv` and `rows` are the file's content). */
export const DEMAND_FIELDS = ['name', 'window_s', 'description', 'file', 'csv', 'rows'] as const;
export type DemandField = (typeof DEMAND_FIELDS)[number];

export interface DemandUploadForm {
  name: string;
  description: string;
  windowS: string;
  /** `problem` when the chosen file is not text. */
  file: TextUpload | null;
}

export const EMPTY_DEMAND_FORM: DemandUploadForm = { name: '', description: '', windowS: '', file: null };

export function buildDemandUpload(
  form: DemandUploadForm,
  fabric: number,
): FormCheck<DemandField> & { body: DemandUpload | null } {
  const check = formCheck<DemandField>();
  const errors = check.errors;
  const name = lengthHint(form.name.trim().length, DEMAND_NAME_MAX);
  if (form.name.trim() === '') check.add('Give the demand a name.', 'name');
  else if (name.over) check.add(`Name: ${name.text}`, 'name');
  let windowS: number | undefined;
  if (form.windowS.trim() !== '') {
    windowS = Number(form.windowS);
    if (!Number.isFinite(windowS) || windowS <= 0 || windowS > MAX_WINDOW_S)
      check.add('The window length must be a number of seconds above 0 and up to 86,400 (a day).', 'window_s');
  }
  let content: Pick<DemandUpload, 'csv' | 'rows'> | null = null;
  if (!form.file) {
    check.add('Choose a file: CSV with header src,dst,bytes,window_start, or JSON rows.', 'file');
  } else if (form.file.problem) {
    check.add(form.file.problem, 'file');
  } else if (new Blob([form.file.text]).size > MAX_DEMAND_BYTES) {
    check.add(`${form.file.name} is larger than ${MAX_DEMAND_BYTES / (1024 * 1024)} MiB.`, 'file');
  } else if (/^\s*[[{]/.test(form.file.text)) {
    try {
      const data: unknown = JSON.parse(form.file.text);
      const rows = Array.isArray(data) ? data : (data as { demand?: unknown }).demand;
      if (Array.isArray(rows)) content = { rows };
      else
        check.add(
          `${form.file.name}: expected a list of {src, dst, bytes, window_start} or {"demand": [...]}.`,
          'file',
        );
    } catch (error) {
      check.add(`${form.file.name}: not JSON (${error instanceof Error ? error.message : 'unreadable'}).`, 'file');
    }
  } else {
    content = { csv: form.file.text };
  }
  if (errors.length > 0 || content === null) return { body: null, errors, byField: check.byField };
  return {
    errors,
    byField: check.byField,
    body: {
      fabric,
      name: form.name.trim(),
      description: form.description,
      ...(windowS !== undefined ? { window_s: windowS } : {}),
      ...content,
    },
  };
}
