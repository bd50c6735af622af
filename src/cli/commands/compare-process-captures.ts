import { compareCaptures } from '../../compare/compare-captures.js'
import { formatComparison } from '../../compare/format-comparison.js'
import { firstScreenRowChange } from '../../compare/screen-row-change.js'
import { readTraceSpecFile } from '../../compare/trace/index.js'
import { readEvidenceFile } from '../../evidence/load.js'
import { settleEvidencePair } from '../../evidence/read-pair.js'
import { parseCommandLine, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { checkOutputPath, emitDocument, formatDocument, writesToTerminal } from '../output.js'
import { SCREENS_FLAG } from '../terminal-flag.js'
import { timingFlag } from '../timing-flag.js'
import { COMPARE_PROCESS_CAPTURES } from '../tables/compare-process-captures.js'

const EXIT_BY_VERDICT = {
  equivalent: EXIT.equivalent,
  different: EXIT.different,
  unknown: EXIT.unknown,
} as const

export const command: Command = {
  async run(argv) {
    const { values, positionals } = parseCommandLine(COMPARE_PROCESS_CAPTURES, argv)
    const [authorityPath, reconstructionPath, tracePath] = positionals as [string, string, string | undefined]
    const format = values.json ? 'json' : values.format
    const timing = timingFlag(values.timing, 'compare-process-captures')
    const terminal = values.terminal
    checkOutputPath(
      values.output,
      [
        { path: authorityPath, label: 'the authority' },
        { path: reconstructionPath, label: 'the reconstruction' },
        ...(tracePath === undefined ? [] : [{ path: tracePath, label: 'the trace specification' }]),
      ],
      'nothing was compared',
    )
    const [authority, reconstruction] = await settleEvidencePair(
      readEvidenceFile(authorityPath),
      readEvidenceFile(reconstructionPath),
    )
    const trace = tracePath === undefined ? undefined : await readTraceSpecFile(tracePath)
    const comparison = compareCaptures(authority, reconstruction, {
      timing,
      terminal,
      ...(trace === undefined ? {} : { trace }),
      sources: { authority: authorityPath, reconstruction: reconstructionPath },
    })
    const text =
      format === 'text'
        ? formatComparison(comparison, {
            color: writesToTerminal(values.output),
            screensOption: SCREENS_FLAG,
            rowChange: firstScreenRowChange(authority, reconstruction),
          })
        : await formatDocument(comparison, format, writesToTerminal(values.output))
    await emitDocument(text, values.output)
    return EXIT_BY_VERDICT[comparison.verdict]
  },
}
