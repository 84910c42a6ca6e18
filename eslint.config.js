// One linter for the whole tree. The import rules keep the layers one-way:
// core ← catalog ← features ← app, and the Node side (cli, proxy, sandbox) never reaches into the UI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const features = ['console', 'keys', 'history', 'profiles', 'debugger', 'teaching', 'flows', 'exports'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/core',
              from: [
                './src/catalog',
                './src/features',
                './src/app',
                './src/cli',
                './src/ui',
                './proxy',
                './sandbox',
              ],
              message: 'The signing core is pure: it imports nothing above it.',
            },
            {
              target: './src/exports',
              from: ['./src/features', './src/app', './src/cli', './src/ui', './proxy', './sandbox'],
              message: 'Exports read the core and the catalog only.',
            },
            {
              target: './src/catalog',
              from: [
                './src/exports',
                './src/features',
                './src/app',
                './src/cli',
                './src/ui',
                './proxy',
                './sandbox',
              ],
              message: 'The catalog depends on the core only.',
            },
            {
              target: ['./src/core', './src/catalog', './src/exports', './src/features', './src/app'],
              from: ['./src/node'],
              message: 'src/node is Node-only (node:crypto): browser code and the pure core never import it.',
            },
            {
              target: ['./src/cli', './proxy', './sandbox'],
              from: ['./src/features', './src/app', './src/ui'],
              message: 'Node code never imports the browser UI.',
            },
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: ['./src/app', ...features.filter((o) => o !== f).map((o) => `./src/features/${o}`)],
              message: 'A feature never imports another feature or the app shell.',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
