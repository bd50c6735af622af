import { parseMatcherOptions } from '../src/host.js'
import type { MatcherOptions } from '../src/index.js'

/**
 * The project's matcher options, set once with `configureRea` in a setup file. Kept on the global object of
 * the test's realm, not in a module: a runner may load `rea/vitest` twice for one test file (once as a setup
 * entry, once from the user's setup file), and both must see the same options.
 */
const KEY = Symbol.for('rea.project-options')

type Holder = Partial<Record<typeof KEY, MatcherOptions>>

export function projectOptions(): MatcherOptions {
  return (globalThis as Holder)[KEY] ?? {}
}

/**
 * Sets the options every `toMatchCapture` and `toSatisfyTrace` of the project uses unless an assertion gives
 * its own. Call it in a setup file; options it does not name keep their values. Invalid options throw, naming
 * each one, so the setup file fails instead of every test.
 *
 * @example
 * // rea.setup.ts, listed in setupFiles (Vitest) or setupFilesAfterEnv (Jest) after rea/vitest or rea/jest
 * import { configureRea } from 'rea/vitest'
 * configureRea({ timing: 'strict' })
 */
export function configureRea(options: MatcherOptions): void {
  const parsed = parseMatcherOptions(options, 'configureRea')
  ;(globalThis as Holder)[KEY] = { ...projectOptions(), ...parsed }
}
