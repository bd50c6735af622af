import { defineConfig, type Options } from 'tsup'
import { COMMAND_NAMES } from './src/cli/command-text.js'

// Optional dependencies are not external by default; node-pty must stay a runtime import of its native binary.
// The test runners are the user's, never bundled: the matchers must extend the very `expect` the tests use.
// esbuild bundles the supervisor only when REA runs from its TypeScript sources; never part of the package.
const shared: Options = {
  // `npm run build` empties dist/ first: the builds below write to it side by side, so none cleans.
  clean: false,
  target: 'node20',
  // No source maps in the package: they name the TypeScript sources, which it does not ship, so a stack mapped
  // through them (Jest maps frames of files it transforms) pointed into files a user cannot open.
  sourcemap: false,
  splitting: true,
  external: ['node-pty', 'vitest', 'vitest/node', 'expect', '@jest/globals', 'esbuild'],
  // CommonJS has no import.meta.url: the builds in that format get one from tsup.import-meta-url.ts.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') {
      options.define = { ...options.define, 'import.meta.url': 'importMetaUrl' }
      options.inject = [...(options.inject ?? []), 'tsup.import-meta-url.ts']
    }
  },
}

/** The CLI's commands, each loaded by `src/cli/run.ts` only when it runs. */
const cliCommandEntries = Object.fromEntries(
  COMMAND_NAMES.map((name) => [name, `src/cli/commands/${name}.ts`]),
)

/** The package's exports: each is built with its type declarations. */
const packageEntries = {
  index: 'src/index.ts',
  vitest: 'matchers/vitest.ts',
  jest: 'matchers/jest.ts',
  reporter: 'reporter/vitest.ts',
  'jest-reporter': 'reporter/jest.ts',
}

export default defineConfig([
  {
    ...shared,
    entry: {
      ...packageEntries,
      // Built for bench/ only; not in the package exports.
      'bench-internals': 'src/bench-internals.ts',
      // Run as its own process by REA (src/process/supervisor.ts finds it next to the bundle).
      supervisor: 'src/process/supervisor-main.ts',
    },
    format: ['esm', 'cjs'],
    dts: { entry: packageEntries },
  },
  {
    // The CLI's entry, with the dispatcher (run.ts) inlined behind its dynamic import: evaluated only when a command
    // runs, so `rea --version` stays as fast as Node starts. CommonJS like the commands: no ES module is loaded by a
    // `rea` process, which spares it Node's ESM loader.
    ...shared,
    // main.js, the same entry as an ES module, keeps `node dist/cli/main.js` working for scripts written before.
    entry: { main: 'src/cli/main.ts' },
    outDir: 'dist/cli',
    format: ['cjs', 'esm'],
    splitting: false,
    sourcemap: false,
  },
  {
    // Each command is a CommonJS bundle of its own (dist/cli/<command>.cjs), which the entry compiles from a V8 code
    // cache (src/cli/load-bundle.ts). Three choices, each measured on `rea capture-process`:
    // - zod is bundled: loaded as a package, it is about 100 modules to resolve, read and link (~30 ms). The
    //   library keeps zod as a package: a project that links REA (a workspace) has Vite transform REA's chunks, and
    //   a chunk holding zod would cost every Vitest process a parse of a megabyte.
    // - No chunks shared between commands: esbuild assigns a module to a chunk by which entries import its file,
    //   and every command imports REA's one public index, so a shared chunk held every command's code (and built
    //   every schema) for each. Where copies meet in one process, REA's errors carry a brand and the supervisor is
    //   shared through a global (src/process/supervisor.ts).
    // - CommonJS, for the code cache; a script compiled from one has no module loader, so what a command would
    //   import() at run time is bundled (the ESM-only TOON encoder) or required (node-pty).
    // No source maps: each bundle repeats much of the engine, and maps of all seven doubled the package's size.
    // The bundles are not minified; each module's code follows a comment with its source path.
    ...shared,
    entry: cliCommandEntries,
    outDir: 'dist/cli',
    format: ['cjs'],
    splitting: false,
    sourcemap: false,
    noExternal: ['zod', '@toon-format/toon'],
  },
])
