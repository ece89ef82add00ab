// ESLint flat config. Kept in .config/ because the client fixed the top level of the repository;
// `npm run lint` and .vscode/settings.json point ESLint here.
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The floors of src/, lowest first: a file imports from its own floor and those below, never from above
 * (src/README.md, "Floors"). `folders` are folders below src/ (a feature's sub-folder, `grid/model`, is
 * one), `files` files below it (without .ts): a feature's protocol sits at the root of its folder.
 */
/** The features' protocols (types and valibot schemas) and what both of their sides share, beside their folders. */
const PROTOCOLS = ['grid/protocol', 'grid/messages', 'grid/values', 'board/protocol', 'board/messages'];
const FLOORS = [
  { what: 'the ground floor', folders: ['api', 'model', 'settings'], files: ['lifecycle', 'ids', 'log'] },
  {
    what: 'the plain logic',
    folders: [
      'shared',
      'schema',
      'records',
      'grid/model',
      'board/model',
      'import',
      'tools',
      'workspaceFile',
      'watch',
      'references',
      'work',
      'history',
    ],
    files: PROTOCOLS,
  },
  { what: 'the prompter and the error boundary', folders: ['ui'] },
  { what: 'the connections', folders: ['auth'] },
  { what: 'the shared stores', folders: ['catalog'] },
  {
    what: 'the features',
    folders: [
      'tree',
      'fs',
      'webviews',
      'grid/host',
      'board/host',
      'comments',
      'attachments',
      'webhooks',
      'help',
      'watched',
      'codeLinks',
      'codeWork',
      'recordHistory',
    ],
  },
  {
    what: 'the top',
    folders: ['commands'],
    files: ['extension', 'features', 'testApi', 'lazy', 'lazyProviders', 'lazyTools', 'agentTools'],
  },
];
/** How deep below a floor's folder a file may sit (src/webviews/viewQuery/x.ts is 2 below webviews). */
const DEPTHS = [1, 2, 3];

/**
 * The blocks that keep each floor's imports downhill, static and dynamic (`import('../commands/…')`, which
 * no-restricted-imports does not see). A specifier is matched with exactly the relative path from the
 * file's folder to each folder and file above, so that a folder's own file (api/attachments.ts) is not
 * taken for a floor's folder, and grid/model/ cannot reach its sibling grid/host/ with `../host`.
 */
function downhill() {
  const blocks = [];
  FLOORS.slice(0, -1).forEach((floor, index) => {
    const above = FLOORS.slice(index + 1).flatMap((higher) => [...higher.folders, ...(higher.files ?? [])]);
    const message = `Downhill only: ${floor.what} (src/: ${[...floor.folders, ...(floor.files ?? [])].join(', ')}) imports nothing from above it (${above.join(', ')}). See src/README.md, "Floors".`;
    /** `files` (globs) sit in `folder` (below src/); what they may not import, from there. */
    const block = (files, folder) => {
      const paths = above.map((entry) => {
        const path = posix.relative(posix.join('src', folder), posix.join('src', entry));
        return path.startsWith('..') ? path : `./${path}`;
      });
      // esquery's regex takes no `/`: \x2F is one.
      const specifier = (slash) => `^(${paths.map((path) => path.replaceAll('.', '\\.').replaceAll('/', slash)).join('|')})(${slash}|$)`;
      return {
        files,
        rules: {
          'no-restricted-imports': ['error', { patterns: [{ regex: specifier('/'), message }] }],
          'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${specifier('\\x2F')}/]`, message }],
        },
      };
    };
    for (const folder of floor.folders)
      for (const depth of DEPTHS)
        blocks.push(block([`src/${folder}/${'*/'.repeat(depth - 1)}*.ts`], posix.join(folder, ...Array(depth - 1).fill('x'))));
    for (const file of floor.files ?? []) blocks.push(block([`src/${file}.ts`], posix.dirname(file)));
  });
  return blocks;
}

const NO_VSCODE = {
  name: 'vscode',
  message:
    "The plain logic (src/api, src/model but recordUri.ts, src/shared, src/schema, src/records, src/grid/model, src/board/model, the grid's and the board's protocol, src/import, src/tools, src/workspaceFile, src/watch, src/references, src/work, src/history), lifecycle.ts, ui/failures.ts, webviews/messages.ts and the panels never import vscode.",
};
const BROWSER_ONLY = { group: ['node:*', 'fs', 'path', 'crypto', 'http', 'https'], message: 'The panels run in a browser.' };

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
  // Every import arrow runs downhill. What may not import vscode (or node) is typescript-eslint's twin
  // of the rule, so that its options and the floors' never override each other.
  ...downhill(),
  {
    // The plain logic stays testable in plain node.
    files: [
      'src/api/**/*.ts',
      'src/model/**/*.ts',
      'src/schema/**/*.ts',
      'src/records/**/*.ts',
      'src/grid/model/**/*.ts',
      'src/board/model/**/*.ts',
      'src/import/**/*.ts',
      'src/tools/**/*.ts',
      'src/workspaceFile/**/*.ts',
      'src/watch/**/*.ts',
      'src/references/**/*.ts',
      'src/work/**/*.ts',
      'src/history/**/*.ts',
      'src/lifecycle.ts',
      'src/ui/failures.ts',
      'src/webviews/messages.ts',
    ],
    ignores: ['src/model/recordUri.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [NO_VSCODE] }] },
  },
  {
    // The panels' protocol runs in their browser sandbox too.
    files: ['src/shared/**/*.ts', ...PROTOCOLS.map((file) => `src/${file}.ts`)],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [NO_VSCODE], patterns: [BROWSER_ONLY] }] },
  },
  {
    // The panels run in a browser sandbox, on the portal client's plain logic and their protocol.
    files: ['webview-ui/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [NO_VSCODE],
          patterns: [
            BROWSER_ONLY,
            {
              regex: `(^|/)src/(?!(api|shared)/|(${PROTOCOLS.join('|')})$)`,
              message: `The panels import from src/ only the portal client (api/) and their protocol (shared/, ${PROTOCOLS.map((file) => `${file}.ts`).join(', ')}).`,
            },
          ],
        },
      ],
    },
  },
  {
    // Integration tests run beside the extension in its host: a value import from src/ would bundle a
    // second copy of the extension's modules, with its own state. Reach it through its test API.
    files: ['test/integration/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', '**/src'],
              allowTypeImports: true,
              message: 'Integration tests import only types from src/; use the test API (support/extension.ts).',
            },
          ],
        },
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
