import { parseProjectOptions, type ProjectOptions, updateProjectOptions } from '../src/front-end.js'

/**
 * Sets, for the whole project, the options every `toMatchCapture` and `toSatisfyTrace` uses unless an assertion
 * gives its own (`timing`), and the test environment of the `captureProcess` captures (`environment`, entries
 * added to it or replacing its own; `inheritEnvironment`, `true` or names of its entries to inherit instead).
 * Call it in a setup file; options it does not name keep their values. Invalid options throw, naming each one, so
 * the setup file fails instead of every test.
 *
 * @example
 * // rea.setup.ts, listed in setupFiles (Vitest) or setupFilesAfterEnv (Jest) after rea-capture/vitest or rea-capture/jest
 * import { configureRea } from 'rea-capture/vitest'
 * configureRea({ timing: 'strict', environment: { TZ: 'Europe/Berlin' }, inheritEnvironment: ['VSCODE_*'] })
 */
export function configureRea(options: ProjectOptions): void {
  updateProjectOptions(parseProjectOptions(options, 'configureRea'))
}
