import { useEffect, useState } from 'react';

import { applyTheme, chooseTheme, effectiveTheme, onSystemThemeChange, type Theme } from '@/lib/theme';

/** The header's switch between the light and the dark theme; it starts on the system's setting. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(effectiveTheme);
  useEffect(() => {
    applyTheme();
    return onSystemThemeChange(() => setTheme(effectiveTheme()));
  }, []);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="theme-toggle"
      aria-pressed={theme === 'dark'}
      aria-label="Dark theme"
      title={`Switch to the ${next} theme (remembered in this browser)`}
      onClick={() => {
        chooseTheme(next);
        setTheme(next);
      }}
    >
      {/* A moon: narrow, so the header's navigation keeps its rows. */}
      <span aria-hidden="true">☾</span>
    </button>
  );
}
