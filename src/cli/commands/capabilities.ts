import { checkCapabilities } from '../../capabilities.js'
import { parseCommandArguments, requirePositionals, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { emitDocument, formatDocument, writesToTerminal } from '../output.js'
import { COMMAND_TEXT } from '../command-text.js'

export const command: Command = {
  usage: COMMAND_TEXT['capabilities'].usage,
  async run(argv) {
    const { values, positionals } = parseCommandArguments(this, argv, { json: { type: 'boolean' } })
    requirePositionals(this, positionals, [])
    const report = await checkCapabilities()
    await emitDocument(
      await formatDocument(report, values.json === true ? 'json' : 'toon', writesToTerminal(undefined)),
      undefined,
    )
    return report.capture.status === 'available' ? EXIT.ok : EXIT.capabilityUnavailable
  },
}
