import { parseProjectOptions, type ProjectOptions } from '../src/front-end.js'

/**
 * The project's options, set once with `configureRea` in a setup file. Kept on the global object of the test's
 * realm, not in a module: a runner may load `rea/vitest` twice for one test file (once as a setup entry, once from
 * the user's setup file), and both must see the same options.
 */
const KEY = Symbol.for('rea.project-options')

type Holder = Partial<Record<typeof KEY, ProjectOptions>>

export function projectOptions(): ProjectOptions {
  return (globalThis as Holder)[KEY] ?? {}
}

/**
 * Sets, for the whole project, the options every `toMatchCapture` and `toSatisfyTrace` uses unless an assertion
 * gives its own (`timing`), and the test environment of the `captureProcess` captures (`environment`, entries
 * added to it or replacing its own; `inheritEnvironment`, `true` or names of its entries to inherit instead).
 * Call it in a setup file; options it does not name keep their values. Invalid options throw, naming each one, so
 * the setup file fails instead of every test.
 *
 * @example
 * // rea.setup.ts, listed in setupFiles (Vitest) or setupFilesAfterEnv (Jest) after rea/vitest or rea/jest
 * import { configureRea } from 'rea/vitest'
 * configureRea({ timing: 'strict', environment: { TZ: 'Europe/Berlin' }, inheritEnvironment: ['VSCODE_*'] })
 */
export function configureRea(options: ProjectOptions): void {
  const parsed = parseProjectOptions(options, 'configureRea')
  ;(globalThis as Holder)[KEY] = { ...projectOptions(), ...parsed }
}
