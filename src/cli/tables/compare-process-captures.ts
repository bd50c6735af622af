import type { CommandTable } from '../command-table.js'

export const COMPARE_PROCESS_CAPTURES = {
  name: 'compare-process-captures',
  summary: 'Compare an authority capture with a reconstruction (exit 0 equivalent, 1 different, 2 unknown)',
  docs: 'docs/cli.md#rea-compare-process-captures',
  positionals: [
    { name: 'authority.json', description: 'The capture that shows the expected behaviour (Evidence).' },
    { name: 'reconstruction.json', description: 'The capture to check against it (Evidence).' },
    {
      name: 'trace.json',
      optional: true,
      description: 'A trace specification both captures must satisfy; its verdict decides the exit code.',
    },
  ],
  options: [
    {
      kind: 'flag',
      name: 'json',
      description: 'Write the comparison document as canonical JSON (the same as --format json).',
      example: 'rea compare-process-captures authority.json reconstruction.json --json > comparison.json',
    },
    {
      kind: 'value',
      name: 'format',
      choices: ['text', 'toon', 'json'],
      default: 'text',
      description:
        'Text for people (verdict, dimensions, first divergence, diff), or the document as TOON or JSON.',
      example: 'rea compare-process-captures authority.json reconstruction.json --format toon',
    },
    {
      kind: 'value',
      name: 'timing',
      value: 'tolerant|strict|ignore|tolerance_ms=<ms>,ratio=<0..1>',
      default: 'tolerant',
      description:
        'How times count: within a tolerance, exactly, not at all, or within the tolerance you give.',
      example:
        'rea compare-process-captures authority.json reconstruction.json --timing tolerance_ms=500,ratio=0.75',
    },
    {
      kind: 'value',
      name: 'terminal',
      choices: ['stream', 'screens'],
      default: 'stream',
      description: 'Compare the output stream, or what every checkpoint screen shows, cell by cell.',
      example: 'rea compare-process-captures authority.json reconstruction.json --terminal screens',
    },
    {
      kind: 'value',
      name: 'output',
      short: 'o',
      value: '<file>',
      defaultText: 'stdout',
      description: 'Write the comparison to this file instead of stdout.',
      example: 'rea compare-process-captures authority.json reconstruction.json -o comparison.txt',
    },
  ],
} as const satisfies CommandTable
