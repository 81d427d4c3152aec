/** @vitest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { ChoiceFieldset } from './ChoiceFieldset';

const SOURCES = [
  { value: 'generated', label: 'Generated' },
  { value: 'uploaded', label: 'Upload CSV', hint: <span className="badge">recommended</span> },
] as const;

type Source = (typeof SOURCES)[number]['value'];

function Trace({ onChange }: { onChange: (value: Source) => void }) {
  const [source, setSource] = useState<Source>('generated');
  return (
    <ChoiceFieldset
      legend="Corruption trace"
      name="trace-source"
      options={SOURCES}
      value={source}
      onChange={(next) => {
        setSource(next);
        onChange(next);
      }}
    >
      {source === 'uploaded' ? (
        <label>
          Trace file
          <input type="file" />
        </label>
      ) : null}
    </ChoiceFieldset>
  );
}

describe('ChoiceFieldset', () => {
  it('is a group named by its legend with one radio per option', () => {
    render(<Trace onChange={() => {}} />);

    const group = screen.getByRole('group', { name: 'Corruption trace' });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(2);
    expect(radios.every((radio) => radio.getAttribute('name') === 'trace-source')).toBe(true);
    expect(within(group).getByRole('radio', { name: 'Generated' })).toBeChecked();
    expect(within(group).getByRole('radio', { name: /^Upload CSV/ })).not.toBeChecked();
  });

  it('reports the choice and shows what belongs to it', () => {
    const onChange = vi.fn();
    render(<Trace onChange={onChange} />);
    expect(screen.queryByLabelText('Trace file')).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: /Upload CSV/ }));

    expect(onChange).toHaveBeenCalledExactlyOnceWith('uploaded');
    expect(screen.getByRole('radio', { name: /Upload CSV/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Generated' })).not.toBeChecked();
    expect(screen.getByLabelText('Trace file')).toBeInTheDocument();
  });
});
