import type { Evidence } from '../evidence/schema.js'
import { storedAuthority } from './stored-authority.js'

/**
 * The bytes of the authority file that stands for this capture: what `-u` writes, what a new authority is, and
 * what a pending capture holds (so accepting one is putting its bytes in place). The capture's machine values are
 * stored as their tokens (`storedAuthority`), so a pending capture carries no more of this machine than the
 * authority `-u` would write.
 */
export function authorityFileText(evidence: Evidence): string {
  return storedAuthority(evidence).text
}
