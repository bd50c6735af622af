import { typedText } from '../scenario/key-names.js'
import type { ProcessScenario } from '../scenario/schema.js'

/** The semantics of sensitive-input masking, committed with the normalization rules. */
export const SENSITIVE_REDACTION_VERSION = 'sensitive-input-mask-v1'
/** Shorter values are sent but not searched for in output: they would mask ordinary text. */
export const MIN_REDACTED_CHARACTERS = 4

/** A value to mask in output, by the input event that sent it. */
export interface SensitiveValue {
  readonly eventIndex: number
  readonly bytes: Buffer
}

/** The values a scenario marks sensitive, line terminators trimmed, longest first; short ones are left out. */
export function sensitiveValues(scenario: ProcessScenario): SensitiveValue[] {
  const values: SensitiveValue[] = []
  scenario.events.forEach((event, eventIndex) => {
    if (event.type !== 'input' || !event.sensitive) {
      return
    }
    // A keys event types its printable single-character keys; Enter and the like are not part of the value.
    const value = (event.keys === undefined ? (event.data ?? '') : typedText(event.keys)).replace(
      /[\r\n]+$/,
      '',
    )
    if (Array.from(value).length >= MIN_REDACTED_CHARACTERS) {
      values.push({ eventIndex, bytes: Buffer.from(value, 'utf8') })
    }
  })
  return values.sort((a, b) => b.bytes.length - a.bytes.length)
}
