// Builds every bundle of the project with esbuild.
//
//   node esbuild.mjs                  extension + webviews (dev: source maps) + tests and emulator into out/
//   node esbuild.mjs --production     extension + webviews only, minified, no source maps (what the .vsix ships)
//   node esbuild.mjs --watch          rebuild on change; errors in the form of .vscode/tasks.json's problem matcher
//   node esbuild.mjs --only <names>   a comma-separated subset of: extension, webview, tests, emulator
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';

const args = process.argv.slice(2);
const production = args.includes('--production');
const watch = args.includes('--watch');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1].split(',')) : undefined;

/** Every file under `dir` whose name passes `test`, as posix paths relative to the repository. */
function filesUnder(dir, test) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesUnder(path, test));
    else if (test(name)) found.push(relative('.', path).split(sep).join('/'));
  }
  return found;
}

/** Reports each build in the format the background problem matcher of .vscode/tasks.json reads. */
const problemMatcherPlugin = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of [...result.errors, ...result.warnings]) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

/**
 * `import * as vscode from 'vscode'` in each of ~60 modules would make esbuild copy every property of the
 * API object into a namespace object per module (some 400 getters each, 20k in all, a good part of the
 * activation time). Routed through one in-bundle module that re-exports it, the copy is made once. That
 * module takes the API with `require` (the banner's, see below): the extension host hands `vscode` out to
 * `require` only, an ES module `import` of it would not resolve.
 */
const oneVscodeNamespace = {
  name: 'one-vscode-namespace',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => {
      if (args.namespace === 'vscode-api') return { path: 'vscode', external: true };
      if (args.namespace === 'vscode-namespace') return { path: 'vscode', namespace: 'vscode-api' };
      return { path: 'vscode', namespace: 'vscode-namespace' };
    });
    build.onLoad({ filter: /.*/, namespace: 'vscode-namespace' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({ contents: "module.exports = require('vscode');", loader: 'js' }));
  },
};

/**
 * jsonc-parser's package.json does not say its modules are free of side effects, so the bundle kept the
 * tables of its formatter's whitespace strings (impl/string-intern.js: some 1,200 strings, built at load,
 * about half of the bundle's whole top-level time), which the extension never uses: it only parses. Said
 * here, esbuild drops what nothing uses.
 */
const jsoncWithoutSideEffects = {
  name: 'jsonc-without-side-effects',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'resolved') return undefined;
      if (args.path !== 'jsonc-parser' && !/[\\/]node_modules[\\/]jsonc-parser[\\/]/.test(args.importer)) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolved',
      });
      return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * esbuild puts the modules activation loads into one chunk per set of entry points (the entry and each
 * import() target) that reach them: 19 files, 84 KB, before this plugin. The extension host resolves, reads, compiles
 * and links each file on its own, about 0.3 ms apiece, more than compiling their code. So every import()
 * target imports, through this plugin, each module of activation (`activation` names them, from a first
 * pass: activationGraph below): they are then reached by the same entry points, and share one chunk.
 */
function oneActivationChunk({ activation, lazyTargets }) {
  return {
    name: 'one-activation-chunk',
    setup(build) {
      build.onResolve({ filter: /^activation-graph$/ }, () => ({ path: 'activation-graph', namespace: 'activation-graph' }));
      build.onLoad({ filter: /.*/, namespace: 'activation-graph' }, () => ({
        contents: activation.map((path) => `import ${JSON.stringify(path)};`).join('\n'),
        resolveDir: process.cwd(),
        loader: 'js',
      }));
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!lazyTargets.has(args.path)) return undefined;
        // Last, so that the source map's lines stay the file's: an import is hoisted wherever it stands.
        return { contents: `${await readFile(args.path, 'utf8')}\nimport 'activation-graph';\n`, loader: 'ts' };
      });
    },
  };
}

/** The modules the entry imports statically (directly or not), and the import() targets of the whole build. */
async function activationGraph(options) {
  const { metafile } = await esbuild.build({ ...options, write: false, metafile: true });
  const inputs = metafile.inputs;
  const reached = new Set();
  const walk = (path) => {
    if (reached.has(path) || !inputs[path]) return;
    reached.add(path);
    for (const edge of inputs[path].imports) if (edge.kind === 'import-statement' && !edge.external) walk(edge.path);
  };
  const entry = Object.keys(inputs).find((path) => path.endsWith(options.entryPoints.extension));
  walk(entry);
  // The entry itself stays in its own file: nothing imports it.
  reached.delete(entry);
  const lazyTargets = new Set(
    Object.values(inputs).flatMap((input) =>
      input.imports.filter((edge) => edge.kind === 'dynamic-import').map((edge) => resolve(edge.path)),
    ),
  );
  const activation = [...reached].flatMap((path) => {
    if (path === 'vscode-namespace:vscode') return ['vscode'];
    return path.includes(':') ? [] : [`./${path}`];
  });
  return { activation, lazyTargets };
}

