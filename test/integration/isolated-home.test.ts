import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { captureProcess, type Evidence } from '../../src/index.js'

/**
 * `home: "isolated"`: the command gets a fresh, empty HOME and XDG folders, so the user's own git
 * configuration (here a default branch of `trunk`) cannot change what a test records.
 */
let root: string
let userHome: string

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rea-isolated-root-'))
  userHome = mkdtempSync(path.join(tmpdir(), 'rea-isolated-user-'))
  writeFileSync(path.join(userHome, '.gitconfig'), '[init]\n\tdefaultBranch = trunk\n')
})

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
  rmSync(userHome, { recursive: true, force: true })
})

const SCRIPT = [
  'echo "home=$HOME"',
  'echo "config=$XDG_CONFIG_HOME"',
  'echo "entries=$(ls -A "$HOME" | wc -l)"',
  'echo "branch=$(git config --global --get init.defaultBranch || echo unset)"',
].join('; ')

const text = (evidence: Evidence) =>
  evidence.terminal.chunks.map((chunk) => chunk.raw_data ?? chunk.data).join('')
const line = (evidence: Evidence, name: string) =>
  new RegExp(`^${name}=(.*?)\\r?$`, 'm').exec(text(evidence))?.[1]

async function capture(home: 'isolated' | undefined): Promise<Evidence> {
  const previous = process.env['HOME']
  // The inherited HOME is the user's, as a developer's shell would give it.
  process.env['HOME'] = userHome
  try {
    return await captureProcess(
      { executable: 'sh', arguments: ['-c', SCRIPT], ...(home === undefined ? {} : { home }) },
      { root },
    )
  } finally {
    process.env['HOME'] = previous
  }
}

describe('home: "isolated"', () => {
  test('the user’s ~/.gitconfig reaches a command that inherits HOME', async () => {
    const inherited = await capture(undefined)
    expect(line(inherited, 'home')).toBe(userHome)
    expect(line(inherited, 'branch')).toBe('trunk')
    expect(inherited.commitments.comparison_contract.value).not.toHaveProperty('home')
  })

  test('gives a fresh, empty HOME with XDG folders inside it, removed after the capture', async () => {
    const isolated = await capture('isolated')
    const home = line(isolated, 'home')!
    expect(home).not.toBe(userHome)
    expect(path.basename(home)).toMatch(/^rea-home-/)
    expect(line(isolated, 'config')).toBe(path.join(home, '.config'))
    expect(line(isolated, 'entries')).toBe('0')
    expect(line(isolated, 'branch')).toBe('unset')
    expect(existsSync(home)).toBe(false)
    // Part of the scenario and the contract: a capture with an inherited home is not compared with it.
    expect(isolated.commitments.scenario.value.home).toBe('isolated')
    expect(isolated.commitments.comparison_contract.value.home).toBe('isolated')
  })

  test('the scenario’s own HOME still wins', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'rea-isolated-own-'))
    try {
      const evidence = await captureProcess(
        { executable: 'sh', arguments: ['-c', SCRIPT], home: 'isolated', environment: { HOME: own } },
        { root },
      )
      expect(line(evidence, 'home')).toBe(own)
    } finally {
      rmSync(own, { recursive: true, force: true })
    }
  })
})
