import type { Evidence } from '../../evidence/schema.js'

/**
 * The scenario's redactions and filters that replaced nothing in either capture, named as the scenario names them
 * (`redaction 0 /pid=(?<redacted>\d+)/`, `filter durations`): a rule that never matched is most often one whose
 * pattern does not fit the output, the first thing to check when a difference it was meant to cover remains.
 * Placeholders are left out: a path that is not printed is the usual case, not a mistake.
 */
export function unusedRules(authority: Evidence, reconstruction: Evidence): string[] {
  const a = authority.terminal.stream_normalization
  const b = reconstruction.terminal.stream_normalization
  if (a === undefined || b === undefined) {
    return []
  }
  const regexes = reconstruction.commitments.comparison_contract.value.normalization.redactions ?? []
  const redactions = a.redactions.flatMap((entry) => {
    const other = b.redactions.find((candidate) => candidate.index === entry.index)
    if (entry.replaced > 0 || other === undefined || other.replaced > 0) {
      return []
    }
    const regex = regexes[entry.index]?.regex
    return [`redaction ${entry.index}${regex === undefined ? '' : ` /${regex}/`}`]
  })
  const filters = a.filters.flatMap((entry) => {
    const other = b.filters.find((candidate) => candidate.name === entry.name)
    return entry.replaced > 0 || other === undefined || other.replaced > 0 ? [] : [`filter ${entry.name}`]
  })
  return [...redactions, ...filters]
}
