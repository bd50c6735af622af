import { canonicalJsonDocument } from './canonical-json.js'
import type { Evidence } from './schema.js'

/**
 * Evidence as written to files: canonical JSON, two-space indent, trailing newline. Its own module, apart from the
 * reader (`load.ts`): writing Evidence needs no schema, and a capture then never builds the Evidence schema.
 */
export function serializeEvidence(evidence: Evidence): string {
  return canonicalJsonDocument(evidence)
}
