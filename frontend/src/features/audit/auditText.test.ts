import { describe, expect, it } from 'vitest';

import { changeText, objectPath, objectTypeLabel } from './auditText';

describe('audit rows in words', () => {
  it('says what an update changed, field by field, and nothing for a creation', () => {
    expect(
      changeText({
        action: 'update',
        before: { admin_state: 'enabled', admin_reason: '', length_m: 7.8 },
        after: { admin_state: 'disabled', admin_reason: 'bent fiber', length_m: 7.8 },
      }),
    ).toBe('admin state: enabled → disabled; admin reason: (none) → bent fiber');
    expect(changeText({ action: 'create', before: null, after: { name: 'x' } })).toBe('');
  });

  it('links an object to its page, except one that was deleted or has no page', () => {
    expect(objectPath({ object_type: 'fabric.link', object_id: 7, action: 'update' })).toBe('/links/7');
    expect(objectPath({ object_type: 'corruption.ticket', object_id: 3, action: 'create' })).toBe('/tickets/3');
    expect(objectPath({ object_type: 'fabric.link', object_id: 7, action: 'delete' })).toBeUndefined();
    expect(objectPath({ object_type: 'fabric.switch', object_id: 2, action: 'update' })).toBeUndefined();
    expect(objectTypeLabel('maintenance.workorder')).toBe('Work order');
    expect(objectTypeLabel('unknown.thing')).toBe('unknown.thing');
  });
});

describe('audit filters in the URL', () => {
  it('reads the filters, drops junk, and reads a datetime-local value as UTC', async () => {
    const { auditFiltersFromParams, utcFromLocalInput, withAuditFilters } = await import('./auditFilters');
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
    expect(utcFromLocalInput('2026-11-26T16:22')).toBe('2026-11-26T16:22:00Z');
    const next = withAuditFilters(new URLSearchParams('ordering=-timestamp&page=3&username=olga'), {
      action: 'update',
      object_type: 'fabric.link',
    });
    expect(next.toString()).toBe('ordering=-timestamp&object_type=fabric.link&action=update');
  });
});
