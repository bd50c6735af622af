import { describe, expect, test } from 'vitest'
import { captureProcess, serializeEvidence, type Evidence } from '../../src/index.js'
import { program } from '../helpers/fixtures.js'

const SECRET = 'Tr0ub4dor&3-horse-battery!!'

/** Every 6-character piece of the secret; none may appear anywhere in the saved Evidence. */
function leakedPieces(document: string): string[] {
  const pieces: string[] = []
  for (let start = 0; start + 6 <= SECRET.length; start++) {
    const piece = SECRET.slice(start, start + 6)
    if (document.includes(piece)) {
      pieces.push(piece)
    }
  }
  return pieces
}

const captureSecret = (args: string[] = []) =>
  captureProcess({
    executable: program('prompt.mjs'),
    arguments: ['Password: ', ...args],
    events: [{ type: 'input', data: `${SECRET}\r`, sensitive: true, after: { output: 'Password: ' } }],
  })

describe('sensitive input', () => {
  test('is sent as given but never persisted: echo and reprint are masked across chunk boundaries', async () => {
    expect(SECRET).toHaveLength(27)
    const evidence: Evidence = await captureSecret()
    const text = evidence.terminal.chunks.map((chunk) => chunk.data).join('')
    // The program received the real value: it printed something as long as the secret.
    expect(text).toContain(`You entered: ${'*'.repeat(27)}`)
    expect(leakedPieces(serializeEvidence(evidence))).toEqual([])
    expect(evidence.commitments.scenario.value.events).toEqual([
      { type: 'input', sensitive: true, data_bytes: 28, after: { output: 'Password: ' } },
    ])
    expect(evidence.terminal.redaction).toMatchObject({
      version: 'sensitive-input-mask-v1',
      locations_truncated: false,
    })
    expect(evidence.terminal.redaction!.masked_count).toBeGreaterThanOrEqual(2)
    expect(
      evidence.terminal.redaction!.locations.every(
        (location) => location.event_index === 0 && location.byte_length === 27,
      ),
    ).toBe(true)
    expect(evidence.commitments.normalization.value.sensitive_redaction_version).toBe(
      'sensitive-input-mask-v1',
    )
  })

  test('masks the exact bytes kept for output that is not valid UTF-8', async () => {
    const evidence = await captureSecret(['--invalid-tail'])
    const withBytes = evidence.terminal.chunks.filter((chunk) => chunk.bytes_base64 !== undefined)
    expect(withBytes.length).toBeGreaterThan(0)
    const bytes = withBytes
      .map((chunk) => Buffer.from(chunk.bytes_base64!, 'base64').toString('latin1'))
      .join('')
    expect(bytes).toContain('*'.repeat(27))
    expect(leakedPieces(bytes)).toEqual([])
    expect(leakedPieces(serializeEvidence(evidence))).toEqual([])
  })

  test('masks the rendered frames too', async () => {
    const evidence = await captureSecret()
    const frames = JSON.stringify(evidence.terminal.frames)
    expect(frames).toContain('*'.repeat(27))
    expect(leakedPieces(frames)).toEqual([])
  })

  test('leaves output alone when no value is marked sensitive', async () => {
    const evidence = await captureProcess({
      executable: program('prompt.mjs'),
      events: [{ type: 'input', data: `${SECRET}\r`, after: { output: 'Value: ' } }],
    })
    expect(evidence.terminal.redaction).toBeNull()
    expect(evidence.commitments.normalization.value.sensitive_redaction_version).toBeNull()
    expect(evidence.terminal.chunks.map((chunk) => chunk.data).join('')).toContain(`You entered: ${SECRET}`)
  })
})
