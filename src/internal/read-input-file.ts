import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs'
import { isReaError, ReaError, type ReaErrorCode } from '../errors.js'
import { showName } from './escape-controls.js'
import { describeSystemError, systemErrorCode } from './system-error.js'

/** Scenario and trace-specification files are small documents; anything near this is a mistake. */
export const SCENARIO_FILE_MAX_BYTES = 16 * 1024 * 1024
export const TRACE_SPEC_FILE_MAX_BYTES = 16 * 1024 * 1024
/** Below V8's longest string (2^29 − 24 UTF-16 units), so the text of any accepted file can be held. */
export const EVIDENCE_FILE_MAX_BYTES = 500 * 1024 * 1024

/** What is being read: how messages name it, its error code and its size limit. */
export interface InputFileKind {
  /** Starts the message, followed by the path: "The scenario file", "Evidence file". */
  readonly label: string
  readonly code: ReaErrorCode
  readonly maxBytes: number
  /** Appended to the message, e.g. "; nothing was run". */
  readonly consequence?: string
}

// Non-blocking, so opening a FIFO cannot wait for a writer; no controlling terminal from a tty device.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY
const BOM = '\uFEFF'

/**
 * Reads a user-supplied input file as UTF-8 text. Only regular files are read: a FIFO, socket, device or
 * directory is refused by name before a byte is read, since reading one can block forever or never end.
 * A file larger than the kind's limit is refused before it is read. A leading UTF-8 byte-order mark is
 * dropped. Every failure is one `ReaError` with the kind's code naming the file and the operating system's
 * error code.
 *
 * @example
 * const text = await readInputFile('capture.json', { label: 'Evidence file', code: 'INVALID_EVIDENCE', maxBytes })
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that every failure is a rejection
export async function readInputFile(file: string, kind: InputFileKind): Promise<string> {
  // One implementation serves both: the open cannot block (O_NONBLOCK), only a bounded regular file is read,
  // and parsing the text afterwards holds the event loop far longer than reading it.
  return readInputFileSync(file, kind)
}

/** The same as {@link readInputFile}, for synchronous callers such as matchers. */
export function readInputFileSync(file: string, kind: InputFileKind): string {
  const text = readInputBytesSync(file, kind).toString('utf8')
  return text.startsWith(BOM) ? text.slice(BOM.length) : text
}

/**
 * The file's exact bytes, under the same checks: for a caller that writes the file back (`rea test --update`)
 * and must keep every byte it does not change, a byte-order mark included.
 */
export function readInputBytesSync(file: string, kind: InputFileKind): Buffer {
  let fd: number
  try {
    fd = openSync(file, OPEN_FLAGS)
  } catch (error) {
    throw openFailure(file, kind, error)
  }
  try {
    const stats = fstatSync(fd)
    refuseUnlessReadable(file, kind, stats)
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, kind.maxBytes) + 1)
    let length = 0
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null)
      if (bytesRead === 0) {
        break
      }
      length += bytesRead
      if (length === buffer.length) {
        break
      }
    }
    // One byte more than the limit is read, so a file that grew after the size check is still refused.
    if (length > kind.maxBytes) {
      throw tooLarge(file, kind, 'grew while it was read')
    }
    return buffer.subarray(0, length)
  } catch (error) {
    throw readFailure(file, kind, error)
  } finally {
    closeSync(fd)
  }
}

function refuseUnlessReadable(file: string, kind: InputFileKind, stats: Stats): void {
  if (!stats.isFile()) {
    throw problem(
      file,
      kind,
      `is ${describeFileType(stats)}, not a regular file: REA reads inputs only from regular files, because ` +
        'reading a pipe, socket or device can block forever or never end',
    )
  }
  if (stats.size > kind.maxBytes) {
    throw tooLarge(file, kind, `is ${formatCount(stats.size)} bytes`)
  }
}

function tooLarge(file: string, kind: InputFileKind, got: string): ReaError {
  return problem(
    file,
    kind,
    `${got}, over the limit of ${formatCount(kind.maxBytes)} bytes for this kind of file (docs/cli.md lists the input limits)`,
  )
}

function openFailure(file: string, kind: InputFileKind, error: unknown): ReaError {
  // Opening a socket fails with ENXIO; say what the path is rather than only that it "does not exist".
  if (systemErrorCode(error) === 'ENXIO') {
    const stats = statOrUndefined(file)
    if (stats !== undefined && !stats.isFile()) {
      return problem(
        file,
        kind,
        `is ${describeFileType(stats)}, not a regular file: REA reads inputs only from regular files`,
        error,
      )
    }
  }
  return readFailure(file, kind, error)
}

function readFailure(file: string, kind: InputFileKind, error: unknown): ReaError {
  if (isReaError(error)) {
    return error
  }
  if (systemErrorCode(error) === undefined) {
    // Not an operating-system error: a bug, which must not be disguised as bad input.
    return new ReaError('INTERNAL', `${kind.label} ${showName(file)} could not be read: ${String(error)}`, {
      cause: error,
    })
  }
  const [code, description] = describeSystemError(error).split(': ')
  return problem(
    file,
    kind,
    `could not be read (${code})${description === undefined ? '' : `: ${description}`}`,
    error,
  )
}

function problem(file: string, kind: InputFileKind, what: string, cause?: unknown): ReaError {
  return new ReaError(kind.code, `${kind.label} ${showName(file)} ${what}${kind.consequence ?? ''}.`, {
    ...(cause === undefined ? {} : { cause }),
  })
}

function describeFileType(stats: Stats): string {
  if (stats.isDirectory()) {
    return 'a directory'
  }
  if (stats.isFIFO()) {
    return 'a FIFO (named pipe)'
  }
  if (stats.isSocket()) {
    return 'a socket'
  }
  if (stats.isCharacterDevice()) {
    return 'a character device'
  }
  if (stats.isBlockDevice()) {
    return 'a block device'
  }
  return stats.isFile() ? 'a regular file' : 'not a file REA knows'
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file)
  } catch {
    // Only used to name what the path is; the open error is reported either way.
    return undefined
  }
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US')
}
