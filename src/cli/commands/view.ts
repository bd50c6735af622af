import { compareCaptures } from '../../compare/compare-captures.js'
import { ReaError } from '../../errors.js'
import { readEvidenceFile } from '../../evidence/load.js'
import { renderDivergencePage } from '../../view/render-page.js'
import { settleEvidencePair } from '../../evidence/read-pair.js'
import { parseCommandArguments, requirePositionals, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { checkOutputPath, emitDocument } from '../output.js'
import { terminalFlag } from '../terminal-flag.js'
import { timingFlag } from '../timing-flag.js'
import { COMMAND_TEXT } from '../command-text.js'

export const command: Command = {
  usage: COMMAND_TEXT['view'].usage,
  async run(argv) {
    const { values, positionals } = parseCommandArguments(this, argv, {
      output: { type: 'string', short: 'o' },
      timing: { type: 'string' },
      terminal: { type: 'string' },
    })
    requirePositionals(this, positionals, ['authority.json', 'reconstruction.json'])
    const [authorityPath, reconstructionPath] = positionals as [string, string]
    const timing = timingFlag(values.timing ?? 'tolerant', 'view')
    const terminal = terminalFlag(values.terminal, 'view')
    checkOutputPath(
      values.output,
      [
        { path: authorityPath, label: 'the authority' },
        { path: reconstructionPath, label: 'the reconstruction' },
      ],
      'nothing was written',
    )
    if (values.output === undefined && process.stdout.isTTY) {
      throw new ReaError('INVALID_ARGUMENTS', 'The page is HTML, which a terminal cannot show.', {
        hint: 'Write it to a file with --output page.html (or redirect stdout), then open that file in a browser.',
      })
    }
    const [authority, reconstruction] = await settleEvidencePair(
      readEvidenceFile(authorityPath),
      readEvidenceFile(reconstructionPath),
    )
    const comparison = compareCaptures(authority, reconstruction, {
      timing,
      terminal,
      sources: { authority: authorityPath, reconstruction: reconstructionPath },
    })
    await emitDocument(renderDivergencePage({ authority, reconstruction, comparison }), values.output)
    return EXIT.ok
  },
}
