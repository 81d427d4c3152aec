import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Feature boundaries (bulletproof-react's rule): a feature uses another only through the other's
 * `features/<name>/index.ts`; what several features share lives in src/components or src/lib.
 * A feature's pages have their own entry, `features/<name>/routes/index.ts`, which only the app
 * imports: pages use other features, so a feature importing pages would close import circles
 * (`npm run lint` runs madge to refuse any). Inside a feature, relative imports may not climb out
 * of it either. One block per feature, because a flat config's later block replaces an earlier
 * block's options for the same rule.
 */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function featureBoundaries(feature) {
  return {
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/features/(?!${feature}/)[^/]+/routes(/|$)`,
              message: `Only the app composes pages: use the other feature's hooks and components from '@/features/<name>'.`,
            },
            {
              // Stylesheets too: styles several features share live in src/styles.css.
              regex: `^@/features/(?!${feature}/)[^/]+/(?!routes(/|$))`,
              message: `Import another feature through its index ('@/features/<name>'), or move the shared piece to src/components, src/lib or src/styles.css.`,
            },
            {
              regex: `^(\\.\\./)+(features|${FEATURES.filter((other) => other !== feature).join('|')})(/|$)`,
              message: `Import another feature through '@/features/<name>', not by a relative path.`,
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    plugins: {
      'react-hooks': reactHooks,
      'react-refresh': reactRefresh,
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  ...FEATURES.map(featureBoundaries),
  {
    // The app (router, layout, providers) sits above the features and uses each only through its
    // index, and the router its pages through '@/features/<name>/routes'.
    files: ['src/app/**/*.{ts,tsx}', 'src/main.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@/features/[^/]+/(?!routes$)',
              message: `The app imports a feature through its index ('@/features/<name>') or its pages through '@/features/<name>/routes'; export what it needs there.`,
            },
            {
              regex: '^(\\./|(\\.\\./)+)features/',
              message: `The app imports a feature through '@/features/<name>', not by a relative path.`,
            },
          ],
        },
      ],
    },
  },
  {
    // The shared layer sits below the features: it may not depend on any of them.
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@/features/', message: 'src/components and src/lib may not import a feature.' }] },
      ],
    },
  },
);
