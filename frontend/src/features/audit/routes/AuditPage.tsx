import { type FormEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

import { ErrorList } from '@/components/ErrorList';
import { Loading } from '@/components/Loading';
import { Pagination } from '@/components/Pagination';
import { csvExportHref, DataTable, TableToolbar, useTableState } from '@/components/table';
import { parseTimeInput, TIME_INPUT_EXAMPLE, TIME_INPUT_PATTERN, timeInputValue } from '@/lib/format';
import { pageOffset } from '@/lib/pagination';

import type { AuditFilters } from '../api/types';
import { useAuditEvents } from '../api/useAuditEvents';
import { auditFiltersFromParams, withAuditFilters } from '../auditFilters';
import { ACTION_LABELS, OBJECT_TYPES } from '../auditText';
import { AUDIT_COLUMN_KEYS, AUDIT_COLUMNS, AUDIT_SORT_FIELDS } from '../components/auditColumns';

function AuditFiltersForm({ filters, onApply }: { filters: AuditFilters; onApply: (next: AuditFilters) => void }) {
  const [draft, setDraft] = useState(filters);
  const [from, setFrom] = useState(timeInputValue(filters.timestamp__gte));
  const [to, setTo] = useState(timeInputValue(filters.timestamp__lte));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...draft, timestamp__gte: parseTimeInput(from), timestamp__lte: parseTimeInput(to) });
  };
  return (
    <form className="filters" aria-label="Audit filters" onSubmit={submit}>
      <label>
        Who
        <input
          type="text"
          placeholder="username"
          value={draft.username ?? ''}
          onChange={(event) => setDraft({ ...draft, username: event.target.value || undefined })}
        />
      </label>
      <label>
        Object type
        <select
          value={draft.object_type ?? ''}
          onChange={(event) => setDraft({ ...draft, object_type: event.target.value || undefined })}
        >
          <option value="">Any</option>
          {Object.entries(OBJECT_TYPES).map(([type, { label }]) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Object id
        <input
          type="number"
          min={1}
          value={draft.object_id ?? ''}
          onChange={(event) => setDraft({ ...draft, object_id: Number(event.target.value) || undefined })}
        />
      </label>
      <label>
        Action
        <select
          value={draft.action ?? ''}
          onChange={(event) =>
            setDraft({ ...draft, action: (event.target.value || undefined) as AuditFilters['action'] })
          }
        >
          <option value="">Any</option>
          {Object.entries(ACTION_LABELS).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <UtcTimeField label="From (UTC)" value={from} onChange={setFrom} />
      <UtcTimeField label="To (UTC)" value={to} onChange={setTo} />
      <button type="submit">Show changes</button>
    </form>
  );
}

export function AuditPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => auditFiltersFromParams(searchParams), [searchParams]);
  const table = useTableState('audit', AUDIT_COLUMN_KEYS, AUDIT_SORT_FIELDS);
  const { page, pageSize, ordering } = table;
  const events = useAuditEvents(filters, {
    limit: pageSize,
    offset: pageOffset(page, pageSize),
    ordering: table.orderingQuery,
  });

  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading">Audit log</h1>
      <p className="lede">Every change to the fabric, its links, tickets and settings: who, what and when.</p>
      <AuditFiltersForm
        key={searchParams.toString()}
        filters={filters}
        onApply={(next) => setSearchParams((current) => withAuditFilters(current, next))}
      />
      <TableToolbar
        columns={AUDIT_COLUMNS}
        table={table}
        csvHref={csvExportHref('/api/audit/', { ...filters }, ordering)}
      />
      {events.isPending ? <Loading label="Loading changes…" /> : null}
      <ErrorList error={events.error} title="Could not load the audit log." />
      {events.data ? (
        events.data.count === 0 ? (
          <p data-testid="audit-empty">No changes match these filters.</p>
        ) : (
          <>
            <DataTable
              caption="Changes"
              testId="audit-table"
              columns={AUDIT_COLUMNS}
              rows={events.data.results}
              rowKey={(event) => event.id}
              table={table}
              rowProps={(event) => ({ 'data-audit-id': event.id })}
            />
            <Pagination
              label="Audit pages"
              total={events.data.count}
              page={page}
              pageSize={pageSize}
              shown={events.data.results.length}
              onPageChange={table.setPage}
            />
          </>
        )
      ) : null}
    </section>
  );
}

/** A time typed in the one format, in UTC ("2026-11-26 16:22"): no locale date picker. */
function UtcTimeField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <label>
      {label}
      <input
        type="text"
        inputMode="numeric"
        placeholder={TIME_INPUT_EXAMPLE}
        pattern={TIME_INPUT_PATTERN}
        title={`A time in UTC, as ${TIME_INPUT_EXAMPLE}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
