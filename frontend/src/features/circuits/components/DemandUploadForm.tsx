import { FormProblems } from '@/components/FormProblems';
import { type FormEvent, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { readTextUpload } from '@/lib/textUpload';

import type { DemandUpload } from '../api/types';
import { buildDemandUpload, type DemandUploadForm as FormState, EMPTY_DEMAND_FORM } from '../demandUpload';

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
  const [problems, setProblems] = useState<string[]>([]);
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
    setProblems(built.errors);
    if (built.body)
      onUpload(built.body, () => {
        setForm(EMPTY_DEMAND_FORM);
        setFileKey((key) => key + 1);
      });
  };

  return (
    <form aria-label="Upload demand" onSubmit={submit} noValidate>
      <div className="circuits-form">
        <label>
          Name
          <input value={form.name} onChange={(event) => set('name', event.target.value)} />
        </label>
        <label>
          Window length (s)
          <input
            inputMode="decimal"
            value={form.windowS}
            onChange={(event) => set('windowS', event.target.value)}
            placeholder="from the data"
          />
        </label>
        <label>
          Description
          <input value={form.description} onChange={(event) => set('description', event.target.value)} />
        </label>
        <label>
          Demand file (CSV src,dst,bytes,window_start with ToR names, or JSON rows; at most 64 MiB)
          <input
            key={fileKey}
            type="file"
            accept=".csv,.json,text/csv,application/json"
            onChange={(event) => readFile(event.target.files?.[0])}
          />
        </label>
        <button type="submit" disabled={uploading}>
          {uploading ? 'Uploading…' : 'Upload demand'}
        </button>
      </div>
      <FormProblems problems={problems} />
      <ErrorList error={error} title="The server refused the demand." />
    </form>
  );
}
