import { createRequire } from 'node:module'
import path from 'node:path'
import { defineConfig, type Options } from 'tsup'

// Optional dependencies are not external by default; node-pty must stay a runtime import of its native binary.
// The test runners are the user's, never bundled: the matchers must extend the very `expect` the tests use.
// esbuild bundles the supervisor only when REA runs from its TypeScript sources; never part of the package.
const shared: Options = {
  // `npm run build` empties dist/ first: the two builds below write to it side by side, so neither cleans.
  clean: false,
  target: 'node20',
  sourcemap: true,
  splitting: true,
  shims: true,
  external: ['node-pty', 'vitest', 'vitest/node', 'expect', '@jest/globals', 'esbuild'],
}

/**
 * zod re-exports all of its ~60 message locales as `locales`, and esbuild keeps every one of them in a bundle
 * that uses `z` (about 400 KB of the CLI's 1 MB chunk, compiled by every rea process). REA reports errors in
 * English only and never picks a locale, so the CLI's bundle gets a `locales` that holds just `en`, the one zod
 * configures by default.
 */
const englishZodLocalesOnly: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'english-zod-locales-only',
  setup(build) {
    const localesFolder = path.dirname(createRequire(import.meta.url).resolve('zod/v4/locales/en.js'))
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: 'zod-locales', namespace: 'english-zod-locales-only' }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'english-zod-locales-only' }, () => ({
      contents: "export { default as en } from './en.js'",
      resolveDir: localesFolder,
      loader: 'js',
    }))
  },
}

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
    // The CLI is built on its own into dist/cli/, with zod bundled into its chunks: loaded as a package, zod is
    // about 100 modules to resolve, read and link, which cost every rea process about 30 ms more. The library
    // keeps zod as a package: a project that links REA (a workspace) has Vite transform REA's chunks, and a
    // chunk holding zod would cost every Vitest process a parse of a megabyte.
    ...shared,
    entry: { main: 'src/cli/main.ts' },
    outDir: 'dist/cli',
    format: ['esm'],
    noExternal: ['zod'],
    esbuildPlugins: [englishZodLocalesOnly],
  },
])
