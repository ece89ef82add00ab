// ESLint flat config. Kept in .config/ because the client fixed the top level of the repository;
// `npm run lint` and .vscode/settings.json point ESLint here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    // The portal client must stay testable in plain node.
    files: ['src/api/**/*.ts', 'src/shared/**/*.ts', 'src/schema/**/*.ts', 'src/tools/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/api, src/shared, src/schema and src/tools never import vscode.' }] }],
    },
  },
  {
    // The panels run in a browser sandbox.
    files: ['webview-ui/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['vscode'], patterns: ['node:*', 'fs', 'path', 'crypto', 'http', 'https'] }],
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
