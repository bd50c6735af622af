import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { program } from '../helpers/fixtures.js'

const SIZE = 4 * 1024 * 1024
const KILLS = 12
const directory = mkdtempSync(path.join(tmpdir(), 'rea-atomic-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/**
 * Starts the rewriter on `file` (which holds SIZE bytes of "o"), SIGKILLs it once it has completed `writes`
 * writes (so the kill lands wherever the next write happens to be), and returns what the file holds then.
 */
async function killMidWrite(file: string, writes: number, inPlace: boolean): Promise<string> {
  writeFileSync(file, Buffer.alloc(SIZE, 'o'))
  const child = spawn(
    process.execPath,
    [program('file-rewriter.mjs'), file, String(SIZE), ...(inPlace ? ['--in-place'] : [])],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const exited = new Promise((resolve) => child.on('exit', resolve))
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text
    if (output.split('\n').length > writes) {
      child.kill('SIGKILL')
    }
  })
  await exited
  return describeContent(readFileSync(file))
}

/** "8388608 × a" for a whole version, or what a broken file holds. */
function describeContent(bytes: Buffer): string {
  const first = bytes.subarray(0, 1).toString()
  const uniform = bytes.every((byte) => byte === bytes[0])
  return uniform ? `${bytes.length} × ${first}` : `${bytes.length} bytes, mixed`
}

describe('writeFileAtomicSync', () => {
  test('a writer SIGKILLed mid-write leaves the old file or the new one, never a broken one', async () => {
    const whole = new Set([`${SIZE} × o`, `${SIZE} × a`, `${SIZE} × b`])
    for (let round = 0; round < KILLS; round++) {
      const content = await killMidWrite(path.join(directory, 'atomic.json'), 1 + (round % 3), false)
      expect(whole.has(content), `round ${round}: ${content}`).toBe(true)
    }
  })

  test('the same kills break a file written in place (they do land mid-write)', async () => {
    const contents: string[] = []
    for (let round = 0; round < KILLS; round++) {
      contents.push(await killMidWrite(path.join(directory, 'in-place.json'), 1 + (round % 3), true))
    }
    expect(contents.some((content) => !content.startsWith(`${SIZE} × `))).toBe(true)
  })
})
