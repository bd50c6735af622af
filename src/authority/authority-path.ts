import { createHash } from 'node:crypto'
import path from 'node:path'

/** Folder, next to the test file, that holds the authority files of its `toMatchCapture()` assertions. */
export const AUTHORITY_DIRECTORY = '__captures__'
export const AUTHORITY_EXTENSION = '.capture.json'
const MAX_READABLE_BYTES = 100

/**
 * Where `toMatchCapture()` without an argument keeps its authority: one file per assertion, named after the
 * test and the assertion's position in it (`greets the user 1`, `greets the user 2`), then a short hash of that
 * exact key.
 *
 * `src/cli.test.ts`, test "prompt > greets the user", second assertion →
 * `src/__captures__/cli.test.ts/prompt › greets the user 2-1f3a9c0e.capture.json`. The readable part has
 * characters that are unsafe in file names replaced and is cut to 100 UTF-8 bytes; the hash keeps names apart
 * that the readable part would merge, including names differing only in case on case-insensitive disks.
 */
export function authorityPathFor(testPath: string, testName: string, assertion: number): string {
  return path.join(
    captureFolderOf(testPath),
    `${fileNameForKey(`${testName} ${assertion}`)}${AUTHORITY_EXTENSION}`,
  )
}

/** `<dir>/__captures__/<test file name>`: the folder that holds a test file's default authorities. */
export function captureFolderOf(testPath: string): string {
  return path.join(path.dirname(testPath), AUTHORITY_DIRECTORY, path.basename(testPath))
}

/** `<readable key>-<hash8>`: a file name that stays readable, fits every disk and keeps distinct keys apart. */
export function fileNameForKey(key: string): string {
  const readable = key
    // › written as an escape: a bundle holding any character beyond Latin-1 is held two bytes per character.
    .replaceAll(' > ', ' \u203A ')
    .replace(/[^\p{L}\p{N} ._\u203A-]/gu, '-')
    .replace(/^[.\s]+|[.\s]+$/g, '')
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 8)
  return `${truncateUtf8(readable, MAX_READABLE_BYTES)}-${hash}`
}

/** At most `bytes` UTF-8 bytes, cut between code points: file names are limited in bytes (255 on Linux). */
function truncateUtf8(text: string, bytes: number): string {
  let result = ''
  let used = 0
  for (const character of text) {
    used += Buffer.byteLength(character)
    if (used > bytes) {
      break
    }
    result += character
  }
  return result
}

/** Whether a file name has the form of a default authority, `<readable key>-<hash8>.capture.json`. */
export function isDefaultAuthorityName(fileName: string): boolean {
  return DEFAULT_NAME.test(fileName)
}

const DEFAULT_NAME = /^.*-[0-9a-f]{8}\.capture\.json$/su

/**
 * Whether a default authority file name is provably the one `toMatchCapture()` of test `testName` uses for one
 * of its assertions: the assertion number is read from the name and the whole name recomputed, hash included.
 * A name whose readable part was cut proves nothing (its number was cut with it).
 */
export function isAuthorityOf(fileName: string, testName: string): boolean {
  const assertion = /^.* (?<number>[1-9]\d{0,6})-[0-9a-f]{8}\.capture\.json$/su.exec(fileName)?.groups?.[
    'number'
  ]
  return (
    assertion !== undefined &&
    `${fileNameForKey(`${testName} ${assertion}`)}${AUTHORITY_EXTENSION}` === fileName
  )
}

/** An explicit authority path in a test is read relative to the test file, like `toMatchFileSnapshot`. */
export function resolveAuthorityPath(testPath: string, authority: string): string {
  return path.resolve(path.dirname(testPath), authority)
}
