/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { parseRackSet, RACK_SET_PRESETS, rackSetText } from '../forms';
import { LarryRunForm } from './LarryRunForm';
import { RackSetEditor } from './RackSetEditor';

afterEach(cleanup);

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const photo = () => new File([PNG], 'photo.png', { type: 'image/png' });

describe('Uplinks uploads', () => {
  it('says a picture picked as the counters file at the file field as soon as it is picked', async () => {
    const onSubmit = vi.fn();
    const rackSet = parseRackSet(rackSetText(RACK_SET_PRESETS[0]!.rackSet));
    render(<LarryRunForm rackSet={rackSet} fabrics={[]} submitting={false} onSubmit={onSubmit} />);
    const file = screen.getByLabelText(/Counters file/);
    fireEvent.change(file, { target: { files: [photo()] } });
    const sentence = 'photo.png is a PNG image, not a text file: choose the CSV or JSON file.';
    expect(await screen.findByText(sentence)).toBeInTheDocument();
    expect(file).toHaveAttribute('aria-invalid', 'true');
    expect(file).toHaveAccessibleDescription(sentence);
    fireEvent.click(screen.getByRole('button', { name: /Run/ }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getAllByText(sentence)).toHaveLength(1);
  });

  it('keeps the rack set typed so far when a picture is picked, and says why at the file field', async () => {
    const onChange = vi.fn();
    const text = rackSetText(RACK_SET_PRESETS[0]!.rackSet);
    render(<RackSetEditor text={text} parsed={parseRackSet(text)} onChange={onChange} />);
    const file = screen.getByLabelText(/Or upload a rack-set file/);
    fireEvent.change(file, { target: { files: [photo()] } });
    expect(
      await screen.findByText('photo.png is a PNG image, not a text file: choose the JSON file.'),
    ).toBeInTheDocument();
    expect(file).toHaveAttribute('aria-invalid', 'true');
    expect(onChange).not.toHaveBeenCalled();
  });
});
