import {
  compareCaptures,
  formatComparison,
  formatReaError,
  isReaError,
  readEvidenceFile,
  readTraceSpecFile,
  ReaError,
  TIMING_POLICIES,
  type Evidence,
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
    'rea compare-process-captures <authority.json> <reconstruction.json> [trace.json] [--json | --format text|toon|json] [--timing tolerant|strict] [--output <file>]',
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
    const timing = oneOf(values.timing ?? 'tolerant', TIMING_POLICIES, '--timing')
    const [authority, reconstruction] = await readBoth(authorityPath, reconstructionPath)
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

/** Both files are read and validated, so one run reports the problems of both. */
async function readBoth(authorityPath: string, reconstructionPath: string): Promise<[Evidence, Evidence]> {
  const [authority, reconstruction] = await Promise.allSettled([
    readEvidenceFile(authorityPath),
    readEvidenceFile(reconstructionPath),
  ])
  if (authority.status === 'fulfilled' && reconstruction.status === 'fulfilled') {
    return [authority.value, reconstruction.value]
  }
  const failures: unknown[] = []
  for (const result of [authority, reconstruction]) {
    if (result.status === 'rejected') {
      failures.push(result.reason)
    }
  }
  const [first, second] = failures
  if (second === undefined || !isReaError(first) || !isReaError(second)) {
    throw first
  }
  throw new ReaError(first.code, `${formatReaError(first)}\n${formatReaError(second)}`)
}
