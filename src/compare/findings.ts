import type { JsonValue } from '../internal/json-value.js'
import type { Dimension, DimensionResult, Difference, Location, TimingPolicy } from './comparison-schema.js'
import { timingDiffers } from './timing.js'

/** A dimension lists at most this many differences; the rest are counted. */
export const MAX_DIFFERENCES_PER_DIMENSION = 50
/** Likewise for unknowns: a capture with thousands of unhashed files says so in one line, not thousands. */
export const MAX_UNKNOWNS_PER_DIMENSION = 50

/** What one dimension's comparator found, turned into its outcome at the end. */
export class DimensionFindings {
  readonly #dimension: Dimension
  readonly #differences: Difference[] = []
  readonly #unknowns: { reason: string; detail: string }[] = []
  readonly #notes: string[] = []
  #omitted = 0
  #omittedUnknowns = 0
  #timingNotes = 0

  constructor(dimension: Dimension) {
    this.#dimension = dimension
  }

  get hasDifferences(): boolean {
    return this.#differences.length > 0
  }

  differ(
    field: string,
    summary: string,
    authority: JsonValue | undefined,
    reconstruction: JsonValue | undefined,
    location: Location,
  ): void {
    if (this.#differences.length >= MAX_DIFFERENCES_PER_DIMENSION) {
      this.#omitted++
      return
    }
    this.#differences.push({
      dimension: this.#dimension,
      field,
      summary,
      authority: authority ?? null,
      reconstruction: reconstruction ?? null,
      location,
    })
  }

  /**
   * A timing value, compared under the policy. Under `ignore` two present times never differ; when they are not
   * equal, both are shown as a note so that people still see them.
   */
  time(
    field: string,
    summary: string,
    authority: number | null,
    reconstruction: number | null,
    policy: TimingPolicy,
    location: Location,
  ): void {
    if (timingDiffers(authority, reconstruction, policy)) {
      this.differ(field, summary, authority, reconstruction, location)
    } else if (policy === 'ignore' && authority !== reconstruction) {
      if (this.#timingNotes++ < MAX_DIFFERENCES_PER_DIMENSION) {
        this.#notes.push(
          `${field} not compared (timing: ignore): authority ${authority} ms, reconstruction ${reconstruction} ms`,
        )
      }
    }
  }

  /** The same reason is listed once, however many places it applies to. */
  unknown(reason: string, detail: string): void {
    if (this.#unknowns.some((unknown) => unknown.reason === reason && unknown.detail === detail)) {
      return
    }
    if (this.#unknowns.length >= MAX_UNKNOWNS_PER_DIMENSION) {
      this.#omittedUnknowns++
      return
    }
    this.#unknowns.push({ reason, detail })
  }

  note(text: string): void {
    this.#notes.push(text)
  }

  /** Different wins over unknown: a located difference is proven whatever else went unobserved. */
  result(): DimensionResult {
    const hiddenTimingNotes = this.#timingNotes - MAX_DIFFERENCES_PER_DIMENSION
    if (hiddenTimingNotes > 0) {
      this.#notes.push(`${hiddenTimingNotes} more times not compared (timing: ignore)`)
      this.#timingNotes = MAX_DIFFERENCES_PER_DIMENSION
    }
    const outcome =
      this.#differences.length > 0 ? 'different' : this.#unknowns.length > 0 ? 'unknown' : 'equal'
    return {
      outcome,
      differences: this.#differences,
      differences_omitted: this.#omitted,
      unknowns:
        this.#omittedUnknowns === 0
          ? this.#unknowns
          : [
              ...this.#unknowns,
              { reason: 'more_unknowns', detail: `${this.#omittedUnknowns} more unknowns are not listed` },
            ],
      notes: this.#notes,
    }
  }
}

export function notSelected(reason: string): DimensionResult {
  return { outcome: 'not_selected', differences: [], differences_omitted: 0, unknowns: [], notes: [reason] }
}
