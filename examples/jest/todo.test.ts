import { rmSync } from 'node:fs'
import path from 'node:path'
import { beforeEach, expect, test } from '@jest/globals'
import { captureProcess } from 'rea-capture/jest'

// The filesystem dimension compares what the program created, so each run starts without ./out.
beforeEach(() => rmSync(path.join(__dirname, 'out'), { recursive: true, force: true }))

test('adds a task typed at the prompt', async () => {
  const capture = await captureProcess({
    executable: process.execPath,
    arguments: ['todo.mjs'],
    // Typed as soon as the prompt is on the screen: no guessed delay, on a fast laptop or a loaded CI runner.
    events: [{ type: 'input', data: 'water the plants\r', after: { screen: 'New task:' } }],
    filesystem_observation_paths: ['out'],
  })
  expect(capture).toMatchCapture()
})
