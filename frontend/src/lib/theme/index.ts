/**
 * Light or dark: the system's setting (prefers-color-scheme) unless the user chose with the
 * header's toggle, which is remembered in this browser. The choice is `data-theme` on <html>;
 * styles.css holds both palettes as custom properties, which the charts read too.
 */
export type Theme = 'light' | 'dark';
/** What the user picks: a theme, or "system" to forget the pick and follow the system again. */
export type ThemeChoice = Theme | 'system';

export const THEME_STORAGE_KEY = 'lightpath.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function storedTheme(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Theme | null {
  const value = storage?.getItem(THEME_STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : null;
}

export function systemTheme(): Theme {
  return globalThis.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';
}

/** The theme shown: the remembered choice, else the system's. */
export function effectiveTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

/** Shows and remembers a choice; "system" forgets it, so the system's setting shows again. */
export function chooseTheme(choice: ThemeChoice): void {
  if (choice === 'system') {
    globalThis.localStorage?.removeItem(THEME_STORAGE_KEY);
    applyTheme(null);
    return;
  }
  globalThis.localStorage?.setItem(THEME_STORAGE_KEY, choice);
  applyTheme(choice);
}

/** The choice to show as current: the remembered theme, else "system". */
export function currentThemeChoice(): ThemeChoice {
  return storedTheme() ?? 'system';
}

/** Puts a remembered choice on <html>; with none, the CSS follows the system by itself. */
export function applyTheme(theme: Theme | null = storedTheme()): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

/** Calls back when the system's setting changes (it matters only while nothing is remembered). */
export function onSystemThemeChange(callback: () => void): () => void {
  const query = globalThis.matchMedia?.(DARK_QUERY);
  if (!query) return () => undefined;
  query.addEventListener('change', callback);
  return () => query.removeEventListener('change', callback);
}
