// One linter for the whole tree. The import rules keep the layers one-way (docs/architecture.md):
// core ← catalog ← capture ← model, diagnose ← exports ← browser ← ui ← features ← app, and the
// Node side (cli, proxy, sandbox, classroom, src/node) never reaching into the UI.
// Paths are checked by import-x/no-restricted-paths, packages by no-restricted-imports; both must bite,
// and test/lint/zones.test.ts proves that each zone does.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Read from the directory so a new feature is fenced in the day it is created.
const features = fs
  .readdirSync(path.join(import.meta.dirname, 'src/features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// Package groups (gitignore-style patterns, as no-restricted-imports reads them).
const REACT = ['react', 'react/*', 'react-*', 'react-*/*', '@tanstack/*', 'monaco-editor', 'monaco-editor/*'];
// A regular expression, not gitignore patterns: the pattern `console` would also match
// `../features/console/index.ts`.
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const BUILTINS = builtinModules.filter((m) => !m.startsWith('_')).map(escape);
const NODE = `^(node:.*|(${BUILTINS.join('|')})(/.*)?)$`;

/** no-restricted-imports for one folder: the groups it may not import, each with what to do instead. */
const packages = (...groups) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: groups.map(([group, message]) =>
        typeof group === 'string' ? { regex: group, message } : { group, message },
      ),
    },
  ],
});
const noForge = (where) => [
  ['node-forge', 'node-forge/*'],
  `${where}: node-forge is the PEM and ASN.1 reader of src/core/keys only. Call a function of src/core/keys instead.`,
];
const noSqlite = (where) => [
  ['better-sqlite3', 'better-sqlite3/*'],
  `${where} runs in the browser: the database is the sandbox’s. Ask the server over HTTP.`,
];
const noUi = (where) => [
  REACT,
  `${where} has no UI: React, TanStack and Monaco belong in src/features, src/app or src/ui.`,
];
const noNode = (where) => [
  NODE,
  `${where} runs in the browser too: no Node built-ins. Take the capability as a parameter (a port, like CryptoPort) and implement it in src/node or the Node entry point.`,
];

/**
 * The longest function in src/features, blank lines and comments left out (issue 29 §1): the
 * classroom's trainer page since the workbench became a view of its session.
 */
export const FEATURE_FUNCTION_LINES = 234;

