/** What a key asks of the review. */
export type ReviewKey =
  | 'accept'
  | 'reject'
  | 'skip'
  | 'accept-all'
  | 'reject-all'
  | 'skip-all'
  | 'diff'
  | 'help'
  | 'quit'
  | 'interrupt'
  | 'previous-screen'
  | 'next-screen'
  | 'up'
  | 'down'
  | 'page-up'
  | 'page-down'

const SEQUENCES: readonly (readonly [string, ReviewKey])[] = [
  ['\x1b[A', 'up'],
  ['\x1bOA', 'up'],
  ['\x1b[B', 'down'],
  ['\x1bOB', 'down'],
  ['\x1b[C', 'next-screen'],
  ['\x1bOC', 'next-screen'],
  ['\x1b[D', 'previous-screen'],
  ['\x1bOD', 'previous-screen'],
  ['\x1b[5~', 'page-up'],
  ['\x1b[6~', 'page-down'],
]

const SINGLE: Readonly<Record<string, ReviewKey>> = {
  a: 'accept',
  r: 'reject',
  s: 'skip',
  A: 'accept-all',
  R: 'reject-all',
  S: 'skip-all',
  d: 'diff',
  '?': 'help',
  q: 'quit',
  '\x03': 'interrupt',
  j: 'down',
  k: 'up',
  ' ': 'page-down',
}

/**
 * The keys in a piece of terminal input, in order; anything else (another key, a sequence REA does not use) is
 * left out. The review reads one key at a time, so a paste of `ar` is two decisions, one per capture.
 */
export function decodeReviewKeys(input: string): ReviewKey[] {
  const keys: ReviewKey[] = []
  let index = 0
  while (index < input.length) {
    const sequence = SEQUENCES.find(([text]) => input.startsWith(text, index))
    if (sequence !== undefined) {
      keys.push(sequence[1])
      index += sequence[0].length
      continue
    }
    const character = input[index] ?? ''
    if (character === '\x1b') {
      // An escape sequence REA does not use: skip it whole (CSI … final byte), not its letters as keys.
      // eslint-disable-next-line no-control-regex -- the escape character starts what is skipped
      const rest = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?/s.exec(input.slice(index))?.[0] ?? '\x1b'
      index += rest.length
      continue
    }
    const key = SINGLE[character]
    if (key !== undefined) {
      keys.push(key)
    }
    index += 1
  }
  return keys
}
