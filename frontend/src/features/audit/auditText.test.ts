import { describe, expect, it } from 'vitest';

import { changeText, OBJECT_TYPES, objectPath } from './auditText';

describe('audit rows in words', () => {
  it("says what an update changed in the server's words, and nothing for a creation", () => {
    expect(
      changeText({
        changes: [
          { field: 'admin state', before: 'Enabled', after: 'Disabled' },
          { field: 'admin changed by', before: '(none)', after: 'olga' },
        ],
      }),
    ).toBe('admin state: Enabled → Disabled; admin changed by: (none) → olga');
    expect(changeText({ changes: [] })).toBe('');
  });

  it('links an object to its page, except one that was deleted or has no page', () => {
    expect(objectPath({ object_type: 'fabric.link', object_id: 7, action: 'update' })).toBe('/links/7');
    expect(objectPath({ object_type: 'corruption.ticket', object_id: 3, action: 'create' })).toBe('/tickets/3');
    expect(objectPath({ object_type: 'fabric.link', object_id: 7, action: 'delete' })).toBeUndefined();
    expect(objectPath({ object_type: 'fabric.switch', object_id: 2, action: 'update' })).toBeUndefined();
    expect(objectPath({ object_type: 'circuits.demand', object_id: 4, action: 'create' })).toBe('/circuits');
  });

  it('offers every object type the server audits in the filter (trial 30: no "Demand")', () => {
    // The models given to audit.record / AuditedModelViewSet on the server (their _meta.label_lower).
    const audited = [
      'fabric.fabric',
      'fabric.switch',
      'fabric.link',
      'fabric.transceiver',
      'fabric.transceivermodel',
      'corruption.ticket',
      'corruption.ticketstep',
      'corruption.ticketcomment',
      'maintenance.workorder',
      'circuits.circuitswitch',
      'circuits.demand',
      'telemetry.powerthreshold',
      'webhooks.webhookendpoint',
    ];
    expect(Object.keys(OBJECT_TYPES).sort()).toEqual([...audited].sort());
    expect(OBJECT_TYPES['circuits.demand']?.label).toBe('Demand');
  });
});

describe('audit filters in the URL', () => {
  it('reads the filters and drops junk', async () => {
    const { auditFiltersFromParams, withAuditFilters } = await import('./auditFilters');
    const params = new URLSearchParams(
      'username=olga&object_id=x&action=fly&timestamp__gte=2026-11-26T16:00:00Z&page=3',
    );
    expect(auditFiltersFromParams(params)).toEqual({
      username: 'olga',
      object_type: undefined,
      object_id: undefined,
      action: undefined,
      timestamp__gte: '2026-11-26T16:00:00Z',
      timestamp__lte: undefined,
    });
    const next = withAuditFilters(new URLSearchParams('ordering=-timestamp&page=3&username=olga'), {
      action: 'update',
      object_type: 'fabric.link',
    });
    expect(next.toString()).toBe('ordering=-timestamp&object_type=fabric.link&action=update');
  });
});
