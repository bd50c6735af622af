import { compareCaptures } from '../../compare/compare-captures.js'
import { ReaError } from '../../errors.js'
import { readEvidenceFile } from '../../evidence/load.js'
import { renderDivergencePage } from '../../view/render-page.js'
import { settleEvidencePair } from '../../evidence/read-pair.js'
import { parseCommandLine, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { checkOutputPath, emitDocument } from '../output.js'
import { timingFlag } from '../timing-flag.js'
import { VIEW } from '../tables/view.js'

export const command: Command = {
  async run(argv) {
    const { values, positionals } = parseCommandLine(VIEW, argv)
    const [authorityPath, reconstructionPath] = positionals as [string, string]
    const timing = timingFlag(values.timing, 'view')
    const terminal = values.terminal
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
