import { isReaError, ReaError } from '../errors.js'
import { canonicalJsonDocument } from '../evidence/canonical-json.js'
import type { Evidence } from '../evidence/schema.js'
import { serializeEvidence } from '../evidence/serialize.js'
import { showName } from '../internal/escape-controls.js'
import { outputPathIssues, type OutputInput } from '../internal/output-path.js'
import { privateCopyPath } from '../internal/private-copy.js'
import { describeSystemError } from '../internal/system-error.js'
import { writeFileAtomicSync } from '../internal/write-file-atomic.js'
import { encodeToon, toonUnsafeOnTerminal } from './toon.js'

export const OUTPUT_FORMATS = ['toon', 'json'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/**
 * TOON is the default terminal format; @toon-format/toon is ESM-only, so it is loaded only when used. A TOON
 * document that holds a character TOON cannot escape is refused when it would go to a terminal (`toon.ts`).
 */
export async function formatDocument(
  value: unknown,
  format: OutputFormat,
  toTerminal = false,
): Promise<string> {
  switch (format) {
    case 'json':
      return canonicalJsonDocument(value)
    case 'toon': {
      const document = encodeToon(await import('@toon-format/toon'), value)
      if (document.unescapable !== null && toTerminal) {
        throw toonUnsafeOnTerminal(document.unescapable)
      }
      return document.text
    }
  }
}

/** Whether the document goes to a terminal: no --output, and stdout is one. */
export function writesToTerminal(outputPath: string | undefined): boolean {
  return outputPath === undefined && process.stdout.isTTY
}

/**
 * Refuses an `--output` that cannot work before anything runs: an empty path, a directory, a missing folder,
 * an unwritable location, or one of the command's input files under any name.
 */
export function checkOutputPath(
  outputPath: string | undefined,
  inputs: readonly OutputInput[],
  consequence: string,
): void {
  if (outputPath === undefined) {
    return
  }
  const issues = outputPathIssues(outputPath, '--output', inputs)
  if (issues.length > 0) {
    const count = `${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}`
    throw new ReaError('INVALID_ARGUMENTS', `Invalid --output (${count}); ${consequence}:`, { issues })
  }
}

/** Writes the final document to stdout, or to a file; an error names where it could not be written. */
export async function emitDocument(text: string, outputPath: string | undefined): Promise<void> {
  try {
    await writeDocument(text, outputPath)
  } catch (error) {
    throw new ReaError(
      'OUTPUT_FAILED',
      `The document could not be written to ${outputPath === undefined ? 'stdout' : showName(outputPath)} (${describeSystemError(error)}).`,
      { cause: error },
    )
  }
}

/**
 * Writes the final document to stdout, or to a file, whole or not at all (a file is replaced through a temporary
 * sibling; a FIFO or device is written directly); resolves once it is flushed. A file is written synchronously:
 * the command has nothing else to do meanwhile, and a signal that comes is handled right after.
 */
export async function writeDocument(text: string, outputPath: string | undefined): Promise<void> {
  if (outputPath !== undefined) {
    writeFileAtomicSync(outputPath, text)
    return
  }
  await new Promise<void>((resolve, reject) => {
    process.stdout.write(text, (error) => (error === null || error === undefined ? resolve() : reject(error)))
  })
}

/**
 * The command has run, so its Evidence must survive a failed final write (a full disk, a removed folder, a
 * terminal closed by SIGHUP): it is saved as canonical JSON in a private temporary file, and the error says
 * where.
 */
export function keepUndeliveredEvidence(
  evidence: Evidence,
  outputPath: string | undefined,
  failure: unknown,
): ReaError {
  const where = outputPath === undefined ? 'stdout' : showName(outputPath)
  const lost = isReaError(failure)
    ? `The capture ran, but its Evidence was not written to ${where}. ${failure.message}`
    : `The capture ran, but its Evidence could not be written to ${where} (${describeSystemError(failure)}).`
  let saved: string
  try {
    saved = privateCopyPath('capture.json')
    writeFileAtomicSync(saved, serializeEvidence(evidence))
  } catch (error) {
    return new ReaError(
      'OUTPUT_FAILED',
      `${lost} Saving it to a temporary file failed too (${describeSystemError(error)}): the Evidence is lost.`,
      { cause: failure },
    )
  }
  return new ReaError('OUTPUT_FAILED', `${lost} It was saved as JSON to ${saved}.`, {
    cause: failure,
    hint: isReaError(failure)
      ? (failure.hint ?? 'Move that file where you wanted it.')
      : 'Move that file where you wanted it once the problem is fixed.',
  })
}
