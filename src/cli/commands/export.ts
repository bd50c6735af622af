import { readEvidenceFile } from '../../evidence/load.js'
import { exportAsciicast } from '../../export/asciicast.js'
import { parseCommandLine, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { checkOutputPath, emitDocument } from '../output.js'
import { EXPORT } from '../tables/export.js'

export const command: Command = {
  async run(argv) {
    const { values, positionals } = parseCommandLine(EXPORT, argv)
    const evidencePath = positionals[1] as string
    const version = values['cast-version'] === '3' ? 3 : 2
    checkOutputPath(values.output, [{ path: evidencePath, label: 'the Evidence' }], 'nothing was written')
    const evidence = await readEvidenceFile(evidencePath)
    await emitDocument(exportAsciicast(evidence, { version }), values.output)
    return EXIT.ok
  },
}
