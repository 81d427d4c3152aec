import { useEffect, useId, useState } from 'react';

import {
  applyTheme,
  chooseTheme,
  currentThemeChoice,
  onSystemThemeChange,
  systemTheme,
  type Theme,
  type ThemeChoice,
} from '@/lib/theme';

const CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * The theme: follow the system, or always light, or always dark (remembered in this browser).
 * Three radios, so the current one is visible and "System" can be chosen again after a pick
 * (trial 30: a light/dark toggle never gave the system its say back).
 */
export function ThemeToggle() {
  const name = useId();
  const [choice, setChoice] = useState<ThemeChoice>(currentThemeChoice);
  const [system, setSystem] = useState<Theme>(systemTheme);
  useEffect(() => {
    applyTheme();
    return onSystemThemeChange(() => setSystem(systemTheme()));
  }, []);
  return (
    <fieldset className="theme-toggle">
      <legend>Theme</legend>
      {CHOICES.map(({ value, label }) => (
        <label key={value}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={choice === value}
            onChange={() => {
              chooseTheme(value);
              setChoice(value);
            }}
          />
          {/* "System (dark)": which theme following the system gives right now. */}
          {value === 'system' ? `${label} (${system})` : label}
        </label>
      ))}
    </fieldset>
  );
}
