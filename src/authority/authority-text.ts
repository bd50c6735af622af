import { serializeAuthority } from '../evidence/authority-document.js'
import type { Evidence } from '../evidence/schema.js'

/**
 * The bytes of the authority file that stands for this capture: what `-u` writes, what a new authority is, and
 * what a pending capture holds (so accepting one is putting its bytes in place). The one call every writer of an
 * authority goes through; a rule for what a committed file may hold belongs here, and then holds for all of them.
 */
export function authorityFileText(evidence: Evidence): string {
  return serializeAuthority(evidence)
}
