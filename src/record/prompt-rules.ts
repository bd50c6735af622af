import { ReaError } from '../errors.js'

/** A prompt named on the command line (`--secret`, `--not-secret`): a text it contains, or a regular expression. */
export interface PromptRule {
  /** As the person wrote it. */
  readonly source: string
  readonly matches: (prompt: string) => boolean
}

/** The rules that override the recorder's judgement of a field, by its prompt. */
export interface SecretRules {
  readonly secret: readonly PromptRule[]
  readonly notSecret: readonly PromptRule[]
}

export const NO_SECRET_RULES: SecretRules = { secret: [], notSecret: [] }

/**
 * `/expression/flags` is a regular expression; anything else is a text the prompt must contain, letter case
 * aside (`--secret 'Access code'`).
 */
export function parsePromptRule(source: string, flag: string): PromptRule {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(source)
  if (literal === null) {
    if (source.trim() === '') {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        `${flag} needs a prompt text or a /regular expression/: got an empty text.`,
      )
    }
    const wanted = source.toLowerCase()
    return { source, matches: (prompt) => prompt.toLowerCase().includes(wanted) }
  }
  let expression: RegExp
  try {
    expression = new RegExp(literal[1] as string, (literal[2] as string).replace(/[gy]/g, ''))
  } catch (error) {
    throw new ReaError(
      'INVALID_ARGUMENTS',
      `${flag} ${source} is not a valid regular expression: ${(error as Error).message}.`,
      { cause: error, hint: 'Write /expression/flags, or a plain text the prompt contains.' },
    )
  }
  return { source, matches: (prompt) => expression.test(prompt) }
}

/** Words in a prompt that suggest a secret is asked for: a field stored in clear after one gets a warning. */
const SECRET_WORDS = /pass(?:word|phrase|code)?|\bpin\b|token|\bkey\b|secret|api[ _-]?key/i

export function mentionsSecret(prompt: string): boolean {
  return SECRET_WORDS.test(prompt)
}
