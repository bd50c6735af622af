import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { canonicalDigest, canonicalJson } from '../../../src/evidence/canonical-json.js'
import { buildCommitments, contractWorkingDirectory, LINE_FORMAT } from '../../../src/evidence/commitments.js'
import { DEFAULT_TERMINAL_TYPE, type ResolvedScenario } from '../../../src/scenario/resolve.js'
import type { ProcessScenarioInput } from '../../../src/scenario/schema.js'
import { validateScenario } from '../../../src/scenario/validate.js'

const ROOT = '/srv/project'

function resolvedFor(overrides: Partial<ResolvedScenario> = {}): ResolvedScenario {
  const scenario = overrides.scenario ?? validateScenario({ executable: 'echo' })
  return {
    scenario,
    terminalType: scenario.environment['TERM'] ?? DEFAULT_TERMINAL_TYPE,
    root: ROOT,
    workingDirectory: ROOT,
    executablePath: '/usr/bin/echo',
    environment: {
      PATH: '/usr/bin:/bin',
      HOME: '/home/someone',
      INHERITED_SECRET: 'inherited-value',
      REA_RUN_TOKEN: 'rea-0123456789abcdef',
    },
    observationPaths: [],
    ...overrides,
  }
}

const commitmentsFor = (input: ProcessScenarioInput, resolved?: ResolvedScenario) => {
  const scenario = validateScenario(input)
  return buildCommitments({ ...(resolved ?? resolvedFor({ scenario })), scenario })
}

