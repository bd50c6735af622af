import { expect, test } from 'rea-capture/vitest'

// One committed authority, recorded from the original. The random port is normalized to <port>, so the
// rewrite is held to the original's behaviour, not to a port number.
const AUTHORITY = 'authorities/server.capture.json'

test('the original defines the behaviour', async ({ captureProcess }) => {
  expect(
    await captureProcess({ executable: process.execPath, arguments: ['server-original.mjs'] }),
  ).toMatchCapture(AUTHORITY)
})

test('the rewrite behaves like the original', async ({ captureProcess }) => {
  expect(
    await captureProcess({ executable: process.execPath, arguments: ['server-rewrite.mjs'] }),
  ).toMatchCapture(AUTHORITY)
})
