import type { ExpectedLine } from './parse-block.js'

/**
 * Expected lines against actual ones. A line is a glob over characters (`[..]` any text within the line, a
 * secret's stars) matched without backtracking blow-ups; `...` is any number of lines. One dynamic programme
 * gives the verdict, the diff and the alignment `--update` rewrites by, always the same way: the fewest lines
 * that differ.
 */

export const ANY: unique symbol = Symbol('any text')
export const STARS: unique symbol = Symbol('stars')
export type PatternPart = string | typeof ANY | typeof STARS

export type LinePattern =
  { readonly kind: 'lines' } | { readonly kind: 'line'; readonly parts: readonly PatternPart[] }

export type Step =
  | { readonly op: 'match'; readonly expected: number; readonly actual: number }
  | { readonly op: 'absorb'; readonly expected: number; readonly actual: number }
  | { readonly op: 'lines'; readonly expected: number }
  | { readonly op: 'delete'; readonly expected: number }
  | { readonly op: 'insert'; readonly actual: number }

export interface Alignment {
  readonly equal: boolean
  readonly steps: readonly Step[]
}

/** What an expected line stands for on the screen: typed text as echoed, keys as nothing, tokens as written. */
export function linePattern(line: ExpectedLine): LinePattern {
  if (line.kind === 'lines') {
    return { kind: 'lines' }
  }
  const parts: PatternPart[] = []
  for (const segment of line.segments) {
    switch (segment.kind) {
      case 'text':
      case 'token':
      case 'typed':
        if (typeof parts.at(-1) === 'string') {
          parts[parts.length - 1] = `${parts.at(-1) as string}${'text' in segment ? segment.text : ''}`
        } else {
          parts.push(segment.text)
        }
        break
      case 'any':
        parts.push(ANY)
        break
      case 'secret':
        parts.push(STARS)
        break
      case 'key':
        break
    }
  }
  // The terminal's rows lose their trailing blanks, and so does what they are held against.
  const last = parts.at(-1)
  if (typeof last === 'string') {
    parts[parts.length - 1] = last.trimEnd()
  }
  return { kind: 'line', parts }
}

/** Whether `actual` reads as the pattern: as written first (a program may print `[..]`), then as a glob. */
export function lineMatches(parts: readonly PatternPart[], actual: string): boolean {
  if (parts.every((part) => typeof part === 'string') && parts.join('') === actual) {
    return true
  }
  const pattern: (string | typeof ANY | typeof STARS)[] = []
  for (const part of parts) {
    if (typeof part === 'string') {
      pattern.push(...Array.from(part))
    } else {
      pattern.push(part)
    }
  }
  const text = Array.from(actual)
  // matches[j]: the pattern read so far matches text[0..j).
  let matches = new Array<boolean>(text.length + 1).fill(false)
  matches[0] = true
  // The terminal's row lost its trailing blanks: what is left of the pattern may be blanks, or match nothing.
  const endsFrom = new Array<boolean>(pattern.length + 1).fill(true)
  for (let index = pattern.length - 1; index >= 0; index--) {
    const element = pattern[index]
    endsFrom[index] =
      (endsFrom[index + 1] as boolean) && (element === ' ' || element === ANY || element === STARS)
  }
  let whole = text.length === 0 && (endsFrom[0] as boolean)
  pattern.forEach((element, index) => {
    const next = new Array<boolean>(text.length + 1).fill(false)
    if (element === ANY || element === STARS) {
      let reachable = false
      for (let j = 0; j <= text.length; j++) {
        reachable = (reachable && (element === ANY || text[j - 1] === '*')) || (matches[j] as boolean)
        next[j] = reachable
      }
    } else {
      for (let j = 1; j <= text.length; j++) {
        next[j] = (matches[j - 1] as boolean) && text[j - 1] === element
      }
    }
    matches = next
    whole ||= (matches[text.length] as boolean) && (endsFrom[index + 1] as boolean)
  })
  return whole
}

/** Beyond this many line pairs, lines are held against each other in order: no alignment is searched. */
const MAX_ALIGNED_PAIRS = 10_000_000

export function alignLines(patterns: readonly LinePattern[], actual: readonly string[]): Alignment {
  const m = patterns.length
  const n = actual.length
  if ((m + 1) * (n + 1) > MAX_ALIGNED_PAIRS) {
    return inOrder(patterns, actual)
  }
  const width = n + 1
  const cost = new Int32Array((m + 1) * width)
  const matches = (i: number, j: number): boolean => {
    const pattern = patterns[i] as LinePattern
    return pattern.kind === 'line' && lineMatches(pattern.parts, actual[j] as string)
  }
  for (let i = m; i >= 0; i--) {
    for (let j = n; j >= 0; j--) {
      const at = i * width + j
      if (i === m) {
        cost[at] = n - j
      } else if ((patterns[i] as LinePattern).kind === 'lines') {
        cost[at] = Math.min(cost[at + width] as number, j < n ? (cost[at + 1] as number) : Infinity)
      } else if (j === n) {
        cost[at] = 1 + (cost[at + width] as number)
      } else {
        cost[at] = Math.min(
          matches(i, j) ? (cost[at + width + 1] as number) : Infinity,
          1 + (cost[at + width] as number),
          1 + (cost[at + 1] as number),
        )
      }
    }
  }
  return { equal: cost[0] === 0, steps: backtrack(patterns, n, cost, matches) }
}

function backtrack(
  patterns: readonly LinePattern[],
  n: number,
  cost: Int32Array,
  matches: (i: number, j: number) => boolean,
): Step[] {
  const m = patterns.length
  const width = n + 1
  const steps: Step[] = []
  let i = 0
  let j = 0
  while (i < m || j < n) {
    const at = i * width + j
    const here = cost[at] as number
    if (i === m) {
      steps.push({ op: 'insert', actual: j++ })
    } else if ((patterns[i] as LinePattern).kind === 'lines') {
      // Lazy: `...` stops as soon as what follows it can match.
      if (cost[at + width] === here) {
        steps.push({ op: 'lines', expected: i++ })
      } else {
        steps.push({ op: 'absorb', expected: i, actual: j++ })
      }
    } else if (j < n && matches(i, j) && cost[at + width + 1] === here) {
      steps.push({ op: 'match', expected: i++, actual: j++ })
    } else if (cost[at + width] === here - 1) {
      steps.push({ op: 'delete', expected: i++ })
    } else {
      steps.push({ op: 'insert', actual: j++ })
    }
  }
  return steps
}

/** Line by line, for expectations too long to align: a `...` absorbs nothing. */
function inOrder(patterns: readonly LinePattern[], actual: readonly string[]): Alignment {
  const steps: Step[] = []
  let equal = true
  let j = 0
  patterns.forEach((pattern, i) => {
    if (pattern.kind === 'lines') {
      steps.push({ op: 'lines', expected: i })
    } else if (j < actual.length && lineMatches(pattern.parts, actual[j] as string)) {
      steps.push({ op: 'match', expected: i, actual: j++ })
    } else {
      equal = false
      steps.push({ op: 'delete', expected: i })
    }
  })
  for (; j < actual.length; j++) {
    equal = false
    steps.push({ op: 'insert', actual: j })
  }
  return { equal, steps }
}
