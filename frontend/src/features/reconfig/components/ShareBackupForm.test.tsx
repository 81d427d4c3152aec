/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { ShareBackupForm } from './ShareBackupForm';

afterEach(cleanup);

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const FABRICS = [{ id: 1, name: 'demo-fb' }];

describe('ShareBackupForm', () => {
  it('says a picture picked as the events file at the file field as soon as it is picked, naming JSON', async () => {
    const onSubmit = vi.fn();
    render(<ShareBackupForm fabrics={FABRICS} submitting={false} error={null} onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Upload JSON' }));
    const file = screen.getByLabelText(/Events file/);
    fireEvent.change(file, { target: { files: [new File([PNG], 'photo.png', { type: 'image/png' })] } });
    const sentence = 'photo.png is a PNG image, not a text file: choose the JSON file.';
    expect(await screen.findByText(sentence)).toBeInTheDocument();
    expect(file).toHaveAttribute('aria-invalid', 'true');
    expect(file).toHaveAccessibleDescription(sentence);
    expect(screen.queryByText('Check the form.')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Plan failover' }));
    expect(onSubmit).not.toHaveBeenCalled();
    // Still at the field, and not repeated in the box.
    expect(screen.getAllByText(sentence)).toHaveLength(1);
  });

  it("says the server's refusal of the stored fabric at the fabric picker, without its key", () => {
    const refusal = 'demo-fb is not a k-ary fat tree: pod 0 has 8 edge and 4 aggregation switches';
    const error = new ApiError(400, [`params.fabric: ${refusal}`], {
      errors: [{ section: 'params', field: 'fabric', message: refusal }],
    });
    render(<ShareBackupForm fabrics={FABRICS} submitting={false} error={error} onSubmit={() => undefined} />);
    fireEvent.click(screen.getByRole('radio', { name: 'A stored fabric' }));
    expect(screen.getByTestId('sharebackup-fabric-problem')).toHaveTextContent(refusal);
    expect(document.body.textContent).not.toContain('params.fabric');
    expect(screen.queryByText('The server refused the plan.')).toBeNull();
  });
});
