import { describe, expect, it } from 'vitest';

import { canCancelJob } from './roles';

describe('canCancelJob', () => {
  const job = { created_by: 'planner' };

  it('lets the creator, operators and admins cancel', () => {
    expect(canCancelJob({ username: 'planner', roles: ['planner'], is_admin: false }, job)).toBe(true);
    expect(canCancelJob({ username: 'op', roles: ['operator'], is_admin: false }, job)).toBe(true);
    expect(canCancelJob({ username: 'root', roles: [], is_admin: true }, job)).toBe(true);
  });

  it('refuses other users, whatever else they may write', () => {
    expect(canCancelJob(undefined, job)).toBe(false);
    expect(canCancelJob({ username: 'tech', roles: ['technician'], is_admin: false }, job)).toBe(false);
    expect(canCancelJob({ username: 'other', roles: ['planner'], is_admin: false }, job)).toBe(false);
    expect(canCancelJob({ username: 'viewer', roles: ['viewer'], is_admin: false }, { created_by: null })).toBe(false);
  });
});
