import { createHash } from 'node:crypto'
import { canonicalJson } from '../evidence/canonical-json.js'
import type { Evidence } from '../evidence/schema.js'
import { REA_VERSION } from '../version.js'
import {
  COMPARISON_FORMAT,
  COMPARISON_FORMAT_VERSION,
  DIMENSIONS,
  type Comparison,
  type DimensionResult,
  type Difference,
  type TerminalLevel,
  type TimingPolicy,
  type Verdict,
} from './comparison-schema.js'
import { assertSameContract } from './contract.js'
import { storedSides } from './stored-sides.js'
import { suggestIdRedactions } from './hints/id-redaction-hint.js'
import { suggestNormalization } from './hints/normalization-hint.js'
import { unusedRules } from './hints/unused-rules.js'
import { compareExit } from './exit.js'
import { compareFilesystem } from './filesystem.js'
import { compareInteractions } from './interaction.js'
import { compareProcess } from './process.js'
import { withUnobserved } from './unknowns/residual-unknowns.js'
import { parseTimingPolicy, timingRecord } from './timing.js'
import { compareTerminal } from './terminal/compare-terminal.js'
import { parseTerminalLevel } from './terminal/level.js'
import { terminalDiff } from './terminal/diff.js'
import { terminalStream } from './terminal/stream.js'
import { checkTrace, type TraceResult, type TraceSpec } from './trace/index.js'

export interface CompareOptions {
  /**
   * `tolerant` (default) lets timing values drift within the documented tolerance, `strict` wants them equal,
   * `ignore` shows them without comparing, and `{ tolerance_ms, ratio }` sets the tolerance.
   */
  readonly timing?: TimingPolicy
  /**
   * How the terminal dimension is compared: `stream` (default) compares the normalized output byte for byte and
   * the checkpoint frames as recorded; `screens` compares what every checkpoint screen shows, cell by cell, and
   * reports stream differences as notes.
   */
  readonly terminal?: TerminalLevel
  /** When given, both captures must satisfy it and its verdict decides. */
  readonly trace?: TraceSpec
  /** Where each side came from (a file path), recorded in the document for people. */
  readonly sources?: { readonly authority?: string; readonly reconstruction?: string }
}

/**
 * Compares an authority capture with a reconstruction, dimension by dimension, and says where they diverge.
 * Both must be imported Evidence (`parseEvidence`, `readEvidenceFile`, or a fresh `captureProcess` result).
 * Throws CONTRACT_MISMATCH, naming every differing field, when they were not captured under the same
 * comparison contract, and INVALID_ARGUMENTS for a timing policy or terminal level that is not valid. What either side did not
 * fully observe makes its dimension unknown, never equal.
 *
 * @example
 * const comparison = compareCaptures(await readEvidenceFile('authority.json'), await captureProcess(scenario))
 * if (comparison.verdict !== 'equivalent') console.log(formatComparison(comparison))
 */
