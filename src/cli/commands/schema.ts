import { jsonSchemaFor, SCHEMA_NAMES } from '../../index.js'
import { oneOf, parseCommandArguments, requirePositionals, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { emitDocument, formatDocument } from '../output.js'

export const schemaCommand: Command = {
  name: 'schema',
  summary: 'Print the JSON Schema of a document REA reads or writes',
  usage: `rea schema <${SCHEMA_NAMES.join('|')}>`,
  async run(argv) {
    const { positionals } = parseCommandArguments(this, argv, {})
    requirePositionals(this, positionals, ['name'])
    const name = oneOf(positionals[0] as string, SCHEMA_NAMES, 'schema name')
    await emitDocument(await formatDocument(jsonSchemaFor(name), 'json'), undefined)
    return EXIT.ok
  },
}
