import type { CommandTable } from '../command-table.js'

export const SCHEMA = {
  name: 'schema',
  summary: 'Print the JSON Schema of a document REA reads or writes',
  docs: 'docs/cli.md#rea-schema',
  positionals: [
    {
      name: 'schema name',
      // The names of json-schemas.ts's SCHEMA_NAMES; a unit test keeps the two the same without loading the schemas here.
      choices: ['scenario', 'evidence', 'trace', 'comparison'],
      description:
        'The document: a scenario or trace specification (what you write), Evidence or a comparison.',
    },
  ],
  options: [],
  examples: ['rea schema scenario > scenario.schema.json'],
} as const satisfies CommandTable
