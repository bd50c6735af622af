import type { CommandTable } from '../command-table.js'

export const CAPTURE_PROCESS = {
  name: 'capture-process',
  summary: 'Run a scenario in a real PTY and print its Evidence',
  docs: 'docs/cli.md#rea-capture-process',
  positionals: [{ name: 'scenario.json', description: 'The scenario to run (docs/scenario.md).' }],
  options: [
    {
      kind: 'flag',
      name: 'json',
      description: 'Write the Evidence as canonical JSON, for programs (the same as --format json).',
      example: 'rea capture-process scenario.json --json > capture.json',
    },
    {
      kind: 'value',
      name: 'format',
      choices: ['toon', 'json', 'summary'],
      default: 'toon',
      description:
        'How the Evidence is written: TOON to read, JSON for programs, or a short summary for people.',
      example: 'rea capture-process scenario.json --format summary',
    },
    {
      kind: 'value',
      name: 'output',
      short: 'o',
      value: '<file>',
      defaultText: 'stdout',
      description: 'Write the document to this file (whole or not at all), checked before anything runs.',
      example: 'rea capture-process scenario.json --json -o capture.json',
    },
    {
      kind: 'flag',
      name: 'test-environment',
      description:
        "Run as the test plugin's captures run: REA's test environment and placeholders written in.",
      example: 'rea capture-process scenario.json --test-environment --format summary',
    },
    {
      kind: 'value',
      name: 'coverage',
      value: '<dir>',
      defaultText: 'none collected',
      description:
        'Leave the V8 coverage files of the Node.js programs the capture runs in this folder (docs/coverage.md).',
      example: 'rea capture-process scenario.json --coverage coverage/tmp',
    },
    {
      kind: 'value',
      name: 'progress',
      choices: ['auto', 'json'],
      default: 'auto',
      negation: 'Write no progress to stderr.',
      description:
        'Progress on stderr: a status line on a terminal and JSON lines elsewhere (auto), or JSON lines.',
      example: 'rea capture-process scenario.json --progress json 2> progress.jsonl',
    },
  ],
} as const satisfies CommandTable
