import assert from 'node:assert/strict'
import test from 'node:test'

test('adds', () => {
  assert.equal(1 + 1, 3)
})
