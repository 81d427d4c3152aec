import { describe, expect, it } from 'vitest';

import {
  canCancelJob,
  canChangeLinkState,
  canEditConstraints,
  canOverrideCapacity,
  canWorkTickets,
  landingPath,
} from './roles';

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

describe('ticket work and constraint editing', () => {
  const user = (roles: string[], is_admin = false) => ({ username: 'u', roles, is_admin });

  it('lets technicians, operators and admins work tickets, not viewers or planners', () => {
    expect(canWorkTickets(user(['technician']))).toBe(true);
    expect(canWorkTickets(user(['operator']))).toBe(true);
    expect(canWorkTickets(user([], true))).toBe(true);
    expect(canWorkTickets(user(['viewer']))).toBe(false);
    expect(canWorkTickets(user(['planner']))).toBe(false);
    expect(canWorkTickets(undefined)).toBe(false);
  });

  it('lets only operators and admins edit capacity constraints', () => {
    expect(canEditConstraints(user(['operator']))).toBe(true);
    expect(canEditConstraints(user(['admin']))).toBe(true);
    expect(canEditConstraints(user(['technician']))).toBe(false);
    expect(canEditConstraints(user(['planner']))).toBe(false);
  });
});

describe('capacity-guarded changes', () => {
  const user = (roles: string[], is_admin = false) => ({ username: 'u', roles, is_admin });

  it('lets operators and admins change link state, and only admins override the guard', () => {
    expect(canChangeLinkState(user(['operator']))).toBe(true);
    expect(canChangeLinkState(user(['admin']))).toBe(true);
    expect(canChangeLinkState(user(['technician']))).toBe(false);
    expect(canChangeLinkState(user(['viewer']))).toBe(false);
    expect(canChangeLinkState(undefined)).toBe(false);
    expect(canOverrideCapacity(user(['admin']))).toBe(true);
    expect(canOverrideCapacity(user([], true))).toBe(true);
    expect(canOverrideCapacity(user(['operator']))).toBe(false);
  });
});

describe('landingPath', () => {
  it('sends a technician to their day and everyone else to the fabrics', () => {
    expect(landingPath({ roles: ['technician'] })).toBe('/today');
    expect(landingPath({ roles: ['operator'] })).toBe('/fabrics');
    expect(landingPath({ roles: ['viewer'] })).toBe('/fabrics');
    expect(landingPath(undefined)).toBe('/fabrics');
  });
});
