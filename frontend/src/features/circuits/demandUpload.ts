/** Demand uploads read in the browser: CSV text as is, JSON as rows (the server reports bad rows by line or entry). */
import type { TextUpload } from '@/lib/textUpload';

import type { DemandUpload } from './api/types';

/** The server's body limit (contract-circuits §2). */
export const MAX_DEMAND_BYTES = 64 * 1024 * 1024;

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
): { body: DemandUpload | null; errors: string[] } {
  const errors: string[] = [];
  if (form.name.trim() === '') errors.push('Give the demand a name.');
  let windowS: number | undefined;
  if (form.windowS.trim() !== '') {
    windowS = Number(form.windowS);
    if (!Number.isFinite(windowS) || windowS <= 0)
      errors.push('The window length must be a number of seconds above 0.');
  }
  let content: Pick<DemandUpload, 'csv' | 'rows'> | null = null;
  if (!form.file) {
    errors.push('Choose a file: CSV with header src,dst,bytes,window_start, or JSON rows.');
  } else if (form.file.problem) {
    errors.push(form.file.problem);
  } else if (new Blob([form.file.text]).size > MAX_DEMAND_BYTES) {
    errors.push(`${form.file.name} is larger than ${MAX_DEMAND_BYTES / (1024 * 1024)} MiB.`);
  } else if (/^\s*[[{]/.test(form.file.text)) {
    try {
      const data: unknown = JSON.parse(form.file.text);
      const rows = Array.isArray(data) ? data : (data as { demand?: unknown }).demand;
      if (Array.isArray(rows)) content = { rows };
      else errors.push(`${form.file.name}: expected a list of {src, dst, bytes, window_start} or {"demand": [...]}.`);
    } catch (error) {
      errors.push(`${form.file.name}: not JSON (${error instanceof Error ? error.message : 'unreadable'}).`);
    }
  } else {
    content = { csv: form.file.text };
  }
  if (errors.length > 0 || content === null) return { body: null, errors };
  return {
    errors,
    body: {
      fabric,
      name: form.name.trim(),
      description: form.description,
      ...(windowS !== undefined ? { window_s: windowS } : {}),
      ...content,
    },
  };
}
