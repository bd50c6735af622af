import { defineConfig, type Options } from 'tsup'
import {
  cliBundleLayout,
  commandsBundlePlugin,
  runBundlePlugin,
  TOON,
  TOON_ENTRY,
  toonBundlePlugin,
} from './tsup.cli-bundles.js'
import { pageScriptDefine } from './tsup.page-script.js'

// Optional dependencies are not external by default; node-pty must stay a runtime import of its native binary.
// The test runners are the user's, never bundled: the matchers must extend the very `expect` the tests use.
const EXTERNAL = ['node-pty', 'vitest', 'vitest/node', 'expect', '@jest/globals']

const shared: Options = {
  // `npm run build` empties dist/ first: the builds below write to it side by side, so none cleans.
  clean: false,
  target: 'node20',
  // Keep `node:tty` as written: a bare `tty` is resolved as a file by some loaders (Vite's SSR transform turned it
  // into `<root>/tty` for a project whose path happened to hash a certain way), while `node:` is unambiguous.
  removeNodeProtocol: false,
  // No source maps in the package: they name the TypeScript sources, which it does not ship, so a stack mapped
  // through them (Jest maps frames of files it transforms) pointed into files a user cannot open.
  sourcemap: false,
  splitting: true,
  external: EXTERNAL,
  // The divergence page's browser script, bundled once here and inlined by src/view/page-script.ts.
  define: pageScriptDefine(),
  // CommonJS has no import.meta.url: the builds in that format get one from tsup.import-meta-url.ts.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') {
      options.define = { ...options.define, 'import.meta.url': 'importMetaUrl' }
      options.inject = [...(options.inject ?? []), 'tsup.import-meta-url.ts']
    }
  },
}

/** The package's exports: each is built with its type declarations. */
const packageEntries = {
  index: 'src/index.ts',
  vitest: 'matchers/vitest.ts',
  jest: 'matchers/jest.ts',
  reporter: 'reporter/vitest.ts',
  'jest-reporter': 'reporter/jest.ts',
  'vitest-markdown': 'matchers/vitest-markdown.ts',
  'jest-markdown': 'matchers/jest-markdown.ts',
}

export default defineConfig([
  {
    ...shared,
    entry: {
      ...packageEntries,
      // Built for bench/ only; not in the package exports.
      'bench-internals': 'src/bench-internals.ts',
      // The front ends' surface as an entry of its own, for REA's test programs (test/fixtures/programs) that use
      // its helpers the way the reporter does; not in the package exports.
      'front-end': 'src/front-end.ts',
      // Run as its own process by REA (src/process/supervisor.ts finds it next to the bundle).
      supervisor: 'src/process/supervisor-main.ts',
      // Loaded by rea-capture/jest with the Jest worker's own loader, outside the test's sandbox (next to it).
      'jest-coverage-host': 'matchers/jest/coverage-host.ts',
    },
    format: ['esm', 'cjs'],
    dts: { entry: packageEntries },
  },
  {
    // The CLI's entry: small, so `rea --version` stays as fast as Node starts; it requires the dispatcher's bundle
    // (run.cjs) only when a command runs. CommonJS like it: no ES module is loaded by a `rea` process.
    ...shared,
    // main.js, the same entry as an ES module, keeps `node dist/cli/main.js` working for scripts written before.
    entry: { main: 'src/cli/main.ts' },
    outDir: 'dist/cli',
    format: ['cjs', 'esm'],
    splitting: false,
    sourcemap: false,
  },
  ...cliBundles(),
])

/**
 * The dispatcher and the commands: two CommonJS bundles that share one copy of the engine (tsup.cli-bundles.ts).
 * run.cjs holds `rea capture-process` and what it runs; commands.cjs the other commands, each evaluated only when it
 * runs (a literal import() becomes a lazily evaluated module), taking from run.cjs every module run.cjs holds.
 * - zod is bundled: loaded as a package, it is about 100 modules to resolve, read and link. The library keeps zod
 *   as a package: a project that links REA (a workspace) has Vite transform REA's chunks, and a chunk holding zod
 *   would cost every Vitest process a parse of a megabyte.
 * - CommonJS, required by the entry: no ES module is loaded by a `rea` process, which spares it Node's ESM loader.
 *   The ESM-only TOON encoder is built as a third CommonJS bundle, toon.cjs, required only to write TOON.
 * - Node 20 compiles the bundle in every `rea` process, so its size is start-up time: whitespace and comments are
 *   left out (a third less to read and scan), and no character beyond Latin-1 is left in (esbuild writes ASCII,
 *   escaping the rest; REA's regular expressions write such characters as escapes), so that V8 holds the text one
 *   byte per character (a single wider character, even in a comment, makes it two).
 *   Names are kept (no mangling), so that a stack trace (`REA_DEBUG=1`) still names each function, and each
 *   module's code stays under a key that names its source file (`"src/capture/run-capture.ts"() {…}`). No source
 *   maps.
 */
function cliBundles(): Options[] {
  const layout = cliBundleLayout(EXTERNAL, ['zod'])
  const cli: Options = {
    ...shared,
    outDir: 'dist/cli',
    format: ['cjs'],
    splitting: false,
    sourcemap: false,
    // The TOON encoder too: tsup would leave a dependency to Node's import(); the plugin points it at toon.cjs.
    noExternal: ['zod', TOON],
    minifyWhitespace: true,
    esbuildOptions(options, context) {
      shared.esbuildOptions?.(options, context)
      options.charset = 'ascii'
    },
  }
  return [
    {
      ...cli,
      entry: { run: 'src/cli/run.ts' },
      esbuildPlugins: [toonBundlePlugin(), runBundlePlugin(layout)],
    },
    {
      ...cli,
      entry: { commands: 'src/cli/more-commands.ts' },
      esbuildPlugins: [toonBundlePlugin(), commandsBundlePlugin(layout)],
    },
    { ...cli, entry: { toon: TOON_ENTRY } },
  ]
}
