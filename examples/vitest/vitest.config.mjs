// A user's Vitest config: the one line REA needs, and its reporter for CI (rea-report/ after each run).
export default {
  test: {
    setupFiles: ['rea-capture/vitest'],
    reporters: ['default', 'rea-capture/reporter'],
    // Each capture runs real processes; give them room on a loaded CI machine.
    testTimeout: 30_000,
  },
}
