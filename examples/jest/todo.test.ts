import { rmSync } from 'node:fs'
import path from 'node:path'
import { beforeEach, expect, test } from '@jest/globals'
import { captureProcess } from 'rea/jest'

// The filesystem dimension compares what the program created, so each run starts without ./out.
beforeEach(() => rmSync(path.join(__dirname, 'out'), { recursive: true, force: true }))

test('adds a task typed at the prompt', async () => {
  const capture = await captureProcess({
    executable: process.execPath,
    arguments: ['todo.mjs'],
    events: [{ type: 'input', at_ms: 1500, data: 'water the plants\r' }],
    filesystem_observation_paths: ['out'],
  })
  expect(capture).toMatchCapture()
})
