import { formatReaError, isReaError, ReaError } from '../errors.js'
import type { Evidence } from './schema.js'

/**
 * Both sides of a comparison, loaded together so that one run reports the problems of both: two REA errors
 * become one whose text holds both paragraphs; anything else is rethrown as it is.
 */
export async function settleEvidencePair(
  authority: Promise<Evidence>,
  reconstruction: Promise<Evidence>,
): Promise<[Evidence, Evidence]> {
  const [first, second] = await Promise.allSettled([authority, reconstruction])
  if (first.status === 'fulfilled' && second.status === 'fulfilled') {
    return [first.value, second.value]
  }
  const failures = [first, second].flatMap((result) =>
    result.status === 'rejected' ? [result.reason as unknown] : [],
  )
  const [one, two] = failures
  if (two === undefined || !isReaError(one) || !isReaError(two)) {
    throw one
  }
  throw new ReaError(one.code, `${formatReaError(one)}\n${formatReaError(two)}`)
}
