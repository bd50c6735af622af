import { checkCapabilities } from '../../capabilities.js'
import { parseCommandLine, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { emitDocument, formatDocument, writesToTerminal } from '../output.js'
import { CAPABILITIES } from '../tables/capabilities.js'

export const command: Command = {
  async run(argv) {
    const { values } = parseCommandLine(CAPABILITIES, argv)
    const report = await checkCapabilities()
    await emitDocument(
      await formatDocument(report, values.json ? 'json' : 'toon', writesToTerminal(undefined)),
      undefined,
    )
    return report.capture.status === 'available' ? EXIT.ok : EXIT.capabilityUnavailable
  },
}
