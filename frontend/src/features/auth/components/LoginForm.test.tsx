/** @vitest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ApiError, parseErrorBody } from '@/lib/api-client';

import { LoginForm } from './LoginForm';

describe('LoginForm', () => {
  it('submits the typed credentials', () => {
    const onSubmit = vi.fn();
    render(<LoginForm onSubmit={onSubmit} submitting={false} error={null} />);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: ' viewer ' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(onSubmit).toHaveBeenCalledWith({ username: 'viewer', password: 'secret' });
  });

  it('shows the server’s reason inline', () => {
    const error = new ApiError(400, parseErrorBody({ non_field_errors: ['Invalid username or password.'] }), null);
    render(<LoginForm onSubmit={() => {}} submitting={false} error={error} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid username or password.');
  });
});
