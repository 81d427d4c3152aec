import { describe, expect, it } from 'vitest';

import { canWrite } from './roles';

describe('canWrite', () => {
  it('is false for viewers and anonymous users', () => {
    expect(canWrite(undefined)).toBe(false);
    expect(canWrite({ username: 'viewer', roles: ['viewer'], is_admin: false })).toBe(false);
  });

  it('is true for writer roles and admins', () => {
    expect(canWrite({ username: 'planner', roles: ['planner'], is_admin: false })).toBe(true);
    expect(canWrite({ username: 'root', roles: [], is_admin: true })).toBe(true);
  });
});
