import { describe, expect, test } from 'vitest'
import {
  captureProcess,
  parseEvidence,
  type Evidence,
  type ProcessScenarioInput,
  type TerminalFrame,
} from '../../src/index.js'

// Binds a real ephemeral port, so the number differs from run to run, and prints it as a URL.
const SERVER = String.raw`
const server = require('node:net').createServer()
server.listen(0, '127.0.0.1', () => {
  console.log('listening on http://127.0.0.1:' + server.address().port + '/')
  server.close()
})`

const captureServer = (normalization: ProcessScenarioInput['normalization']) =>
  captureProcess({
    executable: process.execPath,
    arguments: ['-e', SERVER],
    ...(normalization === undefined ? {} : { normalization }),
  })

const comparisonText = (evidence: Evidence) => evidence.terminal.chunks.map((chunk) => chunk.data).join('')
const originalText = (evidence: Evidence) =>
  evidence.terminal.chunks.map((chunk) => chunk.raw_data ?? chunk.data).join('')
const finalFrame = (evidence: Evidence) => {
  const frame = evidence.terminal.frames.find((candidate) => candidate.trigger === 'final')
  expect(frame?.status).toBe('retained')
  return frame as Extract<TerminalFrame, { status: 'retained' }>
}

/** The port the server printed, read from the original text. */
function printedPort(evidence: Evidence): number {
  const found = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(originalText(evidence))
  expect(found, 'the original text shows the bound port').not.toBeNull()
  return Number(found![1])
}

describe('normalization during capture', () => {
  test('replaces the port in data and frames, keeps it in raw_data and commits both versions', async () => {
    const evidence = await captureServer({ patterns: [{ pattern: 'listening', replacement: 'serving' }] })
    const port = printedPort(evidence)
    expect(port).toBeGreaterThan(0)
    expect(comparisonText(evidence)).toContain('serving on http://127.0.0.1:<port>/\r\n')
    expect(comparisonText(evidence)).not.toContain(`:${port}/`)
    const changed = evidence.terminal.chunks.filter((chunk) => chunk.raw_data !== undefined)
    expect(changed.length).toBeGreaterThan(0)
    expect(changed.map((chunk) => chunk.raw_data).join('')).toContain(
      `listening on http://127.0.0.1:${port}/`,
    )

    const frame = finalFrame(evidence)
    expect(frame.lines).toContain('serving on http://127.0.0.1:<port>/')
    expect(frame.serialized_state).toContain('<port>')
    expect(frame.serialized_state).not.toContain(`:${port}/`)

    expect(evidence.commitments.normalization.value).toMatchObject({
      ports: true,
      port_normalization_version: 'endpoint-ports-v1',
      pattern_normalization_version: 'literal-replacements-v1',
    })
    expect(evidence.commitments.comparison_contract.value.normalization).toEqual(
      evidence.commitments.normalization.value,
    )
    expect(parseEvidence(JSON.parse(JSON.stringify(evidence)))).toEqual(evidence)
  })

  test('keeps the port and commits no version with ports: false and no patterns', async () => {
    const evidence = await captureServer({ ports: false })
    const port = printedPort(evidence)
    expect(comparisonText(evidence)).toContain(`listening on http://127.0.0.1:${port}/`)
    expect(evidence.terminal.chunks.some((chunk) => chunk.raw_data !== undefined)).toBe(false)
    expect(finalFrame(evidence).lines).toContain(`listening on http://127.0.0.1:${port}/`)
    expect(evidence.commitments.normalization.value).toMatchObject({
      ports: false,
      port_normalization_version: null,
      pattern_normalization_version: null,
    })
  })

  test('inserts a replacement with dollar sequences as written', async () => {
    const evidence = await captureServer({
      ports: false,
      patterns: [{ pattern: 'listening', replacement: "$& $$ $1 $'" }],
    })
    const port = printedPort(evidence)
    expect(comparisonText(evidence)).toContain(`$& $$ $1 $' on http://127.0.0.1:${port}/`)
    expect(finalFrame(evidence).lines).toContain(`$& $$ $1 $' on http://127.0.0.1:${port}/`)
    expect(evidence.commitments.normalization.value).toMatchObject({
      port_normalization_version: null,
      patterns: [{ pattern: 'listening', replacement: "$& $$ $1 $'" }],
      pattern_normalization_version: 'literal-replacements-v1',
    })
  })
})
