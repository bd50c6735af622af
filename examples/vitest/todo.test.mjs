import { rmSync } from 'node:fs'
import { expect, test } from 'rea/vitest'
import { beforeEach } from 'vitest'

// The filesystem dimension compares what the program created, so each run starts without ./out.
beforeEach(() => rmSync(new URL('./out', import.meta.url), { recursive: true, force: true }))

test('adds a task typed at the prompt', async ({ captureProcess }) => {
  const capture = await captureProcess({
    executable: process.execPath,
    arguments: ['todo.mjs'],
    events: [{ type: 'input', at_ms: 1500, data: 'water the plants\r' }],
    filesystem_observation_paths: ['out'],
  })
  expect(capture).toMatchCapture()
})
