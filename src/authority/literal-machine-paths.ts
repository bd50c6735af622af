import { tmpdir } from 'node:os'
import type { Evidence } from '../evidence/schema.js'
import { PlaceholderRule, pathSpellings } from '../normalize/placeholders.js'

const NAMES: Readonly<Record<'root' | 'home' | 'tmpdir', string>> = {
  root: 'the capture root',
  home: 'the home directory',
  tmpdir: 'the temporary directory',
}

/**
 * Which of this machine's paths (the capture root, HOME, TMPDIR as the command saw them) an authority's
 * comparison text still holds literally: such an authority fails in any other clone or on any other machine.
 * Read when the authority is recorded, in the process that captured it.
 */
export function literalMachinePaths(evidence: Evidence): string[] {
  const environment = evidence.commitments.comparison_contract.value.environment
  const inherited = (name: string): string | undefined => {
    const value = name in environment ? environment[name] : process.env[name]
    return value === null || value === undefined || value === '' ? undefined : value
  }
  const values: [keyof typeof NAMES, string | undefined][] = [
    ['root', evidence.host.capture_root],
    ['home', inherited('HOME')],
    ['tmpdir', inherited('TMPDIR') ?? tmpdir()],
  ]
  const text = [
    ...evidence.terminal.chunks.map((chunk) => chunk.data),
    ...evidence.terminal.frames.flatMap((frame) => (frame.status === 'retained' ? frame.lines : [])),
  ].join('\n')
  const found: string[] = []
  for (const [name, value] of values) {
    const trimmed = value?.replace(/(?<=.)\/+$/, '')
    if (trimmed === undefined || trimmed.length < 3) {
      continue
    }
    const rule = new PlaceholderRule(pathSpellings(name, [trimmed]))
    if (rule.find(text, 0, text.length) !== undefined) {
      found.push(NAMES[name])
    }
  }
  return found
}
