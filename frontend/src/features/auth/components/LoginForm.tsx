import { useState, type FormEvent } from 'react';

import { ErrorList } from '@/components/ErrorList';

import type { LoginCredentials } from '../api/types';

interface LoginFormProps {
  onSubmit: (credentials: LoginCredentials) => void;
  submitting: boolean;
  error: unknown;
}

export function LoginForm({ onSubmit, submitting, error }: LoginFormProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ username: username.trim(), password });
  };

  return (
    <form className="login-form" onSubmit={submit} aria-label="Log in">
      <label>
        Username
        <input
          name="username"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          required
          autoFocus
        />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
      </label>
      <div data-testid="login-error">
        <ErrorList error={error} title="Login failed." />
      </div>
      <button type="submit" className="primary" disabled={submitting}>
        {submitting ? 'Logging in…' : 'Log in'}
      </button>
    </form>
  );
}
