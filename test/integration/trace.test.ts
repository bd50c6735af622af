import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  checkTrace,
  formatTraceResult,
  parseTraceSpec,
  readTraceSpecFile,
  TRACE_SPEC_FORMAT,
  type TraceSpec,
} from '../../src/compare/trace/index.js'
import { captureProcess, serializeEvidence, validateScenario, type Evidence } from '../../src/index.js'
import { parseEvidenceText } from '../../src/front-end.js'
import { program, REPO_ROOT } from '../helpers/fixtures.js'

const EXAMPLE = path.join(REPO_ROOT, 'examples/two-workers')
const RUNS = 5

describe('the two-workers example', () => {
  // A copy under a temporary capture root, so the runs never touch the repository's example folder.
  let root: string
  let spec: TraceSpec
  const captures: Evidence[] = []

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'rea-trace-'))
    cpSync(EXAMPLE, path.join(root, 'examples/two-workers'), {
      recursive: true,
      filter: (source) => path.basename(source) !== 'out',
    })
    spec = await readTraceSpecFile(path.join(EXAMPLE, 'trace.json'))
    const scenario = validateScenario(JSON.parse(readFileSync(path.join(EXAMPLE, 'scenario.json'), 'utf8')))
    for (let run = 0; run < RUNS; run++) {
      // The program refuses to reuse ./out: the before_launch snapshot must not hold an earlier run's files.
      rmSync(path.join(root, 'examples/two-workers/out'), { recursive: true, force: true })
      const evidence = await captureProcess(scenario, { root })
      // Checked as the CLI would: after a round trip through the saved file format.
      captures.push(parseEvidenceText(serializeEvidence(evidence), `run ${run}`))
    }
  })

  afterAll(() => {
    rmSync(root, { recursive: true, force: true })
  })

  test(`satisfies its trace in each of ${RUNS} runs, whichever worker finishes first`, () => {
    expect(captures).toHaveLength(RUNS)
    for (const evidence of captures) {
      const result = checkTrace(evidence, spec)
      expect(result.verdict, formatTraceResult(result).join('\n')).toBe('satisfied')
      expect(result.observed).toEqual({
        lines: 5,
        partial_lines: 0,
        interactions: 0,
        exits: 1,
        file_effects: 3,
      })
    }
  })

  test('is violated by a specification that leaves out the final line, located in the capture', () => {
    const withoutAllDone = parseTraceSpec({
      ...spec,
      events: spec.events.filter((event) => event.id !== 'all-done'),
      order: spec.order.filter(
        (constraint) => constraint.before !== 'all-done' && constraint.after !== 'all-done',
      ),
    })
    const evidence = captures[0]!
    const result = checkTrace(evidence, withoutAllDone)
    expect(result.verdict).toBe('violated')
    expect(result.violations).toEqual([
      {
        kind: 'unmatched_observation',
        observation: expect.objectContaining({ kind: 'line', text: 'all done' }) as unknown,
        detail: expect.any(String) as unknown,
      },
    ])
    const observation =
      result.violations[0]!.kind === 'unmatched_observation' ? result.violations[0]!.observation : undefined
    if (observation?.kind !== 'line') {
      throw new Error('expected a line observation')
    }
    const chunk = evidence.terminal.chunks[observation.chunk_index]!
    expect(chunk.sequence).toBeLessThanOrEqual(observation.sequence)
    expect(Buffer.from(chunk.data).subarray(observation.byte_offset).toString()).toMatch(/^all done/)
  })

  test('is violated when a worker is expected to finish before the other', () => {
    const aThenB = parseTraceSpec({ ...spec, order: [...spec.order, { before: 'a-done', after: 'b-done' }] })
    const bThenA = parseTraceSpec({ ...spec, order: [...spec.order, { before: 'b-done', after: 'a-done' }] })
    for (const evidence of captures) {
      // Exactly one of the two finishing orders happened in each run, and the other is a proven inversion.
      const verdicts = [checkTrace(evidence, aThenB).verdict, checkTrace(evidence, bThenA).verdict].sort()
      expect(verdicts).toEqual(['satisfied', 'violated'])
    }
  })
})

describe('a trace with an interaction', () => {
  test('accepts the prompt, the dispatched input and the answer in order', async () => {
    const evidence = await captureProcess({
      executable: 'node',
      arguments: [program('prompt.mjs'), 'Name? '],
      // Typed once the prompt shows: typed earlier, a slow start echoes it on a line of its own.
      events: [{ type: 'input', data: 'Ada\r', after: { output: 'Name? ' } }],
    })
    const spec = parseTraceSpec({
      format: TRACE_SPEC_FORMAT,
      format_version: 1,
      events: [
        // readline draws the prompt with cursor moves; they are removed, and the echo completes the line.
        { id: 'prompt', line: 'Name? Ada' },
        { id: 'type', interaction: { event_index: 0, type: 'input', outcome: 'dispatched' } },
        { id: 'answer', line: 'You entered: Ada' },
        { id: 'exit', exit: { reason: 'exited', code: 0, signal: 0 } },
      ],
      order: [
        { before: 'type', after: 'prompt' },
        { before: 'type', after: 'answer' },
        { before: 'answer', after: 'exit' },
      ],
    })
    const result = checkTrace(evidence, spec)
    expect(result.verdict, formatTraceResult(result).join('\n')).toBe('satisfied')
  })
})
