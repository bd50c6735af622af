import { fstatSync, readdirSync, readlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { describe, expect, test } from 'vitest'
import { readRegistryLines, SupervisorRegistry } from '../../../src/process/supervisor-registry.js'

function openRegistry(): SupervisorRegistry {
  const registry = SupervisorRegistry.create()
  if (registry === undefined) {
    throw new Error('no registry could be made in the temporary directory')
  }
  return registry
}

describe('SupervisorRegistry', () => {
  test('leaves no file in the temporary directory, whoever dies', () => {
    const registry = openRegistry()
    try {
      expect(readlinkSync(`/proc/self/fd/${registry.fd}`)).toMatch(/ \(deleted\)$/)
      expect(
        readdirSync(tmpdir()).filter((name) => name.startsWith(`rea-supervisor-${process.pid}-`)),
      ).toEqual([])
    } finally {
      registry.close()
    }
  })

  test('hands the supervisor every line from the start, however far the writes have moved the offset', () => {
    const registry = openRegistry()
    try {
      expect(registry.append('{"kind":"own"}\n')).toBe(true)
      expect(registry.append('{"kind":"release"}\n')).toBe(true)
      expect(readRegistryLines(registry.fd)).toEqual(['{"kind":"own"}', '{"kind":"release"}'])
    } finally {
      registry.close()
    }
  })

  test('empties itself once nothing is registered, so the supervisor can end without starting Node.js', () => {
    const registry = openRegistry()
    try {
      registry.clearWhenEmpty()
      expect(fstatSync(registry.fd).size).toBe(0)
      registry.append('{"kind":"own"}\n')
      registry.append('{"kind":"release"}\n')
      expect(fstatSync(registry.fd).size).toBeGreaterThan(0)
      registry.clearWhenEmpty()
      expect(fstatSync(registry.fd).size).toBe(0)
      // Appends go on at the new end.
      registry.append('{"kind":"own"}\n')
      expect(readRegistryLines(registry.fd)).toEqual(['{"kind":"own"}'])
    } finally {
      registry.close()
    }
  })
})
