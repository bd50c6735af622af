import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { pageScriptDefine } from './tsup.page-script.js'
import LongestFirstSequencer from './test/helpers/longest-first-sequencer.js'

export default defineConfig({
  // REA's tests run the sources: the divergence page's script is bundled as the package build bundles it.
  define: pageScriptDefine(),
  test: {
    // Most of an integration file's time is spent waiting on real programs (a prompt, a nested runner, Chromium),
    // and every check waits for a condition, not a time, so files run side by side even where cores are few.
    // Vitest's own default, one worker fewer than the cores, runs one file at a time on a 2-core machine.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // The unit files share their worker's process and modules instead of importing REA anew, file by file:
          // the project took 25 s and 48 CPU-s isolated, 8 s and 15 CPU-s shared. A test leaves no global changed.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Shared as the unit files are: Vitest's imports for the whole suite went from 54 s to 16 s. The
          // setup file still runs for every file, so each test is checked for processes it left behind.
          isolate: false,
          setupFiles: ['test/helpers/leak-check-setup.ts'],
          globalSetup: ['test/helpers/leak-check-global.ts'],
          // Real PTYs on a loaded 2-core machine: generous bounds, conditions instead of sleeps inside tests.
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'smoke',
          include: ['test/smoke/**/*.test.ts'],
          setupFiles: ['test/helpers/leak-check-setup.ts'],
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'types',
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ['test/types/**/*.test-d.ts'],
            tsconfig: './tsconfig.json',
          },
        },
      },
    ],
  },
})
