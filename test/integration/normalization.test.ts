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

describe('stream rules during capture', () => {
  const root = process.cwd()

  test('replace a path the program wrote in two writes, and commit rule names, never values', async () => {
    // Two write(2) calls back to back: a pause between them longer than the quiet release (10 ms, which a starved
    // child on a loaded machine can take, as in one clean-clone CI run) releases the first half as it stands, as
    // documented, and the Evidence counts that release: such an attempt is tried again. An attempt that counted
    // none is the one checked, so a path left unreplaced without a counted release still fails.
    const halves = `const fs = require('node:fs'); fs.writeSync(1, ${JSON.stringify(root.slice(0, 6))}); fs.writeSync(1, ${JSON.stringify(`${root.slice(6)}/x\n`)})`
    const attempt = () =>
      captureProcess({
        executable: process.execPath,
        arguments: ['-e', halves],
        normalization: { placeholders: ['root'] },
      })
    let evidence = await attempt()
    for (let retry = 0; retry < 4 && evidence.terminal.stream_normalization?.early_releases !== 0; retry++) {
      evidence = await attempt()
    }
    expect(evidence.terminal.stream_normalization?.early_releases).toBe(0)
    expect(comparisonText(evidence)).toBe('[ROOT]/x\r\n')
    expect(originalText(evidence)).toBe(`${root}/x\r\n`)
    expect(finalFrame(evidence).lines[0]).toBe('[ROOT]/x')
    expect(evidence.commitments.comparison_contract.value.normalization).toMatchObject({
      placeholders: ['root'],
      placeholder_normalization_version: 'context-placeholders-v1',
    })
    expect(JSON.stringify(evidence.commitments)).not.toContain(root)
    expect(evidence.terminal.stream_normalization?.placeholders).toEqual([
      { name: 'root', token: '[ROOT]', status: 'applied', replaced: 1 },
    ])
  })

  test('replace every one of 400 lines that hold the root, in two runs alike however the PTY split them', async () => {
    const lines = `for (let i = 0; i < 400; i++) console.log('line ' + i + ' at ' + process.cwd() + '/src')`
    const runs = await Promise.all(
      [0, 1].map(() =>
        captureProcess({
          executable: process.execPath,
          arguments: ['-e', lines],
          normalization: { placeholders: ['root'] },
        }),
      ),
    )
    for (const evidence of runs) {
      expect(evidence.terminal.stream_normalization?.placeholders[0]?.replaced).toBe(400)
      expect(comparisonText(evidence)).not.toContain(root)
    }
    expect(comparisonText(runs[0] as Evidence)).toBe(comparisonText(runs[1] as Evidence))
  })

  test('a wait on the output sees the tokens, and the live terminal sees what the program wrote', async () => {
    const evidence = await captureProcess({
      executable: process.execPath,
      arguments: [
        '-e',
        "console.log('started in ' + process.cwd()); process.stdin.once('data', () => process.exit(0))",
      ],
      events: [{ type: 'input', data: 'go\r', after: { output: 'started in [ROOT]' } }],
      normalization: { placeholders: ['root'] },
      timeout_ms: 20_000,
    })
    expect(evidence.interactions[0]?.outcome).toBe('dispatched')
    expect(evidence.exit.reason).toBe('exited')
  })
})
