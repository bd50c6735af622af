import type { CommandTable } from '../command-table.js'

export const EXPORT = {
  name: 'export',
  summary: 'Export a capture as an asciicast recording, or one of its screens as an SVG picture',
  docs: 'docs/viewer.md#pictures-rea-export-svg',
  positionals: [
    {
      name: 'export format',
      choices: ['asciicast', 'svg'],
      description: 'What to write: an asciicast recording, or the screen at one moment as an SVG image.',
    },
    { name: 'evidence.json', description: 'The capture to export (Evidence).' },
  ],
  options: [
    {
      kind: 'value',
      name: 'cast-version',
      choices: ['2', '3'],
      default: '2',
      description:
        'asciicast v2 (absolute times, what asciinema 2 plays) or v3 (intervals and an exit event).',
      example: 'rea export asciicast capture.json --cast-version 3 -o capture.cast',
    },
    {
      kind: 'value',
      name: 'at',
      value: 'final|event <n>|<ms>',
      default: 'final',
      joinsNextWordAfter: ['event'],
      description:
        'svg only: the final screen, the screen just before event <n> (from 0) was sent, or <ms> after launch.',
      example: 'rea export svg capture.json --at event 2 -o before-event-2.svg',
    },
    {
      kind: 'value',
      name: 'output',
      short: 'o',
      value: '<file>',
      defaultText: 'stdout',
      description: 'Write the export to this file; it must differ from the Evidence file.',
      example: 'rea export svg capture.json -o screen.svg',
    },
  ],
} as const satisfies CommandTable
