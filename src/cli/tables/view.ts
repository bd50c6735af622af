import type { CommandTable } from '../command-table.js'

export const VIEW = {
  name: 'view',
  summary: 'Write a self-contained HTML page showing two captures side by side (screens, diff, replay)',
  docs: 'docs/viewer.md',
  positionals: [
    { name: 'authority.json', description: 'The capture that shows the expected behaviour (Evidence).' },
    { name: 'reconstruction.json', description: 'The capture to show beside it (Evidence).' },
  ],
  options: [
    {
      kind: 'value',
      name: 'output',
      short: 'o',
      value: '<page.html>',
      defaultText: 'stdout, which must not be a terminal',
      description: 'Write the page to this file.',
      example: 'rea view authority.json reconstruction.json -o divergence.html',
    },
    {
      kind: 'value',
      name: 'timing',
      value: 'tolerant|strict|ignore|tolerance_ms=<ms>,ratio=<0..1>',
      default: 'tolerant',
      description: 'How times count in the comparison the page shows.',
      example: 'rea view authority.json reconstruction.json --timing strict -o divergence.html',
    },
    {
      kind: 'value',
      name: 'terminal',
      choices: ['stream', 'screens'],
      default: 'stream',
      description:
        'Compare the output stream, or what the screens show (same-looking screens count as equal).',
      example: 'rea view authority.json reconstruction.json --terminal screens -o divergence.html',
    },
  ],
} as const satisfies CommandTable
