import { jsonSchemaFor, type SchemaName } from '../../json-schemas.js'
import { parseCommandLine, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { emitDocument, formatDocument } from '../output.js'
import { SCHEMA } from '../tables/schema.js'

export const command: Command = {
  async run(argv) {
    // The parser checked the name against the table's choices, which a unit test holds to SCHEMA_NAMES.
    const name = parseCommandLine(SCHEMA, argv).positionals[0] as SchemaName
    await emitDocument(await formatDocument(jsonSchemaFor(name), 'json'), undefined)
    return EXIT.ok
  },
}
