import { compareCaptures } from '../../compare/compare-captures.js'
import { formatComparison } from '../../compare/format-comparison.js'
import { readTraceSpecFile } from '../../compare/trace/index.js'
import { readEvidenceFile } from '../../evidence/load.js'
import { settleEvidencePair } from '../../evidence/read-pair.js'
import { oneOf, parseCommandArguments, requirePositionals, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { checkOutputPath, emitDocument, formatDocument, OUTPUT_FORMATS, writesToTerminal } from '../output.js'
import { SCREENS_FLAG, terminalFlag } from '../terminal-flag.js'
import { timingFlag } from '../timing-flag.js'
import { COMMAND_TEXT } from '../command-text.js'

const FORMATS = ['text', ...OUTPUT_FORMATS] as const
const EXIT_BY_VERDICT = {
  equivalent: EXIT.equivalent,
  different: EXIT.different,
  unknown: EXIT.unknown,
} as const

export const command: Command = {
  usage: COMMAND_TEXT['compare-process-captures'].usage,
  async run(argv) {
    const { values, positionals } = parseCommandArguments(this, argv, {
      json: { type: 'boolean' },
      format: { type: 'string' },
      timing: { type: 'string' },
      terminal: { type: 'string' },
      output: { type: 'string', short: 'o' },
    })
    requirePositionals(this, positionals, ['authority.json', 'reconstruction.json', 'trace.json'], 1)
    const [authorityPath, reconstructionPath, tracePath] = positionals as [string, string, string | undefined]
    const format = values.json ? 'json' : oneOf(values.format ?? 'text', FORMATS, '--format')
    const timing = timingFlag(values.timing ?? 'tolerant', 'compare-process-captures')
    const terminal = terminalFlag(values.terminal, 'compare-process-captures')
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
          })
        : await formatDocument(comparison, format, writesToTerminal(values.output))
    await emitDocument(text, values.output)
    return EXIT_BY_VERDICT[comparison.verdict]
  },
}
