import { type FormEvent, useState } from 'react';

import { FormField, RefusedProblems } from '@/components/FormField';
import { FormProblems } from '@/components/FormProblems';
import { fieldProblems } from '@/lib/fieldProblems';
import { type FormCheck, generalProblems, problemsOf } from '@/lib/formCheck';
import { lengthHint } from '@/lib/format/length';
import { readTextUpload } from '@/lib/textUpload';

import type { DemandUpload } from '../api/types';
import {
  buildDemandUpload,
  DEMAND_FIELDS,
  DEMAND_NAME_MAX,
  type DemandField,
  type DemandUploadForm as FormState,
  EMPTY_DEMAND_FORM,
} from '../demandUpload';

interface DemandUploadFormProps {
  fabric: number;
  uploading: boolean;
  error: unknown;
  onUpload: (body: DemandUpload, reset: () => void) => void;
}

/** Upload a rack-to-rack demand series; the server's 400 lists every bad row by line. */
export function DemandUploadForm({ fabric, uploading, error, onUpload }: DemandUploadFormProps) {
  const [form, setForm] = useState<FormState>(EMPTY_DEMAND_FORM);
  const [fileKey, setFileKey] = useState(0);
  // After a submit the browser's check follows every edit: a fixed field stops saying its problem.
  const [submitted, setSubmitted] = useState(false);
  const checked: FormCheck<DemandField> = submitted ? buildDemandUpload(form, fabric) : { errors: [], byField: {} };
  const server = fieldProblems<DemandField>(error, DEMAND_FIELDS);
  const nameHint = lengthHint(form.name.trim().length, DEMAND_NAME_MAX);
  const problems = (field: DemandField) => problemsOf(checked.byField[field], server.byField[field]);
  // The file's content reaches the server as `csv` or `rows`: their problems are the file's.
  const fileServerProblems = [
    ...(server.byField.file ?? []),
    ...(server.byField.csv ?? []),
    ...(server.byField.rows ?? []),
  ];
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const readFile = (file: File | undefined) => {
    if (!file) {
      set('file', null);
      return;
    }
    void readTextUpload(file).then((upload) => set('file', upload));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildDemandUpload(form, fabric);
    setSubmitted(true);
    if (built.body)
      onUpload(built.body, () => {
        setForm(EMPTY_DEMAND_FORM);
        setSubmitted(false);
        setFileKey((key) => key + 1);
      });
  };

  // A file that is not text is said at the file field as soon as it is picked, not after submit.
  const fileProblem = form.file?.problem ?? checked.byField.file;

  return (
    <form aria-label="Upload demand" onSubmit={submit} noValidate>
      <div className="circuits-form">
        {/* No maxLength: a paste is never cut silently; past the limit the field says so at once. */}
        <FormField label="Name" limit={nameHint} problems={problems('name')}>
          {(aria) => <input value={form.name} onChange={(event) => set('name', event.target.value)} {...aria} />}
        </FormField>
        <FormField
          label="Window length (s)"
          hint="Up to 86,400 (a day); empty: from the data."
          problems={problems('window_s')}
        >
          {(aria) => (
            <input
              inputMode="decimal"
              value={form.windowS}
              onChange={(event) => set('windowS', event.target.value)}
              placeholder="from the data"
              {...aria}
            />
          )}
        </FormField>
        <FormField label="Description" problems={problems('description')}>
          {(aria) => (
            <input value={form.description} onChange={(event) => set('description', event.target.value)} {...aria} />
          )}
        </FormField>
        <FormField
          label="Demand file (CSV src,dst,bytes,window_start with ToR names, or JSON rows; at most 64 MiB)"
          problems={fileProblem ? [fileProblem] : fileServerProblems.length > 0 ? fileServerProblems : undefined}
        >
          {(aria) => (
            <input
              key={fileKey}
              type="file"
              accept=".csv,.json,text/csv,application/json"
              onChange={(event) => readFile(event.target.files?.[0])}
              {...aria}
            />
          )}
        </FormField>
        <button type="submit" disabled={uploading}>
          {uploading ? 'Uploading…' : 'Upload demand'}
        </button>
      </div>
      <FormProblems problems={generalProblems(checked)} />
      <RefusedProblems title="The server refused the demand." problems={server.general} />
    </form>
  );
}
