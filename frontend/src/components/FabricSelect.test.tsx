/** @vitest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { FabricSelect } from './FabricSelect';

const FABRICS = [
  { id: 3, name: 'demo-fb' },
  { id: 7, name: 'larry-racks' },
];

describe('FabricSelect', () => {
  it('is named by its label and lists every fabric after the empty option', () => {
    render(<FabricSelect fabrics={FABRICS} value="" onChange={() => {}} emptyOption="All fabrics" />);

    const select = screen.getByRole('combobox', { name: 'Fabric' });
    expect(select).toHaveValue('');
    expect([...select.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'All fabrics',
      'demo-fb',
      'larry-racks',
    ]);
  });

  it('reports the chosen fabric id, and the empty option as ""', () => {
    const onChange = vi.fn();
    render(<FabricSelect fabrics={FABRICS} value={3} onChange={onChange} emptyOption="All fabrics" />);

    const select = screen.getByLabelText('Fabric');
    expect(select).toHaveDisplayValue('demo-fb');
    fireEvent.change(select, { target: { value: '7' } });
    expect(onChange).toHaveBeenLastCalledWith('7');
    fireEvent.change(select, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('takes another label and offers no empty option unless asked', () => {
    render(<FabricSelect fabrics={FABRICS} value={7} onChange={() => {}} label="Stored fabric" required />);

    const select = screen.getByRole('combobox', { name: 'Stored fabric' });
    expect(select).toBeRequired();
    expect(select).toHaveDisplayValue('larry-racks');
    expect(screen.queryByRole('option', { name: 'All fabrics' })).toBeNull();
    expect(screen.getAllByRole('option')).toHaveLength(2);
  });
});
