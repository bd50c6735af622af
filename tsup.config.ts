import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'cli/main': 'src/cli/main.ts',
    // Built for bench/ only; not in the package exports.
    'bench-internals': 'src/bench-internals.ts',
  },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  target: 'node20',
  sourcemap: true,
  splitting: true,
  shims: true,
  // Optional dependencies are not external by default; node-pty must stay a runtime import of its native binary.
  external: ['node-pty'],
})
