import type { TimingPolicy } from '../compare/comparison-schema.js'
import { parseTimingPolicy } from '../compare/timing.js'

const HINT =
  'Write --timing tolerant, strict, ignore, or an explicit tolerance: --timing tolerance_ms=500,ratio=0.75.'

/**
 * `--timing tolerant|strict|ignore`, or an explicit tolerance written `tolerance_ms=500,ratio=0.75`; a bad value
 * is INVALID_ARGUMENTS naming `--timing` and each problem. `command` opens the message.
 */
export function timingFlag(text: string, command: string): TimingPolicy {
  if (!text.includes('=')) {
    return parseTimingPolicy(text, '--timing', `${command} --timing`, HINT)
  }
  const fields: Record<string, unknown> = {}
  for (const pair of text.split(',')) {
    const [name = '', value = ''] = pair.split('=', 2).map((part) => part.trim())
    fields[name] = value === '' || Number.isNaN(Number(value)) ? value : Number(value)
  }
  return parseTimingPolicy(fields, '--timing', `${command} --timing`, HINT)
}
