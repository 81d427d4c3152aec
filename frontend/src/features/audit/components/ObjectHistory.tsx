import { Link } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { DataTable } from '@/components/table';

import { useAuditEvents } from '../api/useAuditEvents';
import { AUDIT_COLUMNS } from './auditColumns';

const SHOWN = 20;
// The object is the page's own: its type and name would repeat on every row.
const COLUMNS = AUDIT_COLUMNS.filter((column) => column.key !== 'object_type' && column.key !== 'object');

/** The change log of one object (newest first), for embedding at the bottom of its page. */
export function ObjectHistory({ objectType, objectId }: { objectType: string; objectId: number }) {
  const events = useAuditEvents({ object_type: objectType, object_id: objectId }, { limit: SHOWN, offset: 0 });
  const all = `/audit?${new URLSearchParams({ object_type: objectType, object_id: String(objectId) }).toString()}`;
  return (
    <section aria-labelledby="object-history-heading" className="object-history" data-testid="object-history">
      <h2 id="object-history-heading">History</h2>
      {events.isPending ? <Loading label="Loading history…" /> : null}
      <ErrorList error={events.error} title="Could not load the history." />
      {events.data ? (
        events.data.count === 0 ? (
          <p>No recorded changes.</p>
        ) : (
          <>
            <DataTable caption="History" columns={COLUMNS} rows={events.data.results} rowKey={(event) => event.id} />
            <p>
              <Link to={all}>
                {events.data.count > SHOWN ? `All ${events.data.count} changes` : 'Open in the audit log'}
              </Link>
            </p>
          </>
        )
      ) : null}
    </section>
  );
}
