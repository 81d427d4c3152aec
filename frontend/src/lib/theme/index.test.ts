// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';

import { applyTheme, chooseTheme, effectiveTheme, storedTheme, THEME_STORAGE_KEY } from '.';

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('theme', () => {
  it('remembers a choice and shows it on <html>; without one, nothing is forced', () => {
    applyTheme();
    expect(document.documentElement.dataset.theme).toBeUndefined();
    chooseTheme('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(effectiveTheme()).toBe('dark');
    chooseTheme('light');
    expect(effectiveTheme()).toBe('light');
    chooseTheme('system');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('ignores a stored value that is not a theme', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(storedTheme()).toBeNull();
  });
});
