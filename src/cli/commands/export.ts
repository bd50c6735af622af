import { readEvidenceFile } from '../../evidence/load.js'
import { ASCIICAST_VERSIONS, exportAsciicast } from '../../export/asciicast.js'
import { oneOf, parseCommandArguments, requirePositionals, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { checkOutputPath, emitDocument } from '../output.js'
import { COMMAND_TEXT } from '../command-text.js'

const EXPORT_FORMATS = ['asciicast'] as const
const CAST_VERSIONS = ASCIICAST_VERSIONS.map(String)

export const command: Command = {
  usage: COMMAND_TEXT['export'].usage,
  async run(argv) {
    const { values, positionals } = parseCommandArguments(this, argv, {
      'cast-version': { type: 'string' },
      output: { type: 'string', short: 'o' },
    })
    requirePositionals(this, positionals, ['format', 'evidence.json'])
    const [format, evidencePath] = positionals as [string, string]
    oneOf(format, EXPORT_FORMATS, 'the export format')
    const version = Number(oneOf(values['cast-version'] ?? '2', CAST_VERSIONS, '--cast-version')) as 2 | 3
    checkOutputPath(values.output, [{ path: evidencePath, label: 'the Evidence' }], 'nothing was written')
    const evidence = await readEvidenceFile(evidencePath)
    await emitDocument(exportAsciicast(evidence, { version }), values.output)
    return EXIT.ok
  },
}
