import { describe, expect, it } from 'vitest';

import { testPreventiveTicket, testTicket } from './testTicket';
import {
  actionAt,
  doneStepSummary,
  stepsNewestFirst,
  ticketWhere,
  validationSentence,
  whatToBring,
} from './ticketHeader';

describe('ticketWhere / whatToBring', () => {
  it('sends a far-end replacement to the far end, with what to bring for it', () => {
    const ticket = testTicket();
    const where = ticketWhere(ticket);
    expect(where?.end.switch).toBe('p0-tor4'); // a_to_z corrupts at Z; the far end A transmits low
    expect(whatToBring(ticket, where!)).toEqual([
      'Cable: 12 m, MMF, MPO connectors',
      'Transceiver: 100G-SR4 (serial SN-A-19) at end A',
      'Far end: p0-fab2:eth1/5, rack not recorded',
    ]);
  });

  it('says what is not recorded instead of leaving it out', () => {
    const ticket = testTicket({ cable_length_m: null, fiber: '' });
    const where = ticketWhere(
      testTicket({ recommendation: { ...ticket.recommendation!, action: 'reseat_transceiver' } }),
    );
    expect(where?.end.side).toBe('z');
    expect(whatToBring(ticket, where!)).toEqual([
      'Cable: length not recorded, fiber type not recorded, MPO connectors',
      'Transceiver: 100G-SR4 (serial not recorded) at end Z',
      'Far end: p0-tor4:eth2/3, rack p0-rack4',
    ]);
  });

  it('a preventive ticket works at the end its forecast names', () => {
    expect(ticketWhere(testPreventiveTicket())?.end.side).toBe('a');
  });
});

describe('actionAt', () => {
  const ticket = testTicket();
  const evidence = ticket.recommendation!.evidence;
  it('names the end, never "the far-end transceiver" alone', () => {
    expect(actionAt('replace_far_transceiver', evidence, ticket.ends)).toBe(
      'Replace the transceiver at p0-tor4:eth2/3 (end A, rack p0-rack4)',
    );
    expect(actionAt('reseat_transceiver', evidence, ticket.ends)).toBe(
      'Reseat the transceiver at p0-fab2:eth1/5 (end Z, rack not recorded)',
    );
  });
  it('takes the end from the direction when the evidence has none', () => {
    expect(actionAt('replace_transceiver', {}, ticket.ends, 'z_to_a')).toBe(
      'Replace the transceiver at p0-tor4:eth2/3 (end A, rack p0-rack4)',
    );
  });
  it('a cable runs between both ends; cleaning stays as it was', () => {
    expect(actionAt('replace_cable', evidence, ticket.ends)).toBe(
      'Replace the cable between p0-tor4:eth2/3 (end A, rack p0-rack4) and p0-fab2:eth1/5 (end Z, rack not recorded)',
    );
    expect(actionAt('clean_fiber', evidence, ticket.ends)).toBe('Clean the connectors (both ends)');
  });
});

describe('validationSentence', () => {
  it('states the end time and the length while validating', () => {
    const ticket = testTicket({ state: 'awaiting_validation', validation_ends_at: '2026-11-28T16:22:00Z' });
    expect(validationSentence(ticket)).toBe('Validating until 2026-11-28 16:22 UTC, 24 h after the repair.');
  });
  it('before the repair and while the link is still out, the length', () => {
    expect(validationSentence(testTicket())).toBe(
      'After the repair the link must stay clean for 24 h before the ticket resolves.',
    );
    expect(validationSentence(testTicket({ state: 'awaiting_validation' }))).toBe(
      'Validation (24 h) starts when the link is back in service.',
    );
    expect(validationSentence(testTicket({ state: 'resolved' }))).toBeNull();
  });
});

describe('steps', () => {
  const [first] = testTicket().steps;
  const done = {
    ...first!,
    action_taken: 'reseat_transceiver' as const,
    technician: 'ana',
    acted_at: '2026-11-27T12:00:00Z',
  };
  it('a done step reads as one line: what, who, when, outcome', () => {
    expect(doneStepSummary(done)).toBe('Reseated transceiver by ana, 2026-11-27 12:00 UTC: being validated');
  });
  it('the current (newest) step comes first', () => {
    expect(stepsNewestFirst([done, { ...first!, number: 2 }]).map((step) => step.number)).toEqual([2, 1]);
  });
});