describe('buildCommitments', () => {
  test('commits sensitive input as its UTF-8 byte count and keeps the value out of every commitment', () => {
    const secret = 'pässwörd€✓'
    const commitments = commitmentsFor({
      executable: 'login',
      events: [
        { type: 'input', at_ms: 0, data: 'user\r' },
        { type: 'input', at_ms: 10, data: secret, sensitive: true },
      ],
    })
    const committed = { type: 'input', at_ms: 10, sensitive: true, data_bytes: Buffer.byteLength(secret) }
    expect(Buffer.byteLength(secret)).toBe(16)
    expect(commitments.scenario.value.events[1]).toEqual(committed)
    expect(commitments.comparison_contract.value.events[1]).toEqual(committed)
    expect(Object.keys(commitments.scenario.value.events[1]!)).not.toContain('data')
    const text = canonicalJson(commitments)
    expect(text).not.toContain(secret)
    expect(text).not.toContain(JSON.stringify(secret).slice(1, -1))
    expect(text).not.toContain('p\\u00e4ssw')
  })

  test('keeps the data of non-sensitive input', () => {
    const commitments = commitmentsFor({
      executable: 'cat',
      events: [{ type: 'input', at_ms: 5, data: 'héllo\r' }],
    })
    const committed = { type: 'input', at_ms: 5, sensitive: false, data: 'héllo\r' }
    expect(commitments.scenario.value.events).toEqual([committed])
    expect(commitments.comparison_contract.value.events).toEqual([committed])
  })

  test('commits resize and signal events as written', () => {
    const events = [
      { type: 'resize', at_ms: 1, columns: 100, rows: 30 },
      { type: 'signal', at_ms: 2, signal: 'SIGINT' },
    ] satisfies ProcessScenarioInput['events']
    expect(commitmentsFor({ executable: 'top', events }).comparison_contract.value.events).toEqual(events)
  })

  test('commits the same scenario for a scenario omitting defaults and one writing them', () => {
    const omitted = commitmentsFor({ executable: 'echo', arguments: ['hi'] })
    const written = commitmentsFor({
      executable: 'echo',
      arguments: ['hi'],
      working_directory: '.',
      environment: {},
      filesystem_observation_paths: [],
      terminal: { columns: 80, rows: 24, scrollback: 1000 },
      events: [],
      timeout_ms: 30_000,
      idle_timeout_ms: null,
      settle_ms: 100,
      finalization_ms: 0,
      limits: {},
      normalization: { patterns: [], ports: true },
    })
    expect(written.scenario.sha256).toBe(omitted.scenario.sha256)
    expect(written.comparison_contract.sha256).toBe(omitted.comparison_contract.sha256)
    expect(written.executable.sha256).toBe(omitted.executable.sha256)
    expect(written.normalization.sha256).toBe(omitted.normalization.sha256)
  })

  test('commits a different scenario digest when a default is overridden', () => {
    const omitted = commitmentsFor({ executable: 'echo' })
    const changed = commitmentsFor({ executable: 'echo', finalization_ms: 1 })
    expect(changed.scenario.sha256).not.toBe(omitted.scenario.sha256)
    expect(changed.comparison_contract.sha256).not.toBe(omitted.comparison_contract.sha256)
  })

  test('puts only explicit environment overrides in the comparison contract', () => {
    const commitments = commitmentsFor({ executable: 'env', environment: { LANG: 'C', CI: null } })
    expect(commitments.comparison_contract.value.environment).toEqual({ LANG: 'C', CI: null })
    const text = canonicalJson(commitments)
    expect(text).not.toContain('INHERITED_SECRET')
    expect(text).not.toContain('inherited-value')
    expect(text).not.toContain('/home/someone')
    expect(text).not.toContain('REA_RUN_TOKEN')
    expect(text).not.toContain('rea-0123456789abcdef')
  })

  test('commits the same contract whatever the inherited environment holds', () => {
    const scenario = validateScenario({ executable: 'env', environment: { LANG: 'C' } })
    const one = buildCommitments({ ...resolvedFor({ environment: { LANG: 'C', A: '1' } }), scenario })
    const other = buildCommitments({
      ...resolvedFor({ environment: { LANG: 'C', B: '2', REA_RUN_TOKEN: 'rea-other' } }),
      scenario,
    })
    expect(other.comparison_contract.sha256).toBe(one.comparison_contract.sha256)
    expect(other.scenario.sha256).toBe(one.scenario.sha256)
  })

  test.for([
    ['defaults to xterm-256color', {}, 'xterm-256color'],
    ['follows environment.TERM', { TERM: 'vt100' }, 'vt100'],
    ['defaults when TERM is removed with null', { TERM: null }, 'xterm-256color'],
  ] as const)('%s for terminal_type', ([, environment, expected]) => {
    const contract = commitmentsFor({ executable: 'tput', environment }).comparison_contract.value
    expect(contract.terminal_type).toBe(expected)
  })

  test('names xterm-256color as the default terminal type', () => {
    expect(DEFAULT_TERMINAL_TYPE).toBe('xterm-256color')
  })

  test('keeps the executable and arguments out of the comparison contract', () => {
    const commitments = commitmentsFor({ executable: 'reference-impl', arguments: ['--flag-xyz'] })
    const contract = commitments.comparison_contract.value
    expect(Object.keys(contract)).not.toContain('executable')
    expect(Object.keys(contract)).not.toContain('arguments')
    expect(canonicalJson(contract)).not.toContain('reference-impl')
    expect(canonicalJson(contract)).not.toContain('--flag-xyz')
    expect(commitments.executable.value).toEqual({
      executable: 'reference-impl',
      arguments: ['--flag-xyz'],
      resolved_path: '/usr/bin/echo',
    })
  })

  test('changes the executable commitment but not the comparison contract when only the executable changes', () => {
    const authority = commitmentsFor(
      { executable: 'authority', arguments: ['a'], timeout_ms: 5000 },
      resolvedFor({ executablePath: '/opt/authority' }),
    )
    const reconstruction = commitmentsFor(
      { executable: 'reconstruction', arguments: ['b', 'c'], timeout_ms: 5000 },
      resolvedFor({ executablePath: '/opt/reconstruction' }),
    )
    expect(reconstruction.executable.sha256).not.toBe(authority.executable.sha256)
    expect(reconstruction.scenario.sha256).not.toBe(authority.scenario.sha256)
    expect(reconstruction.comparison_contract.sha256).toBe(authority.comparison_contract.sha256)
  })

  test('changes the comparison contract when a contract field changes', () => {
    const base = commitmentsFor({ executable: 'x', timeout_ms: 5000 })
    const other = commitmentsFor({ executable: 'x', timeout_ms: 5001 })
    expect(other.comparison_contract.sha256).not.toBe(base.comparison_contract.sha256)
  })

  test('records the contract fields from the scenario', () => {
    const commitments = commitmentsFor(
      {
        executable: 'x',
        filesystem_observation_paths: ['out', 'logs/app.log'],
        terminal: { columns: 100, rows: 40, scrollback: 0 },
        timeout_ms: 5000,
        idle_timeout_ms: 700,
        settle_ms: 50,
        finalization_ms: 250,
        limits: { file_count: 3 },
        normalization: { ports: false, patterns: [{ pattern: 'a', replacement: 'b' }] },
      },
      resolvedFor({ workingDirectory: path.join(ROOT, 'pkg') }),
    )
    expect(commitments.comparison_contract.value).toMatchObject({
      working_directory: 'pkg',
      environment: {},
      filesystem_observation_paths: ['out', 'logs/app.log'],
      terminal: { columns: 100, rows: 40, scrollback: 0 },
      terminal_type: 'xterm-256color',
      events: [],
      timeout_ms: 5000,
      idle_timeout_ms: 700,
      settle_ms: 50,
      finalization_ms: 250,
      limits: { file_count: 3, output_bytes: 1_048_576 },
      normalization: { ports: false, patterns: [{ pattern: 'a', replacement: 'b' }] },
      line_format: LINE_FORMAT,
    })
    expect(commitments.normalization.value).toEqual(commitments.comparison_contract.value.normalization)
  })

  test('gives each commitment the canonical digest of its value', () => {
    const commitments = commitmentsFor({
      executable: 'login',
      arguments: ['--user', 'me'],
      environment: { LANG: 'C' },
      events: [{ type: 'input', at_ms: 0, data: 'secret', sensitive: true }],
    })
    for (const commitment of Object.values(commitments)) {
      expect(commitment.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(commitment.sha256).toBe(canonicalDigest(commitment.value))
    }
    expect(Object.keys(commitments).sort()).toEqual([
      'comparison_contract',
      'executable',
      'normalization',
      'scenario',
    ])
  })

  test('does not modify the validated scenario', () => {
    const scenario = validateScenario({
      executable: 'login',
      events: [{ type: 'input', at_ms: 0, data: 'secret', sensitive: true }],
    })
    const before = structuredClone(scenario)
    buildCommitments({ ...resolvedFor(), scenario })
    expect(scenario).toEqual(before)
  })
})

describe('contractWorkingDirectory', () => {
  test.for([
    ['the root itself', '.', ROOT],
    ['the root with a trailing separator', '.', `${ROOT}/`],
    ['a direct subdirectory', 'a', `${ROOT}/a`],
    ['a nested subdirectory', 'a/b', path.join(ROOT, 'a', 'b')],
    ['a subdirectory whose name starts with two dots', '..cache', path.join(ROOT, '..cache')],
    ['a subdirectory named with three dots', '.../x', path.join(ROOT, '...', 'x')],
    ['the parent of the root', '/srv', '/srv'],
    ['a sibling of the root', '/srv/other', '/srv/other'],
    ['a directory elsewhere', '/tmp/x/y', '/tmp/x/y'],
  ] as const)('records %s as %s', ([, expected, workingDirectory]) => {
    expect(contractWorkingDirectory(ROOT, workingDirectory)).toBe(expected)
  })

  test('records the contract working directory relative to the root in buildCommitments', () => {
    const inside = commitmentsFor({ executable: 'x' }, resolvedFor({ workingDirectory: `${ROOT}/a/b` }))
    const outside = commitmentsFor({ executable: 'x' }, resolvedFor({ workingDirectory: '/elsewhere' }))
    expect(inside.comparison_contract.value.working_directory).toBe('a/b')
    expect(outside.comparison_contract.value.working_directory).toBe('/elsewhere')
  })

  test('commits the same contract for the same layout under different roots', () => {
    const scenario = validateScenario({ executable: 'x', working_directory: 'pkg' })
    const here = buildCommitments({
      ...resolvedFor({ root: '/a/clone', workingDirectory: '/a/clone/pkg' }),
      scenario,
    })
    const there = buildCommitments({
      ...resolvedFor({ root: '/b/copy', workingDirectory: '/b/copy/pkg' }),
      scenario,
    })
    expect(there.comparison_contract.sha256).toBe(here.comparison_contract.sha256)
  })
})