export function compareCaptures(
  authority: Evidence,
  reconstruction: Evidence,
  options: CompareOptions = {},
): Comparison {
  ;[authority, reconstruction] = storedSides(authority, reconstruction)
  assertSameContract(authority, reconstruction)
  const policy =
    options.timing === undefined ? 'tolerant' : parseTimingPolicy(options.timing, 'timing', 'compareCaptures')
  const level =
    options.terminal === undefined
      ? 'stream'
      : parseTerminalLevel(options.terminal, 'terminal', 'compareCaptures')
  const streams = { authority: terminalStream(authority), reconstruction: terminalStream(reconstruction) }
  const compared = {
    terminal: compareTerminal(authority, reconstruction, streams, level),
    interaction: compareInteractions(authority, reconstruction, policy),
    exit: compareExit(authority, reconstruction, policy),
    filesystem: compareFilesystem(authority, reconstruction),
    process: compareProcess(authority, reconstruction, policy),
  }
  const dimensions = Object.fromEntries(
    DIMENSIONS.map((name) => [name, withUnobserved(name, compared[name], authority, reconstruction)]),
  ) as typeof compared
  const trace = options.trace === undefined ? null : traceVerdicts(authority, reconstruction, options.trace)
  return {
    format: COMPARISON_FORMAT,
    format_version: COMPARISON_FORMAT_VERSION,
    rea_version: REA_VERSION,
    verdict: trace === null ? dimensionVerdict(dimensions) : TRACE_TO_VERDICT[trace.verdict],
    verdict_basis: trace === null ? 'dimensions' : 'trace',
    contract_sha256: authority.commitments.comparison_contract.sha256,
    authority: side(authority, options.sources?.authority),
    reconstruction: side(reconstruction, options.sources?.reconstruction),
    timing: timingRecord(policy),
    terminal_level: level,
    // Only a failing stream comparison asks whether the screens would have held: it costs a replay of each frame.
    screens_equal:
      level === 'stream' && dimensions.terminal.outcome === 'different'
        ? withUnobserved(
            'terminal',
            compareTerminal(authority, reconstruction, streams, 'screens'),
            authority,
            reconstruction,
          ).outcome === 'equal'
        : null,
    dimensions,
    first_divergence: firstDivergence(dimensions),
    unknowns: DIMENSIONS.flatMap((dimension) =>
      dimensions[dimension].unknowns.map((unknown) => ({ dimension, ...unknown })),
    ),
    terminal_diff: terminalDiff(streams.authority.text, streams.reconstruction.text),
    normalization_hint:
      dimensions.terminal.outcome === 'different'
        ? (suggestNormalization(authority, reconstruction, {
            authority: streams.authority.text,
            reconstruction: streams.reconstruction.text,
          }) ?? null)
        : null,
    ...idRedactionHint(dimensions.terminal.outcome === 'different', authority, streams),
    ...(dimensions.terminal.outcome === 'different' && unusedRules(authority, reconstruction).length > 0
      ? { unused_rules: unusedRules(authority, reconstruction) }
      : {}),
    trace,
  }
}

/** A proposed redaction, present only when the terminal differs in an id-like value no filter covers. */
function idRedactionHint(
  different: boolean,
  authority: Evidence,
  streams: {
    readonly authority: { readonly text: string }
    readonly reconstruction: { readonly text: string }
  },
) {
  if (!different) {
    return {}
  }
  const hint = suggestIdRedactions(
    { authority: streams.authority.text, reconstruction: streams.reconstruction.text },
    authority.commitments.comparison_contract.value.normalization.redactions ?? [],
  )
  return hint === undefined ? {} : { redaction_hint: hint }
}

/**
 * The first difference in dimension order, unless an earlier dimension is unknown: what was not observed there
 * may hold an earlier divergence, so no difference can honestly be called the first.
 */
function firstDivergence(
  dimensions: Record<(typeof DIMENSIONS)[number], DimensionResult>,
): Difference | null {
  for (const name of DIMENSIONS) {
    const result = dimensions[name]
    if (result.outcome === 'unknown') {
      return null
    }
    const first = result.differences[0]
    if (first !== undefined) {
      return first
    }
  }
  return null
}

function dimensionVerdict(dimensions: Record<(typeof DIMENSIONS)[number], DimensionResult>): Verdict {
  const outcomes = DIMENSIONS.map((name) => dimensions[name].outcome)
  return outcomes.includes('different')
    ? 'different'
    : outcomes.includes('unknown')
      ? 'unknown'
      : 'equivalent'
}

const TRACE_TO_VERDICT = { satisfied: 'equivalent', violated: 'different', unknown: 'unknown' } as const

/** Both captures must satisfy the specification: one violation decides, then any unknown. */
function traceVerdicts(
  authority: Evidence,
  reconstruction: Evidence,
  spec: TraceSpec,
): NonNullable<Comparison['trace']> {
  const results: [TraceResult, TraceResult] = [checkTrace(authority, spec), checkTrace(reconstruction, spec)]
  const verdicts = results.map((result) => result.verdict)
  return {
    verdict: verdicts.includes('violated')
      ? 'violated'
      : verdicts.includes('unknown')
        ? 'unknown'
        : 'satisfied',
    spec_sha256: createHash('sha256').update(canonicalJson(spec)).digest('hex'),
    authority: results[0],
    reconstruction: results[1],
  }
}

function side(evidence: Evidence, source: string | undefined): Comparison['authority'] {
  const executable = evidence.commitments.executable.value
  return {
    source: source ?? null,
    identity_digest: evidence.identity_digest,
    executable: executable.executable,
    arguments: executable.arguments,
    captured_at: evidence.captured_at,
  }
}
