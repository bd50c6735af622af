import { defineConfig } from 'vitest/config'
import { pageScriptDefine } from './tsup.page-script.js'

export default defineConfig({
  // REA's tests run the sources: the divergence page's script is bundled as the package build bundles it.
  define: pageScriptDefine(),
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
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
