import { jsonSchemaFor, SCHEMA_NAMES } from '../../json-schemas.js'
import { oneOf, parseCommandArguments, requirePositionals, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { emitDocument, formatDocument } from '../output.js'
import { COMMAND_TEXT } from '../command-text.js'

export const command: Command = {
  usage: COMMAND_TEXT['schema'].usage,
  async run(argv) {
    const { positionals } = parseCommandArguments(this, argv, {})
    requirePositionals(this, positionals, ['name'])
    const name = oneOf(positionals[0] as string, SCHEMA_NAMES, 'schema name')
    await emitDocument(await formatDocument(jsonSchemaFor(name), 'json'), undefined)
    return EXIT.ok
  },
}
