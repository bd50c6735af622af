import { canonicalDigest } from './canonical-json.js'
import type { Evidence, EvidenceBody } from './schema.js'

/** Adds the identity digest: SHA-256 over the canonical JSON of everything else in the document. */
export function sealEvidence(body: EvidenceBody): Evidence {
  return { ...body, identity_digest: canonicalDigest(body) }
}

/** Recomputes the digest of a document, ignoring the digest it carries. */
export function computeIdentityDigest(document: Record<string, unknown>): string {
  const { identity_digest: _ignored, ...body } = document
  return canonicalDigest(body)
}
