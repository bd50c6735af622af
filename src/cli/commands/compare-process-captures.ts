import {
  compareCaptures,
  formatComparison,
  readEvidenceFile,
  readTraceSpecFile,
  parseTimingPolicy,
  settleEvidencePair,
  type TimingPolicy,
} from '../../index.js'
import { oneOf, parseCommandArguments, requirePositionals, type Command } from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { emitDocument, formatDocument, OUTPUT_FORMATS } from '../output.js'

const FORMATS = ['text', ...OUTPUT_FORMATS] as const
const EXIT_BY_VERDICT = {
  equivalent: EXIT.equivalent,
  different: EXIT.different,
  unknown: EXIT.unknown,
} as const

export const compareProcessCapturesCommand: Command = {
  name: 'compare-process-captures',
  summary: 'Compare an authority capture with a reconstruction (exit 0 equivalent, 1 different, 2 unknown)',
  usage:
    'rea compare-process-captures <authority.json> <reconstruction.json> [trace.json] [--json | --format text|toon|json] [--timing tolerant|strict|ignore|tolerance_ms=<ms>,ratio=<0..1>] [--output <file>]',
  async run(argv) {
    const { values, positionals } = parseCommandArguments(this, argv, {
      json: { type: 'boolean' },
      format: { type: 'string' },
      timing: { type: 'string' },
      output: { type: 'string', short: 'o' },
    })
    requirePositionals(this, positionals, ['authority.json', 'reconstruction.json', 'trace.json'], 1)
    const [authorityPath, reconstructionPath, tracePath] = positionals as [string, string, string | undefined]
    const format = values.json ? 'json' : oneOf(values.format ?? 'text', FORMATS, '--format')
    const timing = timingFlag(values.timing ?? 'tolerant')
    const [authority, reconstruction] = await settleEvidencePair(
      readEvidenceFile(authorityPath),
      readEvidenceFile(reconstructionPath),
    )
    const trace = tracePath === undefined ? undefined : await readTraceSpecFile(tracePath)
    const comparison = compareCaptures(authority, reconstruction, {
      timing,
      ...(trace === undefined ? {} : { trace }),
      sources: { authority: authorityPath, reconstruction: reconstructionPath },
    })
    const text =
      format === 'text'
        ? formatComparison(comparison, { color: values.output === undefined && process.stdout.isTTY })
        : await formatDocument(comparison, format)
    await emitDocument(text, values.output)
    return EXIT_BY_VERDICT[comparison.verdict]
  },
}

/** `--timing tolerant|strict|ignore`, or an explicit tolerance written `tolerance_ms=500,ratio=0.75`. */
function timingFlag(text: string): TimingPolicy {
  const hint =
    'Write --timing tolerant, strict, ignore, or an explicit tolerance: --timing tolerance_ms=500,ratio=0.75.'
  if (!text.includes('=')) {
    return parseTimingPolicy(text, '--timing', 'compare-process-captures --timing', hint)
  }
  const fields: Record<string, unknown> = {}
  for (const pair of text.split(',')) {
    const [name = '', value = ''] = pair.split('=', 2).map((part) => part.trim())
    fields[name] = value === '' || Number.isNaN(Number(value)) ? value : Number(value)
  }
  return parseTimingPolicy(fields, '--timing', 'compare-process-captures --timing', hint)
}
