import { placeholderContextOf } from '../evidence/machine-values.js'
import type { Evidence } from '../evidence/schema.js'
import { resolvePlaceholders } from '../normalize/placeholder-values.js'
import { PlaceholderRule, type PlaceholderName } from '../normalize/placeholders.js'
import { PLACEHOLDER_NAMES } from '../scenario/schema.js'

/** A value of the recording machine that a stored authority still holds, and the first place it was found. */
export interface MachineValueLeft {
  readonly name: PlaceholderName
  /** Whether the capture's placeholders named it (its value then stayed where they do not reach). */
  readonly active: boolean
  /** Where it was found, as a path into the Evidence (`terminal.chunks[3].data`). */
  readonly at: string
}

/**
 * Fields whose strings are REA's own vocabulary or digests: `"root"` there is an attribution or a placeholder's
 * name, never the user called root.
 */
const VOCABULARY = new Set([
  'attribution',
  'placeholders',
  'name',
  'same_as',
  'token',
  'sha256',
  'identity_digest',
  'boot_id',
])

/**
 * Which of this machine's values (every placeholder's, named by the capture or not: the checkout, its folder,
 * home, temporary directory, user and host name) a stored authority still holds in any string, found as a
 * placeholder would find it (a path at path boundaries, a name as a whole word, JSON-escaped and URL forms
 * too). Read where the capture was made, right after the authority is stored.
 */
export function machineValuesLeft(stored: Evidence, capture: Evidence): MachineValueLeft[] {
  const resolved = resolvePlaceholders(PLACEHOLDER_NAMES, placeholderContextOf(capture))
  const active = new Set(capture.commitments.comparison_contract.value.normalization.placeholders ?? [])
  const rules = PLACEHOLDER_NAMES.flatMap((name) => {
    const spellings = resolved.spellings.filter((spelling) => spelling.name === name)
    return spellings.length === 0 ? [] : [{ name, rule: new PlaceholderRule(spellings) }]
  })
  const found = new Map<PlaceholderName, string>()
  visitStrings(stored, '', (text, at) => {
    for (const { name, rule } of rules) {
      if (!found.has(name) && rule.find(text, 0, text.length) !== undefined) {
        found.set(name, at)
      }
    }
    return found.size === rules.length
  })
  return PLACEHOLDER_NAMES.flatMap((name) => {
    const at = found.get(name)
    return at === undefined ? [] : [{ name, active: active.has(name), at }]
  })
}

/** Calls `visit` with every string value outside REA's vocabulary; stops once `visit` returns true. */
function visitStrings(value: unknown, at: string, visit: (text: string, at: string) => boolean): boolean {
  if (typeof value === 'string') {
    return visit(value, at)
  }
  if (Array.isArray(value)) {
    return value.some((item, index) => visitStrings(item, `${at}[${index}]`, visit))
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(
      ([key, item]) => !VOCABULARY.has(key) && visitStrings(item, at === '' ? key : `${at}.${key}`, visit),
    )
  }
  return false
}
