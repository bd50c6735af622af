import { rmSync } from 'node:fs'
import { expect, test } from 'rea-capture/vitest'
import { beforeEach } from 'vitest'

// The filesystem dimension compares what the program created, so each run starts without ./out.
beforeEach(() => rmSync(new URL('./out', import.meta.url), { recursive: true, force: true }))

test('adds a task typed at the prompt', async ({ captureProcess }) => {
  const capture = await captureProcess({
    executable: process.execPath,
    arguments: ['todo.mjs'],
    // Typed as soon as the prompt is on the screen: no guessed delay, on a fast laptop or a loaded CI runner.
    events: [{ type: 'input', data: 'water the plants\r', after: { screen: 'New task:' } }],
    filesystem_observation_paths: ['out'],
  })
  expect(capture).toMatchCapture()
})
