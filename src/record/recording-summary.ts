import path from 'node:path'
import { quoteText, showCommandLine } from '../internal/escape-controls.js'
import type { RecordedEvent } from './build-events.js'
import type { ClearReason, SecretReason } from './judge-field.js'
import { mentionsSecret } from './prompt-rules.js'

const SECRET_WORDS: Record<SecretReason, string> = {
  echo_off: 'the terminal did not echo it',
  masked: 'the program drew masks for it',
  nothing_drawn: 'the program drew nothing for it at the field',
  uncertain: 'REA could not tell whether the program showed it as typed, so it counts as a secret',
  named_secret: '--secret named its prompt',
}

/** The line `rea record` prints as it starts: the command line by the one escaping rule (docs/cli.md). */
export function recordingStarted(command: readonly string[]): string {
  return `rea: recording ${showCommandLine(command)}; it ends when the program exits.\n`
}

/** One line of the summary, and whether it is a warning a person must not miss. */
export interface SummaryLine {
  readonly text: string
  readonly warning: boolean
}

/**
 * What a recording did with what the person typed (docs/record.md#the-summary): how many answers were kept out
 * as secrets and where, each with its placeholder and the variable a generated test reads it from; a warning for
 * every answer stored in clear after a prompt that mentions a password, passphrase, PIN, token or key; and the
 * flags that change a decision. Never the typed text.
 */
export function summarizeRecording(
  events: readonly RecordedEvent[],
  secrets: readonly {
    readonly placeholder: string
    readonly variable: string
    readonly event_index: number
  }[],
  command: readonly string[] = [],
): SummaryLine[] {
  const lines: SummaryLine[] = []
  const absolute = command.filter((word) => path.isAbsolute(word))
  if (absolute.length > 0) {
    lines.push({
      text: `WARNING: the command holds ${absolute.length === 1 ? 'a path' : 'paths'} outside the capture root, written as given (${absolute.map(quoteText).join(', ')}): a path of this machine. Record from a folder that holds ${absolute.length === 1 ? 'it' : 'them'}, or edit the scenario before you commit it.`,
      warning: true,
    })
  }
  const answers = events.reduce((count, recorded) => count + (recorded.fields?.length ?? 0), 0)
  const inputs = events.filter((recorded) => recorded.event.type === 'input').length
  lines.push({
    text: `${answers} ${answers === 1 ? 'answer' : 'answers'} typed, as ${inputs} input ${inputs === 1 ? 'event' : 'events'}; ${secrets.length} kept out as ${secrets.length === 1 ? 'a secret' : 'secrets'}${secrets.length === 0 ? '.' : ':'}`,
    warning: false,
  })
  for (const secret of secrets) {
    const field = events[secret.event_index]?.fields?.[0]
    const reason = field?.judgement.secret === true ? SECRET_WORDS[field.judgement.reason] : ''
    lines.push({
      text: `  events[${secret.event_index}]${promptWords(field?.prompt)}: ${reason}. Its data holds ${secret.placeholder}; a generated test reads ${secret.variable}.${field?.judgement.reason === 'uncertain' ? ` If it is not a secret, record again with --not-secret ${quoteForShell(field.prompt)}.` : ''}`,
      warning: false,
    })
  }
  events.forEach((recorded, index) => {
    for (const field of recorded.fields ?? []) {
      if (
        field.judgement.secret ||
        !isTypedText(field.judgement.reason) ||
        !mentionsSecret(field.prompt ?? '')
      ) {
        continue
      }
      lines.push({
        text: `WARNING: events[${index}] stores what you typed IN CLEAR after a prompt that mentions a secret${promptWords(field.prompt)}: the program showed it as typed. If it is a secret, record again with --secret ${quoteForShell(field.prompt)}, or edit the scenario before you commit it.`,
        warning: true,
      })
    }
  })
  return lines
}

function isTypedText(reason: ClearReason): boolean {
  return reason !== 'nothing_typed'
}

function promptWords(prompt: string | undefined): string {
  return prompt === undefined ? '' : ` (after ${JSON.stringify(prompt.trim())})`
}

/** The prompt as a shell word for `--secret`/`--not-secret`, or a placeholder when there is none. */
function quoteForShell(prompt: string | undefined): string {
  const text = prompt?.trim()
  return text === undefined || text === '' ? "'<prompt text>'" : `'${text.replaceAll("'", `'\\''`)}'`
}
