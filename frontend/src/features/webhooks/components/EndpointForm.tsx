import { type FormEvent, type ReactNode, useId, useState } from 'react';

import { FabricSelect } from '@/components/FabricSelect';
import { useFabricChoices } from '@/features/fabrics';
import { fieldProblems } from '@/lib/fieldProblems';
import { lengthHint } from '@/lib/format/length';

import type { WebhookEndpoint, WebhookEndpointCreated } from '../api/types';
import { useCreateWebhookEndpoint, useUpdateWebhookEndpoint } from '../api/webhooks';

const NAME_MAX = 100;
const SECRET_MIN = 16;
const FIELDS = ['fabric', 'name', 'payload_url', 'secret', 'max_attempts'] as const;
type FieldKey = (typeof FIELDS)[number];

/** A labelled control with the server's problems with it underneath, tied to it for screen readers. */
function Field({
  label,
  hint,
  problems,
  children,
}: {
  label: string;
  hint?: string;
  problems?: string[];
  children: (props: { 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', problems ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <label>
      {label}
      {children({ 'aria-invalid': problems ? true : undefined, 'aria-describedby': described || undefined })}
      {hint ? (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      ) : null}
      {problems ? (
        <span id={`${id}-problem`} className="field-error" role="alert">
          {problems.join(' ')}
        </span>
      ) : null}
    </label>
  );
}

/**
 * A new endpoint (no `endpoint`) or an edit of one. The secret is optional: left empty on create
 * the server makes one and answers it once; left empty on edit the current one stays.
 */
export function EndpointForm({
  endpoint,
  onDone,
}: {
  endpoint?: WebhookEndpoint;
  onDone: (created?: WebhookEndpointCreated) => void;
}) {
  const fabrics = useFabricChoices();
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const [chosenFabric, setFabric] = useState(endpoint ? String(endpoint.fabric) : '');
  const fabricChoices = fabrics.data?.results ?? [];
  // With a single fabric there is nothing to choose: it is preselected.
  const onlyFabric = fabricChoices.length === 1 ? fabricChoices[0] : undefined;
  const fabric = chosenFabric || (onlyFabric ? String(onlyFabric.id) : '');
  const [name, setName] = useState(endpoint?.name ?? '');
  const [payloadUrl, setPayloadUrl] = useState(endpoint?.payload_url ?? '');
  const [secret, setSecret] = useState('');
  const [maxAttempts, setMaxAttempts] = useState(String(endpoint?.max_attempts ?? 10));
  const pending = create.isPending || update.isPending;
  const { byField, general } = fieldProblems<FieldKey>(create.error ?? update.error, FIELDS);
  const nameHint = lengthHint(name.length, NAME_MAX);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const common = {
      name: name.trim(),
      payload_url: payloadUrl.trim(),
      max_attempts: Number(maxAttempts),
      ...(secret ? { secret } : {}),
    };
    if (endpoint) update.mutate({ id: endpoint.id, ...common }, { onSuccess: () => onDone() });
    else create.mutate({ fabric: Number(fabric), ...common }, { onSuccess: (created) => onDone(created) });
  };

  return (
    <form
      className="stacked-form webhook-form"
      aria-label={endpoint ? `Edit ${endpoint.name}` : 'New endpoint'}
      onSubmit={submit}
    >
      {endpoint ? null : (
        <>
          <FabricSelect fabrics={fabricChoices} value={fabric} onChange={setFabric} emptyOption="Choose…" required />
          {byField.fabric ? (
            <span className="field-error" role="alert">
              {byField.fabric.join(' ')}
            </span>
          ) : null}
        </>
      )}
      {/* No maxLength: a paste is never cut silently; past the limit the field says so (the server too). */}
      <Field
        label="Name"
        hint={nameHint.over ? undefined : nameHint.text}
        problems={byField.name ?? (nameHint.over ? [nameHint.text] : undefined)}
      >
        {(aria) => <input value={name} onChange={(event) => setName(event.target.value)} required {...aria} />}
      </Field>
      <Field label="Payload URL" problems={byField.payload_url}>
        {(aria) => (
          <input
            type="url"
            value={payloadUrl}
            onChange={(event) => setPayloadUrl(event.target.value)}
            placeholder="https://receiver.example/hooks/lightpath"
            required
            {...aria}
          />
        )}
      </Field>
      <Field label={`Secret (optional, at least ${SECRET_MIN} characters)`} problems={byField.secret}>
        {(aria) => (
          <input
            type="password"
            autoComplete="new-password"
            value={secret}
            minLength={SECRET_MIN}
            onChange={(event) => setSecret(event.target.value)}
            placeholder={endpoint ? 'Leave empty to keep the current one' : 'Leave empty to have one generated'}
            {...aria}
          />
        )}
      </Field>
      <Field label="Attempts before giving up" hint="From 1 to 20." problems={byField.max_attempts}>
        {(aria) => (
          <input
            type="number"
            min={1}
            max={20}
            value={maxAttempts}
            onChange={(event) => setMaxAttempts(event.target.value)}
            required
            {...aria}
          />
        )}
      </Field>
      {general.length > 0 ? (
        <div className="error-box" role="alert">
          <p className="error-title">Could not save the endpoint.</p>
          <ul>
            {general.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="button-row">
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : endpoint ? 'Save' : 'Create endpoint'}
        </button>
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
