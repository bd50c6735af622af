import type { CommandTable } from '../command-table.js'

export const MCP = {
  name: 'mcp',
  summary: 'Serve capture and comparison to MCP clients over stdio (see docs/mcp.md)',
  docs: 'docs/mcp.md',
  positionals: [],
  options: [
    {
      kind: 'value',
      name: 'root',
      value: '<directory>',
      defaultText: 'the current directory',
      description: 'The capture root, against which the paths in tool calls resolve.',
      example: 'rea mcp --root /path/to/project',
    },
  ],
} as const satisfies CommandTable
