import { isReaError, type ReaError } from '../../src/errors.js'

/** The ReaError `run` throws; fails the test when it returns or throws anything else. */
export function rejection(run: () => unknown): ReaError {
  let thrown: unknown
  try {
    run()
  } catch (error) {
    thrown = error
  }
  if (!isReaError(thrown)) {
    throw new Error(`expected a ReaError, got ${String(thrown)}`)
  }
  return thrown
}

/** The ReaError the promise `run` returns rejects with; fails the test otherwise. */
export async function asyncRejection(run: () => Promise<unknown>): Promise<ReaError> {
  let thrown: unknown
  try {
    await run()
  } catch (error) {
    thrown = error
  }
  if (!isReaError(thrown)) {
    throw new Error(`expected a ReaError, got ${String(thrown)}`)
  }
  return thrown
}
