// ESLint flat config. Kept in .config/ because the client fixed the top level of the repository;
// `npm run lint` and .vscode/settings.json point ESLint here.
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The top of the import graph: command handlers and the files that put the extension together. */
const TOP = ['src/commands/**', 'src/extension.ts', 'src/features.ts', 'src/testApi.ts'];
const NO_COMMANDS = {
  group: ['**/commands', '**/commands/*'],
  message: 'Only the top (src/commands, extension.ts, features.ts, testApi.ts) imports src/commands: shared vocabulary lives in src/model, errors in src/ui.',
};
const NO_VSCODE = {
  name: 'vscode',
  message: 'The plain-logic folders (src/api, src/model but recordUri.ts, src/schema, src/records, src/grid, src/import, src/tools, src/shared), lifecycle.ts, ui/failures.ts, webviews/messages.ts and the panels never import vscode.',
};
/** `import('../commands/…')`: the dynamic import no-restricted-imports does not see. esquery's regex takes no `/`: \x2F is one. */
const NO_DYNAMIC_COMMANDS = {
  selector: 'ImportExpression[source.value=/(^|\\x2F)commands(\\x2F|$)/]',
  message: NO_COMMANDS.message,
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', '.vscode-test/**', 'test-results/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },
  {
    // Type-checked: a promise is awaited, returned, or marked `void` with a comment saying why it may run
    // on its own; a function returning a promise is never handed to something that ignores it.
    files: ['src/**/*.ts', 'webview-ui/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: fileURLToPath(new URL('..', import.meta.url)) } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  // Every import arrow runs downhill. The top (commands, and the files that put the extension together)
  // may import anything; below it, shared vocabulary comes from src/model and src/ui, never src/commands.
  // In a flat config the last block matching a file sets a rule's options, so each block lists them all.
  {
    files: ['src/**/*.ts'],
    ignores: TOP,
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_COMMANDS] }],
      'no-restricted-syntax': ['error', NO_DYNAMIC_COMMANDS],
    },
  },
  {
    // The plain logic stays testable in plain node: the portal client, the record address, the schema, the
    // record store, the grid's and the import's logic, the agent tools' logic, the lifecycle, the error boundary.
    files: [
      'src/api/**/*.ts',
      'src/model/**/*.ts',
      'src/schema/**/*.ts',
      'src/records/**/*.ts',
      'src/grid/**/*.ts',
      'src/import/**/*.ts',
      'src/tools/**/*.ts',
      'src/lifecycle.ts',
      'src/ui/failures.ts',
      'src/webviews/messages.ts',
    ],
    ignores: ['src/model/recordUri.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_VSCODE], patterns: [NO_COMMANDS] }] },
  },
  {
    // The panels run in a browser sandbox.
    files: ['webview-ui/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_VSCODE], patterns: [NO_COMMANDS, { group: ['node:*', 'fs', 'path', 'crypto', 'http', 'https'], message: 'The panels run in a browser.' }] }],
    },
  },
  {
    // Integration tests run beside the extension in its host: a value import from src/ would bundle a
    // second copy of the extension's modules, with its own state. Reach it through its test API.
    files: ['test/integration/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/**', '**/src'], allowTypeImports: true, message: 'Integration tests import only types from src/; use the test API (support/extension.ts).' }] },
      ],
    },
  },
  {
    // Node scripts and tests may print.
    files: ['test/**/*.{ts,mjs}', 'esbuild.mjs'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.mjs'], // node scripts: the harness, the test runner, the build
    languageOptions: { globals: globals.node },
  },
);
