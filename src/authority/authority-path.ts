import { createHash } from 'node:crypto'
import path from 'node:path'

/** Folder, next to the test file, that holds the authority files of its `toMatchCapture()` assertions. */
export const AUTHORITY_DIRECTORY = '__captures__'
export const AUTHORITY_EXTENSION = '.capture.json'
const MAX_SLUG_LENGTH = 100

/**
 * Where `toMatchCapture()` without an argument keeps its authority: one file per assertion, named after the
 * test and the assertion's position in it, like snapshot keys (`greets the user 1`, `greets the user 2`).
 *
 * `src/cli.test.ts`, test "prompt > greets the user", second assertion →
 * `src/__captures__/cli.test.ts/prompt › greets the user 2.capture.json`. A name that had to be changed to be
 * a safe, portable file name (or was shortened) gets a short hash of the exact name, so two names never share
 * a file.
 */
export function authorityPathFor(testPath: string, testName: string, assertion: number): string {
  const key = `${testName} ${assertion}`
  const readable = key.replaceAll(' > ', ' › ')
  let slug = readable.replace(/[^\p{L}\p{N} ._›-]/gu, '-').replace(/^[.\s]+|[.\s]+$/g, '')
  if (slug !== readable || slug.length > MAX_SLUG_LENGTH) {
    const hash = createHash('sha256').update(key).digest('hex').slice(0, 8)
    slug = `${slug.slice(0, MAX_SLUG_LENGTH)}-${hash}`
  }
  return path.join(
    path.dirname(testPath),
    AUTHORITY_DIRECTORY,
    path.basename(testPath),
    `${slug}${AUTHORITY_EXTENSION}`,
  )
}

/** An explicit authority path in a test is read relative to the test file, like `toMatchFileSnapshot`. */
export function resolveAuthorityPath(testPath: string, authority: string): string {
  return path.resolve(path.dirname(testPath), authority)
}
