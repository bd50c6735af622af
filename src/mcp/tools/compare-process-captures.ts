import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { compareCaptures } from '../../compare/compare-captures.js'
import {
  TERMINAL_LEVELS,
  type TerminalLevel,
  TIMING_POLICIES,
  type TimingPolicy,
} from '../../compare/comparison-schema.js'
import { formatComparison } from '../../compare/format-comparison.js'
import { firstScreenRowChange } from '../../compare/screen-row-change.js'
import { terminalLevelIssues } from '../../compare/terminal/level.js'
import { timingPolicyIssues } from '../../compare/timing.js'
import { parseTraceSpec, readTraceSpecFile, type TraceSpec } from '../../compare/trace/index.js'
import { type ReaIssue } from '../../errors.js'
import { parseEvidence, readEvidenceFile } from '../../evidence/load.js'
import { settleEvidencePair } from '../../evidence/read-pair.js'
import { type Evidence } from '../../evidence/schema.js'
import { READ_ONLY_ANNOTATIONS, type ReaTool } from '../tool.js'
import {
  describeArgument,
  invalidArguments,
  isRecord,
  pathIssues,
  requiredIssue,
  unknownFieldIssues,
  type ToolArguments,
} from '../tool-arguments.js'
import { toolResult } from '../tool-results.js'

const TOOL = 'compare_process_captures'
const SIDES = ['authority', 'reconstruction'] as const
type Side = (typeof SIDES)[number]
/** A saved document is named by its path; an inline one is the document itself. */
type DocumentArgument = string | Record<string, unknown>

const evidenceArgumentSchema = (side: Side) =>
  z
    .union([
      z.string().min(1).describe(`Path of the ${side} Evidence file (JSON), relative to the capture root.`),
      z
        .looseObject({})
        .describe(`The ${side} Evidence document itself, as capture_process_scenario returns it.`),
    ])
    .describe(`The ${side} capture: a file path or an inline Evidence document.`)

/** Describes the arguments for clients; they are checked below so that document errors keep the CLI's text. */
const argumentsSchema = z.strictObject({
  authority: evidenceArgumentSchema('authority'),
  reconstruction: evidenceArgumentSchema('reconstruction'),
  trace: z
    .union([
      z.string().min(1).describe('Path of a trace specification file (JSON), relative to the capture root.'),
      z.looseObject({}).describe('A trace specification document (`rea schema trace`).'),
    ])
    .optional()
    .describe('When given, both captures must satisfy it and its verdict decides.'),
  timing: z
    .union([
      z.enum(TIMING_POLICIES),
      z
        .strictObject({
          tolerance_ms: z.int().min(0).describe('Times differ only when more than this many ms apart …'),
          ratio: z.number().min(0).max(1).describe('… and more than this share of the larger time.'),
        })
        .describe('An explicit tolerance.'),
    ])
    .default('tolerant')
    .describe(
      '`tolerant` lets timing values drift within the documented tolerance (250 ms and 50 %), `strict` wants ' +
        'them equal, `ignore` shows them without comparing, `{ tolerance_ms, ratio }` sets the tolerance.',
    ),
  terminal: z
    .enum(TERMINAL_LEVELS)
    .default('stream')
    .describe(
      '`stream` compares the normalized terminal output byte for byte and the checkpoint frames as recorded; ' +
        '`screens` compares what every checkpoint screen shows, cell by cell (colours and attributes included), ' +
        'for programs that draw the same screens in a timing-dependent order; stream differences become notes.',
    ),
})
const FIELDS = Object.keys(argumentsSchema.shape)

interface CompareArguments {
  readonly authority: DocumentArgument
  readonly reconstruction: DocumentArgument
  readonly trace: DocumentArgument | undefined
  readonly timing: TimingPolicy
  readonly terminal: TerminalLevel
}

