import type { CommandTable } from '../command-table.js'

export const REVIEW = {
  name: 'review',
  summary: 'Review pending captures: accept or reject what a local test run kept (see docs/review.md)',
  docs: 'docs/review.md',
  positionals: [
    {
      name: 'filters',
      optional: true,
      variadic: true,
      description:
        'Folders, pending captures, authorities or test files, or text in a test name or ending a path; none: every pending capture here.',
    },
  ],
  options: [
    {
      kind: 'flag',
      name: 'list',
      description: 'Print each pending capture (test, files, differing dimensions) and exit without keys.',
      example: 'rea review --list',
    },
    {
      kind: 'flag',
      name: 'show',
      description: 'Print the difference between a pending capture and its authority as text.',
      example:
        'rea review --show test/__captures__/todo.test.ts/adds-an-item.1.ab12cd34.pending-capture.json',
    },
    {
      kind: 'flag',
      name: 'accept',
      description: 'Make the matching pending captures the authorities (every one when no filter is given).',
      example: 'rea review --accept "adds an item"',
    },
    {
      kind: 'flag',
      name: 'reject',
      description: 'Delete the matching pending captures and keep the authorities as they are.',
      example: 'rea review --reject test/todo.test.ts',
    },
    {
      kind: 'flag',
      name: 'json',
      description: 'With --list, --show, --accept or --reject: print one JSON document instead of text.',
      example: 'rea review --list --json',
    },
    {
      kind: 'flag',
      name: 'force',
      description: 'Accept even where the authority changed after the pending capture was written.',
      example: 'rea review --accept --force',
    },
    {
      kind: 'flag',
      name: 'record-unfinished',
      description:
        'Accept a capture that did not run as its scenario expects, as the recordUnfinished option lets -u.',
      example: 'rea review --accept --record-unfinished',
    },
    {
      kind: 'value',
      name: 'accept-unknown',
      value: '<reason>',
      repeatable: true,
      defaultText: 'no unknown is accepted',
      description:
        'Accept a capture carrying unknowns with this reason code, as acceptUnknowns lets -u (once per reason).',
      example: 'rea review --accept --accept-unknown unrelated_process_unverified',
    },
  ],
  examples: ['rea review', 'rea review test/todo.test.ts'],
} as const satisfies CommandTable
