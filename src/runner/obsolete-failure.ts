import { checkObsoleteInFile, type FileObsoleteRequest } from '../authority/obsolete-in-file.js'

/**
 * The obsolete check each runner's setup entry runs when a test file ends. Without REA's reporter it is the only
 * check: it reports (a local run), removes (`-u`) or fails (CI). With the reporter, which reports and removes for
 * the whole run, it runs only where a failure is possible (no update expected): the reporter alone can only set
 * the exit code, so the test file fails here, where the runner counts it, and its summary says so.
 *
 * Returns what to print; throws the failure as an error that carries no stack frame (the frames would point into
 * REA's built files, which say nothing about the user's test).
 */
export function obsoleteCheckAtFileEnd(request: FileObsoleteRequest, withReporter: boolean): string | null {
  if (withReporter && request.updateMode !== 'none') {
    return null
  }
  const { failure, report } = checkObsoleteInFile(request)
  if (failure !== null) {
    throw obsoleteAuthoritiesError(failure)
  }
  return withReporter ? null : report
}

/** An error whose stack is its message alone: what the runner shows is the message, not REA's internals. */
export function obsoleteAuthoritiesError(message: string): Error {
  const error = new Error(message)
  error.name = 'ObsoleteAuthorities'
  error.stack = `${error.name}: ${message}`
  return error
}
