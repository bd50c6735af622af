import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { emitDocument } from '../../../src/cli/output.js'
import { describeSavedCapture } from '../../../src/mcp/evidence-output.js'

const directory = mkdtempSync(path.join(tmpdir(), 'rea-output-unit-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

test('a document that could not be written names its path by the one escaping rule', async () => {
  const target = path.join(directory, 'missing\nfolder', 'doc.json')
  await expect(emitDocument('{}', target)).rejects.toThrow(
    `could not be written to "${directory}/missing\\nfolder/doc.json"`,
  )
})

test('the MCP text names the saved Evidence file by the one escaping rule', () => {
  const text = describeSavedCapture({
    output_path: '/captures/a\u001b[2Jb.json',
    bytes: 10,
    identity_digest: 'd',
  } as Parameters<typeof describeSavedCapture>[0])
  expect(text).toContain('saved to "/captures/a\\e[2Jb.json".')
})
