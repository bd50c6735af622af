/**
 * What is wrong with a Markdown file handed to REA, named by its file and line: the rule it broke and a sentence
 * that says what was expected, what was found and how to write it. A block with an issue is not run; the other
 * blocks of the file still are.
 */

export const MARKDOWN_RULES = [
  'unterminated_block',
  'unknown_option',
  'option_value',
  'repeated_option',
  'front_matter',
  'expected_command',
  'empty_command',
  'status',
  'unknown_key',
  'input_without_prompt',
  'input_in_screen',
  'sensitive_unset',
  'sensitive_too_short',
  'tab',
  'fixture',
  'invalid_scenario',
] as const
export type MarkdownRule = (typeof MARKDOWN_RULES)[number]

export interface MarkdownIssue {
  /** The Markdown file as given (the CLI's argument, the runner's absolute path). */
  readonly file: string
  /** 1-based. */
  readonly line: number
  readonly rule: MarkdownRule
  readonly message: string
}

/** `file:line: message [rule]`, the form every front end prints. */
export function formatMarkdownIssue(issue: MarkdownIssue, shownFile: string = issue.file): string {
  return `${shownFile}:${issue.line}: ${issue.message} [${issue.rule}]`
}

/** The closest of `choices` to `word`, when it is close enough to be a likely typo. */
export function nearestName(word: string, choices: readonly string[]): string | null {
  let best: string | null = null
  let bestDistance = Infinity
  for (const choice of choices) {
    const distance = editDistance(word.toLowerCase(), choice.toLowerCase())
    if (distance < bestDistance) {
      best = choice
      bestDistance = distance
    }
  }
  return best !== null && bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : null
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}
