import type { CommandTable } from '../command-table.js'

export const EXPORT = {
  name: 'export',
  summary: 'Export a capture as an asciicast recording (asciinema play, any asciicast player)',
  docs: 'docs/viewer.md#recordings-rea-export-asciicast',
  positionals: [
    { name: 'export format', choices: ['asciicast'], description: 'What to write: an asciicast recording.' },
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
      name: 'output',
      short: 'o',
      value: '<file>',
      defaultText: 'stdout',
      description: 'Write the export to this file; it must differ from the Evidence file.',
      example: 'rea export asciicast capture.json -o capture.cast',
    },
  ],
} as const satisfies CommandTable
