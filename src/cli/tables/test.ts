import type { CommandTable } from '../command-table.js'

export const TEST = {
  name: 'test',
  summary:
    'Run the console blocks of Markdown files in a real terminal and check what they show (see docs/markdown-cases.md)',
  docs: 'docs/markdown-cases.md',
  positionals: [
    {
      name: 'file.md | folder | glob',
      variadic: true,
      description:
        'The Markdown files to run: a file, a folder (every .md under it, node_modules and dot folders left out) or a glob.',
    },
  ],
  options: [
    {
      kind: 'flag',
      name: 'update',
      short: 'u',
      description: 'Rewrite the expected lines of blocks that differ, in place; does nothing when CI is set.',
      example: 'rea test -u README.md',
    },
    {
      kind: 'value',
      name: 'report',
      value: '<folder>',
      default: 'rea-report',
      negation: 'Write no report folder.',
      description: "Where the summary, records and divergence pages go (the reporter's folder layout).",
      example: 'rea test docs --report build/rea-report',
    },
    {
      kind: 'value',
      name: 'junit',
      value: '<file.xml>',
      defaultText: 'no JUnit file',
      description: 'Also write a JUnit XML file: one test case per block, named by file, heading and line.',
      example: 'rea test docs --junit rea-junit.xml',
    },
    {
      kind: 'value',
      name: 'jobs',
      value: '<n>',
      defaultText: 'the number of CPUs',
      description: 'How many files run at the same time; the blocks of one file always run in order.',
      example: "rea test 'docs/**/*.md' --jobs 2",
    },
  ],
} as const satisfies CommandTable
