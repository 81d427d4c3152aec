/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { DemandUploadForm } from './DemandUploadForm';

afterEach(cleanup);

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

describe('DemandUploadForm', () => {
  it('says a picture picked as the demand file at the file field as soon as it is picked', async () => {
    render(<DemandUploadForm fabric={3} uploading={false} error={null} onUpload={vi.fn()} />);
    const file = screen.getByLabelText(/Demand file/);
    fireEvent.change(file, { target: { files: [new File([PNG], 'photo.png', { type: 'image/png' })] } });
    const sentence = 'photo.png is a PNG image, not a text file: choose the CSV or JSON file.';
    expect(await screen.findByText(sentence)).toBeInTheDocument();
    expect(file).toHaveAttribute('aria-invalid', 'true');
    expect(file).toHaveAccessibleDescription(sentence);
  });

  it("puts the server's demand problems at their fields, all of them, without 'demand.name:'", () => {
    const error = new ApiError(400, [], {
      errors: [
        { section: 'demand', field: 'name', message: "fabric 'demo-fb' already has a demand 'hot'" },
        { section: 'demand', field: 'window_s', message: '4000 windows of 1 s, above the limit of 2000' },
      ],
    });
    render(<DemandUploadForm fabric={3} uploading={false} error={error} onUpload={vi.fn()} />);
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription("Up to 100 characters. fabric 'demo-fb' already has a demand 'hot'");
    expect(screen.getByRole('textbox', { name: 'Window length (s)' })).toHaveAccessibleDescription(
      'Up to 86,400 (a day); empty: from the data. 4000 windows of 1 s, above the limit of 2000',
    );
    expect(document.body.textContent).not.toContain('demand.');
  });
});