const src = (...dirs) => dirs.map((d) => `./src/${d}`);
const BROWSER_UI = src('features', 'app', 'ui');
const NODE_SIDE = ['./proxy', './sandbox', './classroom', ...src('cli', 'node')];
// Browser code not already fenced off the servers by its own layer's zone (core, catalog, diagnose,
// model, exports and contracts list the servers in theirs).
const BROWSER_OUTER = src('ui', 'browser', 'features', 'app', 'main.tsx');

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
              from: ['./src', './proxy', './sandbox', './classroom'],
              except: ['./core'],
              message:
                'The signing core is pure and imports only src/core. Move the code that needs this up a layer (src/catalog, src/diagnose) or pass the value in as a parameter.',
            },
            {
              target: './src/catalog',
              from: ['./src', './proxy', './sandbox', './classroom'],
              except: ['./core', './catalog'],
              message:
                'The catalog is data over the core: it imports src/core only. Put what needs more in a layer above it.',
            },
            {
              target: './src/capture',
              from: ['./src', './proxy', './sandbox', './classroom'],
              except: ['./core', './catalog', './capture'],
              message:
                'Capture parsing sits on the catalog: it imports src/core and src/catalog only. Turning a capture into a draft is the model’s job (src/model/import-draft.ts).',
            },
            {
              target: './src/diagnose',
              from: ['./src', './proxy', './sandbox', './classroom'],
              except: ['./core', './catalog', './capture', './diagnose'],
              message:
                'Diagnosis sits above the catalog and captures and imports src/core, src/catalog and src/capture only. Let the caller (a feature, the CLI) do the rest with its result.',
            },
            {
              target: './src/contracts',
              from: ['./src', './proxy', './sandbox', './classroom'],
              except: ['./catalog', './contracts'],
              message:
                'src/contracts is the servers’ wire as zod schemas: it imports zod and src/catalog only, so every server and the browser can read it.',
            },
            {
              target: './src/model',
              from: ['./src', './proxy', './sandbox', './classroom'],
              except: ['./core', './catalog', './capture', './contracts', './model'],
              message:
                'The request model is pure and framework-free: it imports src/core, src/catalog and src/capture only. Resolve anything of the page (origin, inbox, login) through a Place passed in.',
            },
            {
              target: './src/exports',
              from: [...BROWSER_UI, ...src('browser', 'cli'), './proxy', './sandbox', './classroom'],
              message:
                'Exports run in the browser and in the CLI: they read src/core, src/catalog, src/capture, src/model and src/diagnose only.',
            },
            {
              target: src('browser', 'ui'),
              from: ['./src/features', './src/app'],
              message:
                'src/browser and src/ui sit below the features: they never import a feature or the app shell. Move what both need down into them, or pass it in.',
            },
            {
              target: './src/browser',
              from: ['./src/ui'],
              message: 'Browser IO has no UI: import it from src/ui, not the other way round.',
            },
            {
              target: NODE_SIDE,
              from: [...BROWSER_UI, './src/browser'],
              message:
                'Node code never imports the browser UI or browser IO. Share the logic through src/core, src/catalog, src/diagnose or src/exports.',
            },
            {
              target: './src/node',
              from: ['./src', './proxy', './sandbox', './classroom'],
              except: ['./core', './node'],
              message: 'src/node implements the core’s ports for Node: it imports src/core only.',
            },
            {
              target: [
                ...src(
                  'core',
                  'catalog',
                  'capture',
                  'model',
                  'diagnose',
                  'exports',
                  'browser',
                  'ui',
                  'features',
                  'app',
                ),
              ],
              from: ['./src/node'],
              message:
                'src/node is Node-only and never reaches the browser bundle. Take the port (e.g. CryptoPort) as a parameter; the CLI or server passes the Node implementation.',
            },
            {
              target: './sandbox',
              from: ['./proxy', './classroom'],
              message:
                'The sandbox is the gateway on its own: it never imports the proxy or the classroom. Let the server that mounts it (proxy/, classroom/) pass in what it needs.',
            },
            {
              target: './proxy',
              from: ['./classroom'],
              message:
                'The proxy sits below the classroom: the classroom mounts the proxy, never the reverse. Pass the classroom’s policy in as an option.',
            },
            {
              target: BROWSER_OUTER,
              from: ['./sandbox', './proxy', './classroom'],
              message:
                'Browser code never imports a server. Share the logic through src/core, src/catalog or src/model, or talk to the server over HTTP with a zod contract.',
            },
            {
              target: ['./src', './sandbox', './proxy', './classroom', './scripts', './bench'],
              from: ['./test', './e2e'],
              message:
                'Source never imports a test. Move the shared helper into the source tree and let the test import it.',
            },
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: ['./src/app', ...features.filter((o) => o !== f).map((o) => `./src/features/${o}`)],
              message:
                'A feature never imports another feature or the app shell. Put what both need in src/ui, src/browser or src/model, or let src/app wire them.',
            })),
          ],
        },
      ],
    },
  },
  // Package zones. Each file falls in at most one of these blocks (a later block would replace the
  // rule's options, not add to them).
  {
    files: ['src/core/**'],
    rules: packages(
      noUi('The signing core'),
      noNode('The signing core'),
      noForge('The signing core'),
      noSqlite('The signing core'),
    ),
  },
  // The one place node-forge may be imported (PKCS#1 PEM, ASN.1).
  {
    files: ['src/core/keys/**'],
    rules: packages(noUi('The signing core'), noNode('The signing core'), noSqlite('The signing core')),
  },
  // The contracts floor reads zod and the catalog, nothing else (no package but zod).
  {
    files: ['src/contracts/**'],
    rules: packages([
      '^(?!zod(/|$)|\\.)',
      'src/contracts holds the wire’s zod schemas: it imports zod and src/catalog only.',
    ]),
  },
  ...[
    ['src/catalog/**', 'The catalog'],
    ['src/capture/**', 'Capture parsing'],
    ['src/diagnose/**', 'Diagnosis'],
    ['src/model/**', 'The request model'],
    ['src/browser/**', 'Browser IO'],
    ['src/exports/**', 'Exports'],
  ].map(([files, where]) => ({
    files: [files],
    rules: packages(noUi(where), noNode(where), noForge(where), noSqlite(where)),
  })),
  {
    files: ['src/features/**', 'src/app/**', 'src/ui/**', 'src/main.tsx'],
    rules: packages(noNode('Browser code'), noForge('Browser code'), noSqlite('Browser code')),
  },
  {
    files: ['sandbox/**', 'proxy/**', 'classroom/**', 'src/cli/**', 'src/node/**'],
    rules: packages(noUi('Node code'), noForge('Node code')),
  },
  // One way to read a thrown value's message: errorText (src/core/errors.ts), not a local copy.
  {
    files: ['src/**/*.{ts,tsx}', 'proxy/**/*.ts', 'classroom/**/*.ts'],
    ignores: ['src/core/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ConditionalExpression[test.operator='instanceof'][test.right.name='Error'][consequent.property.name='message']",
          message: 'Use errorText(e) from src/core/errors.ts: one reading of a thrown value.',
        },
        {
          selector:
            "MemberExpression[property.name='message'] > TSAsExpression[typeAnnotation.typeName.name='Error']",
          message: 'Use errorText(e) from src/core/errors.ts rather than casting what was thrown.',
        },
      ],
    },
  },
  // A feature's function fits on a screen or two: state machines go to headless sessions, views are
  // split by part. The cap is the longest function today (test/lint/function-length.test.ts); lower
  // it when that one shrinks, never raise it.
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: FEATURE_FUNCTION_LINES, skipBlankLines: true, skipComments: true },
      ],
    },
  },
  // The machine is busy: an e2e test waits on the page (expect polling, waitForFunction), never a time.
  {
    files: ['e2e/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'waitForTimeout',
          message: 'Wait on the page (expect(...).toHaveText, expect.poll, waitForFunction), not a time.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
