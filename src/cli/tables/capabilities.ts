import type { CommandTable } from '../command-table.js'

export const CAPABILITIES = {
  name: 'capabilities',
  summary: 'Diagnose whether this host can capture (PTY backend, process inspection)',
  docs: 'docs/cli.md#rea-capabilities',
  positionals: [],
  options: [
    {
      kind: 'flag',
      name: 'json',
      description: 'Write the report as JSON instead of TOON.',
      example: 'rea capabilities --json',
    },
  ],
} as const satisfies CommandTable
