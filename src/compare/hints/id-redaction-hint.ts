import { FilterRule } from '../../normalize/filters.js'
import { FILTERS_V2 } from '../../normalize/filters-v2.js'
import { normalizeDetached } from '../../normalize/stream-normalizer.js'
import { FILTER_NAMES } from '../../scenario/schema.js'
import { suggestRedactions, varyingSpan } from './varying-text.js'

/** Redactions for differing values that look like ids, and the scenario member that adds them. */
export interface IdRedactionHint {
  readonly redactions: { readonly regex: string; readonly replacement: string }[]
  /** The `normalization` member of a scenario with these redactions added to what it already names. */
  readonly scenario: string
  /** Each differing value, as `authority → reconstruction`, at most a few. */
  readonly values: string[]
  /** Present when only some differing lines are such values: how many of how many. */
  readonly covered?: { readonly lines: number; readonly of: number }
}

/** An id is a run of letters and digits with at least one digit: a pid, a port, a hash, a generated name. */
const ID_LIKE = /^(?=.*\p{N})[\p{L}\p{N}_-]{3,}$/u
const SHOWN_VALUES = 3
const ALL_FILTERS = FILTER_NAMES.map((name) => new FilterRule(name, FILTERS_V2))

/**
 * When some differing lines differ only in one id-like value each that no built-in filter replaces (`ps` prints
 * another pid, a server another port), the redactions that replace those values: the user decides whether the
 * value changes on every run, which REA cannot know. Checked on the lines before it is proposed.
 */
export function suggestIdRedactions(
  texts: { readonly authority: string; readonly reconstruction: string },
  committedRedactions: readonly { readonly regex: string; readonly replacement?: string }[],
): IdRedactionHint | undefined {
  const a = texts.authority.split('\n')
  const b = texts.reconstruction.split('\n')
  if (a.length !== b.length) {
    return undefined
  }
  const differing = a.flatMap((line, index) => (line === b[index] ? [] : [index]))
  const ids = differing.filter((index) => {
    const [lineA, lineB] = [a[index] as string, b[index] as string]
    const span = varyingSpan(lineA, lineB, index + 1)
    return (
      ID_LIKE.test(span.first.trimStart()) &&
      ID_LIKE.test(span.second.trimStart()) &&
      normalizeDetached(ALL_FILTERS, lineA) !== normalizeDetached(ALL_FILTERS, lineB)
    )
  })
  const hint =
    ids.length === 0
      ? undefined
      : suggestRedactions(ids.map((index) => a[index]).join('\n'), ids.map((index) => b[index]).join('\n'))
  if (hint === undefined) {
    return undefined
  }
  const redactions = [...committedRedactions, ...hint.redactions]
  return {
    redactions: hint.redactions,
    scenario: `"normalization": ${JSON.stringify({ redactions })}`,
    values: hint.spans
      .slice(0, SHOWN_VALUES)
      .map((span) => `${span.first.trimStart()} → ${span.second.trimStart()}`),
    ...(ids.length < differing.length ? { covered: { lines: ids.length, of: differing.length } } : {}),
  }
}
