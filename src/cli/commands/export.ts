import { isReaError, ReaError } from '../../errors.js'
import { readEvidenceFile } from '../../evidence/load.js'
import { exportAsciicast } from '../../export/asciicast.js'
import { exportScreenSvg } from '../../view/export-svg.js'
import { parseScreenMoment } from '../../view/screen-moment.js'
import { parseCommandLine, usageHint, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { checkOutputPath, emitDocument } from '../output.js'
import { EXPORT } from '../tables/export.js'

export const command: Command = {
  async run(argv) {
    const { values, positionals } = parseCommandLine(EXPORT, argv)
    const format = positionals[0]
    const evidencePath = positionals[1] as string
    const moment = format === 'svg' ? momentOption(values.at) : null
    if (format === 'asciicast' && values.at !== 'final') {
      throw new ReaError('INVALID_ARGUMENTS', '--at draws one screen: it is for rea export svg only.', {
        hint: usageHint(EXPORT),
      })
    }
    checkOutputPath(values.output, [{ path: evidencePath, label: 'the Evidence' }], 'nothing was written')
    const evidence = await readEvidenceFile(evidencePath)
    const document =
      moment === null
        ? exportAsciicast(evidence, { version: values['cast-version'] === '3' ? 3 : 2 })
        : withUsage(() => exportScreenSvg(evidence, moment))
    await emitDocument(document, values.output)
    return EXIT.ok
  },
}

function momentOption(text: string) {
  return withUsage(() => parseScreenMoment(text))
}

/** A moment that cannot be drawn is a usage error: the usage follows it, where the error has no hint of its own. */
function withUsage<T>(make: () => T): T {
  try {
    return make()
  } catch (error) {
    if (isReaError(error) && error.code === 'INVALID_ARGUMENTS' && error.hint === undefined) {
      throw new ReaError('INVALID_ARGUMENTS', error.message, { hint: usageHint(EXPORT), cause: error })
    }
    throw error
  }
}