/** The extension's ES build with oneActivationChunk, from a first pass over the same options. */
async function withOneActivationChunk(options) {
  const graph = await activationGraph(options);
  return { ...options, plugins: [...options.plugins, oneActivationChunk(graph)] };
}

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'silent',
  plugins: [problemMatcherPlugin],
};

const targets = {
  // The extension in two steps, so that activation reads and compiles only what it runs: ES modules with
  // code splitting (dist/esm/: the entry and what activate() uses; src/features.ts and the rest
  // in chunks loaded by import() on first use, the modules they share in chunks of their own, so each
  // module's state exists once), behind dist/extension.js, package.json's "main", a CommonJS entry that
  // imports the ES entry when VS Code activates the extension.
  extension: async () => [
    await withOneActivationChunk({
      ...common,
      entryPoints: { extension: 'src/extension.ts' },
      outdir: 'dist/esm',
      outExtension: { '.js': '.mjs' },
      format: 'esm',
      splitting: true,
      chunkNames: '[name]-[hash]',
      platform: 'node',
      target: 'node20',
      external: ['vscode'],
      // ES modules first: a UMD main (jsonc-parser's) requires its parts at run time, out of the bundle's sight.
      mainFields: ['module', 'main'],
      metafile: true,
      // Messages with "…" and "’" as they are, not as \u escapes (six bytes for three).
      charset: 'utf8',
      // `require` for what still needs it in an ES module: the vscode API (see oneVscodeNamespace).
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      plugins: [...common.plugins, oneVscodeNamespace, jsoncWithoutSideEffects],
    }),
    {
      ...common,
      stdin: {
        contents: [
          "const { pathToFileURL } = require('node:url');",
          "const { join } = require('node:path');",
          'let main;',
          "exports.activate = async (context) => (main ??= await import(pathToFileURL(join(__dirname, 'esm', 'extension.mjs')).href)).activate(context);",
          'exports.deactivate = () => main?.deactivate();',
        ].join('\n'),
        resolveDir: '.',
        sourcefile: 'extension-entry.js',
      },
      outfile: 'dist/extension.js',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
    },
  ],
  webview: () => {
    // One bundle per panel: webview-ui/<panel>/main.ts -> dist/webview/<panel>.js (and .css when it imports css).
    const entryPoints = Object.fromEntries(
      readdirSync('webview-ui')
        .filter((name) => existsSync(join('webview-ui', name, 'main.ts')))
        .map((name) => [name, `webview-ui/${name}/main.ts`]),
    );
    if (Object.keys(entryPoints).length === 0) return undefined;
    return {
      ...common,
      entryPoints,
      outdir: 'dist/webview',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      loader: { '.ttf': 'file', '.woff2': 'file' },
    };
  },
  // Tests and the emulator run from out/ in plain node (or in the extension host, for integration tests).
  // Dependencies stay in node_modules; only our own sources are bundled.
  tests: () => {
    const entryPoints = [
      ...filesUnder('test/unit', (n) => n.endsWith('.test.ts')),
      ...filesUnder('test/webview', (n) => n.endsWith('.test.ts')),
      ...filesUnder('test/integration', (n) => n.endsWith('.test.ts') || n === 'index.ts'),
      ...filesUnder('test/journeys', (n) => n.endsWith('.test.ts')),
      ...filesUnder('test/bench', (n) => n.endsWith('.bench.ts') || n.endsWith('.profile.ts')),
    ];
    if (entryPoints.length === 0) return undefined;
    return { ...common, entryPoints, outbase: '.', outdir: 'out', platform: 'node', format: 'cjs', target: 'node20', packages: 'external' };
  },
  emulator: () =>
    existsSync('test/emulator/main.ts')
      ? {
          ...common,
          entryPoints: ['test/emulator/main.ts'],
          outbase: '.',
          outdir: 'out',
          platform: 'node',
          format: 'cjs',
          target: 'node20',
          packages: 'external',
        }
      : undefined,
};

const chosen = Object.keys(targets).filter((name) => {
  if (only) return only.has(name);
  return production ? name === 'extension' || name === 'webview' : true;
});

const options = (await Promise.all(chosen.map((name) => targets[name]()))).flat().filter(Boolean);
// Chunk names carry a hash of their content: the chunks of an earlier build would stay beside the new ones.
if (chosen.includes('extension')) rmSync('dist/esm', { recursive: true, force: true });

if (watch) {
  for (const option of options) {
    const context = await esbuild.context(option);
    await context.watch();
  }
} else {
  const results = await Promise.allSettled(options.map((option) => esbuild.build(option)));
  const failed = results.filter((result) => result.status === 'rejected');
  if (failed.length > 0) process.exit(1);
}
