// A user's Vitest config: the one line REA needs.
export default {
  test: {
    setupFiles: ['rea/vitest'],
    // Each capture runs real processes; give them room on a loaded CI machine.
    testTimeout: 30_000,
  },
}
