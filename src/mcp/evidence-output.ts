import path from 'node:path'
import { type Evidence } from '../evidence/schema.js'
import { serializeEvidence } from '../evidence/serialize.js'
import { showName } from '../internal/escape-controls.js'
import { privateCopyPath } from '../internal/private-copy.js'
import { writeFileAtomic } from '../internal/write-file-atomic.js'

/**
 * The largest tool result (as JSON: the Evidence and its summary text) returned inline. The official SDK's
 * stdio readers reject a message over 10 MiB and drop the connection, so a larger capture is saved to a file
 * instead of being sent; the margin is the JSON-RPC envelope's.
 */
export const MAX_INLINE_EVIDENCE_BYTES = 8 * 1024 * 1024

/** What a tool that saved a capture returns as `structuredContent`. */
export interface SavedCapture {
  /** Absolute path of the canonical JSON Evidence file (the format `rea capture-process --json` writes). */
  readonly output_path: string
  readonly bytes: number
  readonly identity_digest: string
  readonly disposition: Evidence['disposition']
}

/**
 * Writes the Evidence as canonical JSON, whole or not at all; a relative path resolves against the capture root
 * (the cwd).
 */
export async function writeCapture(evidence: Evidence, file: string): Promise<SavedCapture> {
  const outputPath = path.resolve(file)
  const text = serializeEvidence(evidence)
  await writeFileAtomic(outputPath, text)
  return {
    output_path: outputPath,
    bytes: Buffer.byteLength(text),
    identity_digest: evidence.identity_digest,
    disposition: evidence.disposition,
  }
}

/** Saves a capture that cannot be delivered as asked into a new private directory, so the run is not lost. */
export async function spillCapture(evidence: Evidence): Promise<SavedCapture> {
  return writeCapture(evidence, privateCopyPath('capture.json'))
}

export function describeSavedCapture(saved: SavedCapture): string {
  return `Evidence (${saved.bytes.toLocaleString('en-US')} bytes, identity digest ${saved.identity_digest}) saved to ${showName(saved.output_path)}.`
}

/** Bytes of a tool result as it travels: JSON-RPC serializes with JSON.stringify, as here. */
export function inlineResultBytes(result: unknown): number {
  return Buffer.byteLength(JSON.stringify(result))
}
