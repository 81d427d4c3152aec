import { type FormEvent, useState } from 'react';

import { ErrorList } from '@/components/ErrorList';
import { FabricSelect } from '@/components/FabricSelect';
import { useFabricChoices } from '@/features/fabrics';

import type { WebhookEndpoint, WebhookEndpointCreated } from '../api/types';
import { useCreateWebhookEndpoint, useUpdateWebhookEndpoint } from '../api/webhooks';

const NAME_MAX = 100;
const SECRET_MIN = 16;

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
  const [fabric, setFabric] = useState(endpoint ? String(endpoint.fabric) : '');
  const [name, setName] = useState(endpoint?.name ?? '');
  const [payloadUrl, setPayloadUrl] = useState(endpoint?.payload_url ?? '');
  const [secret, setSecret] = useState('');
  const [maxAttempts, setMaxAttempts] = useState(String(endpoint?.max_attempts ?? 10));
  const pending = create.isPending || update.isPending;

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
    <form className="webhook-form" aria-label={endpoint ? `Edit ${endpoint.name}` : 'New endpoint'} onSubmit={submit}>
      {endpoint ? null : (
        <FabricSelect
          fabrics={fabrics.data?.results ?? []}
          value={fabric}
          onChange={setFabric}
          emptyOption="Choose…"
          required
        />
      )}
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.target.value)} maxLength={NAME_MAX} required />
      </label>
      <label>
        Payload URL
        <input
          type="url"
          value={payloadUrl}
          onChange={(event) => setPayloadUrl(event.target.value)}
          placeholder="https://receiver.example/hooks/lightpath"
          required
        />
      </label>
      <label>
        Secret (optional, at least {SECRET_MIN} characters)
        <input
          type="password"
          autoComplete="new-password"
          value={secret}
          minLength={SECRET_MIN}
          onChange={(event) => setSecret(event.target.value)}
          placeholder={endpoint ? 'Leave empty to keep the current one' : 'Leave empty to have one generated'}
        />
      </label>
      <label>
        Attempts before giving up
        <input
          type="number"
          min={1}
          max={20}
          value={maxAttempts}
          onChange={(event) => setMaxAttempts(event.target.value)}
          required
        />
      </label>
      <ErrorList error={create.error ?? update.error} title="Could not save the endpoint." />
      <div className="form-actions">
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
