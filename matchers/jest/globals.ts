/** What REA uses of the globals Jest gives each test file. */
interface JestGlobals {
  readonly expect: { extend(matchers: object): void; getState(): unknown }
  readonly beforeEach: (fn: () => void) => void
  readonly afterEach: (fn: () => Promise<void>) => void
  readonly afterAll: (fn: () => Promise<void>) => void
}

function jestGlobals(): JestGlobals {
  const globals = globalThis as unknown as Partial<JestGlobals>
  if (
    globals.expect === undefined ||
    globals.beforeEach === undefined ||
    globals.afterEach === undefined ||
    globals.afterAll === undefined
  ) {
    throw new Error(
      'rea-capture/jest must be loaded by Jest with its globals (list it in setupFilesAfterEnv; injectGlobals must not be false).',
    )
  }
  return globals as JestGlobals
}

/** Jest's globals; importing this module throws when they are missing, before rea-capture/jest registers anything. */
export const globals = jestGlobals()

/** The running test file's path and snapshot state, as Jest's `expect` keeps them. */
export function testState(): { testPath?: string; snapshotState?: unknown } | undefined {
  return globals.expect.getState() as { testPath?: string; snapshotState?: unknown } | undefined
}