export function compareProcessCapturesTool(): ReaTool {
  return {
    name: TOOL,
    title: 'Compare two process captures',
    description:
      'Compare an authority capture with a reconstruction, as `rea compare-process-captures` does: terminal, ' +
      'interaction, exit, filesystem and process dimensions under a shared comparison contract, each equal, ' +
      'different, unknown or not_selected, with the first divergence and a terminal diff. Each side is an ' +
      'Evidence file path or an inline Evidence document; an optional trace specification makes its verdict ' +
      'decide. Returns the comparison document as structured content and the same report as text. The ' +
      'verdict (equivalent, different, unknown) is a result, not an error; invalid or edited Evidence and ' +
      'captures under different comparison contracts are errors. Works on every platform: it launches nothing.',
    inputSchema: z.toJSONSchema(argumentsSchema, {
      io: 'input',
      unrepresentable: 'any',
    }) as Tool['inputSchema'],
    annotations: READ_ONLY_ANNOTATIONS,
    async run(args) {
      const { authority, reconstruction, trace, timing, terminal } = checkArguments(args)
      // Both sides are read and validated, so one call reports the problems of both, as the CLI does.
      const [authorityEvidence, reconstructionEvidence] = await settleEvidencePair(
        loadEvidence('authority', authority),
        loadEvidence('reconstruction', reconstruction),
      )
      const spec = trace === undefined ? undefined : await loadTraceSpec(trace)
      const sources: { authority?: string; reconstruction?: string } = {}
      if (typeof authority === 'string') {
        sources.authority = authority
      }
      if (typeof reconstruction === 'string') {
        sources.reconstruction = reconstruction
      }
      const comparison = compareCaptures(authorityEvidence, reconstructionEvidence, {
        timing,
        terminal,
        sources,
        ...(spec === undefined ? {} : { trace: spec }),
      })
      return toolResult(
        formatComparison(comparison, {
          color: false,
          screensOption: 'the argument terminal: "screens"',
          rowChange: firstScreenRowChange(authorityEvidence, reconstructionEvidence),
        }),
        comparison,
      )
    },
  }
}

function checkArguments(args: ToolArguments): CompareArguments {
  const issues: ReaIssue[] = unknownFieldIssues(args, FIELDS)
  for (const side of SIDES) {
    issues.push(...documentIssues(side, args[side], 'an Evidence'))
  }
  if (args['trace'] !== undefined) {
    issues.push(...documentIssues('trace', args['trace'], 'a trace specification'))
  }
  const timing = args['timing'] === undefined ? 'tolerant' : args['timing']
  issues.push(...timingPolicyIssues(timing, 'timing'))
  const terminal = args['terminal'] === undefined ? 'stream' : args['terminal']
  issues.push(...terminalLevelIssues(terminal, 'terminal'))
  if (issues.length > 0) {
    throw invalidArguments(TOOL, issues, 'nothing was compared')
  }
  return {
    authority: args['authority'] as DocumentArgument,
    reconstruction: args['reconstruction'] as DocumentArgument,
    trace: args['trace'] as DocumentArgument | undefined,
    timing: timing as TimingPolicy,
    terminal: terminal as TerminalLevel,
  }
}

function documentIssues(path: string, value: unknown, kind: string): ReaIssue[] {
  if (value === undefined) {
    return [requiredIssue(path)]
  }
  if (isRecord(value)) {
    return []
  }
  if (typeof value === 'string') {
    return pathIssues(path, value)
  }
  return [
    {
      path,
      rule: 'type',
      message: `must be a file path or ${kind} document (an object): got ${describeArgument(value)}`,
    },
  ]
}

async function loadEvidence(side: Side, value: DocumentArgument): Promise<Evidence> {
  return typeof value === 'string'
    ? readEvidenceFile(value)
    : parseEvidence(value, `${side} (inline Evidence)`)
}

async function loadTraceSpec(value: DocumentArgument): Promise<TraceSpec> {
  return typeof value === 'string' ? readTraceSpecFile(value) : parseTraceSpec(value, 'trace (inline)')
}
