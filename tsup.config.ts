import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'cli/main': 'src/cli/main.ts',
    vitest: 'matchers/vitest.ts',
    jest: 'matchers/jest.ts',
    reporter: 'reporter/vitest.ts',
    'jest-reporter': 'reporter/jest.ts',
    // Built for bench/ only; not in the package exports.
    'bench-internals': 'src/bench-internals.ts',
    // Run as its own process by REA (src/process/supervisor.ts finds it next to the bundle).
    supervisor: 'src/process/supervisor-main.ts',
  },
  format: ['esm', 'cjs'],
  dts: {
    entry: {
      index: 'src/index.ts',
      vitest: 'matchers/vitest.ts',
      jest: 'matchers/jest.ts',
      reporter: 'reporter/vitest.ts',
      'jest-reporter': 'reporter/jest.ts',
    },
  },
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
  shims: true,
  // Optional dependencies are not external by default; node-pty must stay a runtime import of its native binary.
  // The test runners are the user's, never bundled: the matchers must extend the very `expect` the tests use.
  // esbuild bundles the supervisor only when REA runs from its TypeScript sources; never part of the package.
  external: ['node-pty', 'vitest', 'vitest/node', 'expect', '@jest/globals', 'esbuild'],
  // zod is bundled: loaded as its package it is about 100 modules to resolve, read and link, which cost every
  // rea process (and every test worker) about 30 ms more than the same code in one of REA's chunks.
  noExternal: ['zod'],
})
