/** A span of comparison text a stream rule replaces, in the coordinates of the text it was found in. */
export interface RuleMatch {
  readonly start: number
  readonly end: number
  /** What `text[start, end)` becomes. */
  readonly replacement: string
  /** Which rule replaced it, for the counts in the Evidence: a placeholder or filter name, `redactions[N]`. */
  readonly label: string
}

/**
 * One rule applied to the output as a stream (a placeholder, a redaction, a filter). A rule reads text that
 * may end before the stream does: it says from where its matches could still change with more text, so the
 * stream normalizer releases only what no later text can change.
 */
export interface StreamRule {
  /**
   * The leftmost match starting at or after `from` and before `limit`. `text` before `from` is context; a rule
   * that works line by line takes `floor` (where the undecided text begins) as the earliest line start.
   */
  find(text: string, from: number, limit: number, floor: number): RuleMatch | undefined
  /**
   * The earliest position at or after `from` where a match could still start or change if more text came
   * after `text`, or `text.length` when none could.
   */
  undecidedFrom(text: string, from: number): number
}

/**
 * Applies `rules` to `text[from, limit)` left to right: at each point the match that starts first wins, and
 * among matches at the same start the rule listed first. Replaced text is not read again. Returns the pieces,
 * in order, with the position where scanning stopped (the end of the last match when it reaches past `limit`).
 */
export function scanRules(
  rules: readonly StreamRule[],
  text: string,
  from: number,
  limit: number,
  emit: (start: number, end: number, match: RuleMatch | undefined) => void,
): number {
  const next: (RuleMatch | null | undefined)[] = rules.map(() => undefined)
  let position = from
  for (;;) {
    let best: RuleMatch | undefined
    for (let index = 0; index < rules.length; index++) {
      let candidate = next[index]
      if (candidate === undefined || (candidate !== null && candidate.start < position)) {
        candidate = (rules[index] as StreamRule).find(text, position, limit, from) ?? null
        next[index] = candidate
      }
      if (
        candidate !== null &&
        candidate.start < limit &&
        (best === undefined || candidate.start < best.start)
      ) {
        best = candidate
      }
    }
    if (best === undefined) {
      if (position < limit) {
        emit(position, limit, undefined)
      }
      return Math.max(position, limit)
    }
    if (best.start > position) {
      emit(position, best.start, undefined)
    }
    emit(best.start, best.end, best)
    position = best.end
  }
}
