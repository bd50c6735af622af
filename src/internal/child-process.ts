import type * as ChildProcessModule from 'node:child_process'
import { createRequire } from 'node:module'

let loaded: typeof ChildProcessModule | undefined

/**
 * Node's child_process module, loaded on first use. A capture on Linux starts no process through it (REA's addon
 * starts both the command and the supervisor's waiter), and loading it costs the CLI's start-up about 4 ms; the
 * modules that need it in other cases (the Node.js supervisor, stty for the recorder, the macOS helper) take it
 * from here.
 */
export function childProcess(): typeof ChildProcessModule {
  loaded ??= createRequire(import.meta.url)('node:child_process') as typeof ChildProcessModule
  return loaded
}
