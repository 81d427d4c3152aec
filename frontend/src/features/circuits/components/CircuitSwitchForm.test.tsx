/** @vitest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';

import type { CircuitSwitch } from '../api/types';
import { CircuitSwitchForm } from './CircuitSwitchForm';

const SWITCH: CircuitSwitch = {
  id: 1,
  url: '/api/circuit-switches/1/',
  fabric: 3,
  name: 'ocs-1',
  zone: 'zone-a',
  port_count: 4,
  dark_time_s: 0.015,
  capacity_gbps: 100,
  description: '',
  attachments: [
    { tor: 12, tor_name: 'p0-tor0', optical_ports: 1, links: [], available_ports: 1, unavailable: [] },
    {
      tor: 99,
      tor_name: 'p9-tor0',
      optical_ports: 2,
      links: [40, 41],
      available_ports: 1,
      unavailable: [{ link: 41, reason: 'open_ticket' }],
    },
  ],
  ports_attached: 3,
  ports_available: 2,
  created: '2026-11-22T23:00:00Z',
  updated: '2026-11-22T23:00:00Z',
};

const TORS = [
  { id: 12, url: '', name: 'p0-tor0', tier: 0 },
  { id: 13, url: '', name: 'p0-tor1', tier: 0 },
];

/** What a screen reader reads after the field's name: its hint and its problem. */
function describedBy(element: HTMLElement): string {
  const ids = (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('CircuitSwitchForm', () => {
  it('edits a switch, keeping attached ToRs the fabric list lacks, and lists the server refusal', () => {
    const onSave = vi.fn();
    const error = new ApiError(400, ['attachments: the switch has 4 ports but the attachments need 5'], {
      attachments: ['the switch has 4 ports but the attachments need 5'],
    });
    render(
      <CircuitSwitchForm
        fabric={3}
        tors={TORS}
        editing={SWITCH}
        saving={false}
        error={error}
        onSave={onSave}
        onCancel={() => undefined}
      />,
    );
    const form = screen.getByRole('form', { name: 'Edit ocs-1' });
    expect(within(form).getByLabelText('Dark time (ms)')).toHaveProperty('value', '15');
    // p9-tor0 is not in the fabric's first page of ToRs but stays attached, with its ticketed link shown.
    expect(within(form).getByLabelText('p9-tor0 optical ports')).toHaveProperty('value', '2');
    expect(within(form).getByLabelText('p9-tor0 links')).toHaveProperty('value', '40, 41');
    expect(form.textContent).toContain('link 41: open ticket');
    expect(within(form).getByRole('alert').textContent).toContain('the switch has 4 ports but the attachments need 5');

    fireEvent.change(within(form).getByLabelText('p0-tor1 optical ports'), { target: { value: '1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        name: 'ocs-1',
        port_count: 4,
        dark_time_s: 0.015,
        attachments: [
          { tor: 12, optical_ports: 1, links: [] },
          { tor: 13, optical_ports: 1, links: [] },
          { tor: 99, optical_ports: 2, links: [40, 41] },
        ],
      }),
    );
  });

  it('catches too few ports before sending', () => {
    const onSave = vi.fn();
    render(
      <CircuitSwitchForm
        fabric={3}
        tors={TORS}
        editing={SWITCH}
        saving={false}
        error={null}
        onSave={onSave}
        onCancel={() => undefined}
      />,
    );
    const form = screen.getByRole('form', { name: 'Edit ocs-1' });
    fireEvent.change(within(form).getByLabelText('Ports'), { target: { value: '2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(within(form).getByRole('alert').textContent).toContain('The switch has 2 ports but the attachments need 3.');
  });

  it("says the name limit before submit, and every problem, the browser's or the server's, at its field", () => {
    const { rerender } = render(
      <CircuitSwitchForm
        fabric={3}
        tors={TORS}
        editing={null}
        saving={false}
        error={null}
        onSave={() => undefined}
        onCancel={() => undefined}
      />,
    );
    const form = screen.getByRole('form', { name: 'New circuit switch' });
    const name = within(form).getByRole('textbox', { name: /^Name/ });
    expect(form.textContent).toContain('Up to 100 characters.');
    fireEvent.change(name, { target: { value: 'n'.repeat(120) } });
    // At once, before submit: the field is invalid and says by how much.
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(name)).toBe('120 characters: up to 100, 20 too many.');
    const capacity = within(form).getByRole('textbox', { name: /^Circuit capacity/ });
    fireEvent.change(capacity, { target: { value: '2e9' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create circuit switch' }));
    expect(capacity.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(capacity)).toContain('above 0 and up to 100,000');
    expect(form.textContent).not.toContain('Check the form.');

    // The server's field errors land at their fields, without its keys.
    const refused = new ApiError(400, [], { name: ['circuit switch with this name already exists.'] });
    rerender(
      <CircuitSwitchForm
        fabric={3}
        tors={TORS}
        editing={null}
        saving={false}
        error={refused}
        onSave={() => undefined}
        onCancel={() => undefined}
      />,
    );
    fireEvent.change(name, { target: { value: 'ocs-9' } });
    fireEvent.change(capacity, { target: { value: '100' } });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(name)).toContain('circuit switch with this name already exists.');
    expect(form.textContent).not.toContain('name:');
  });
});
