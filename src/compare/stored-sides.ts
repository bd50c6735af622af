import { activePlaceholders, machineValueRule } from '../evidence/machine-values.js'
import type { Evidence } from '../evidence/schema.js'
import { withTokensInComparedFields } from '../evidence/tokens-for-values.js'

/**
 * Two captures as their contracts are compared. A stored authority holds the values of its placeholders as
 * tokens (`machine_values`), also in its scenario and contract; a capture held in memory, or written by
 * `rea capture-process`, holds this machine's values. The latter's compared fields that the authority stores
 * with tokens get them too, so the comparison says what it said before the authority was stored. Its comparison
 * text needs nothing: the placeholders made it.
 */
export function storedSides(authority: Evidence, reconstruction: Evidence): [Evidence, Evidence] {
  const stored = (evidence: Evidence) => evidence.machine_values !== undefined
  if (stored(authority) === stored(reconstruction)) {
    return [authority, reconstruction]
  }
  const asStored = (evidence: Evidence) =>
    withTokensInComparedFields(evidence, machineValueRule(evidence, activePlaceholders(evidence)))
  return stored(authority) ? [authority, asStored(reconstruction)] : [asStored(authority), reconstruction]
}
