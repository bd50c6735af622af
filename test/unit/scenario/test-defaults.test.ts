import { describe, expect, test } from 'vitest'
import { COVERAGE_VARIABLES } from '../../../src/scenario/coverage-variables.js'
import { mergeEnvironment } from '../../../src/scenario/resolve.js'
import { testEnvironment, withTestDefaults } from '../../../src/scenario/test-defaults.js'
import { TEST_ENVIRONMENT } from '../../../src/scenario/test-environment.js'
import { validateScenario } from '../../../src/scenario/validate.js'
import { isReaError } from '../../../src/errors.js'

describe('withTestDefaults', () => {
  test('writes the test environment and the default placeholders into the scenario; the scenario wins', () => {
    const scenario = withTestDefaults({ executable: 'node', environment: { TZ: 'Asia/Tokyo', CI: 'true' } })
    expect(scenario.environment).toMatchObject({
      TZ: 'Asia/Tokyo',
      CI: 'true',
      NO_COLOR: null,
      LANG: 'C.UTF-8',
    })
    expect(scenario.normalization?.placeholders).toEqual([
      'root',
      'cwd',
      'home',
      'tmpdir',
      'user',
      'hostname',
    ])
    expect(scenario.normalization?.filters).toEqual(['temp_names', 'measured_durations'])
    // A scenario's own list replaces the defaults; [] turns them off.
    expect(
      withTestDefaults({ executable: 'node', normalization: { placeholders: [], filters: [] } })
        .normalization,
    ).toEqual({
      placeholders: [],
      filters: [],
    })
    expect(
      withTestDefaults({ executable: 'node', normalization: { filters: ['durations'] } }).normalization
        ?.filters,
    ).toEqual(['durations'])
    expect(() => validateScenario(scenario)).not.toThrow()
  })

  test('lets a project add entries, inherit some, or inherit everything', () => {
    const added = testEnvironment({ environment: { MY_FLAG: '1', TZ: 'Europe/Berlin' } })
    expect(added).toMatchObject({ MY_FLAG: '1', TZ: 'Europe/Berlin', CI: null })
    const inherited = testEnvironment({ inheritEnvironment: ['CI', 'VSCODE_*'] })
    expect(inherited).not.toHaveProperty('CI')
    expect(inherited).not.toHaveProperty('VSCODE_*')
    expect(inherited).toHaveProperty('NO_COLOR', null)
    expect(testEnvironment({ inheritEnvironment: true, environment: { TZ: 'UTC' } })).toEqual({ TZ: 'UTC' })
  })

  test('passes input that is not a scenario object on, for validation to name', () => {
    expect(withTestDefaults(null as never)).toBeNull()
    expect(withTestDefaults({ executable: 'x', environment: 'CI=1' as never }).environment).toBe('CI=1')
  })
})

describe('the test environment', () => {
  test('removes the variables that change how programs print and pins locale and time zone', () => {
    for (const name of [
      'CI',
      'GITHUB_ACTIONS',
      'NO_COLOR',
      'FORCE_COLOR',
      'COLORTERM',
      'TERM_PROGRAM',
      'LC_ALL',
      'COLUMNS',
    ]) {
      expect(TEST_ENVIRONMENT[name], name).toBeNull()
    }
    expect(TEST_ENVIRONMENT['TZ']).toBe('UTC')
    expect(TEST_ENVIRONMENT['TERM']).toBeUndefined()
    expect(() => validateScenario({ executable: 'x', environment: TEST_ENVIRONMENT })).not.toThrow()
  })

  test('lets every coverage variable through: Vitest 5’s autoAttachSubprocess sets NODE_V8_COVERAGE for captures', () => {
    const inherited = Object.fromEntries(COVERAGE_VARIABLES.map((name) => [name, `/coverage/${name}`]))
    const merged = mergeEnvironment({ ...inherited, CI: 'true' }, testEnvironment())
    expect(merged).toMatchObject(inherited)
    expect(merged['CI']).toBeUndefined()
  })
})

describe('mergeEnvironment', () => {
  test('a name ending in * removes a family of inherited variables, but never a name the scenario sets', () => {
    const merged = mergeEnvironment(
      { VSCODE_PID: '1', VSCODE_IPC: '2', VSCODEX: '3', PATH: '/bin' },
      { 'VSCODE_*': null, VSCODE_KEEP: 'yes' },
    )
    expect(merged).toEqual({ VSCODEX: '3', PATH: '/bin', VSCODE_KEEP: 'yes' })
  })

  test('a name ending in * never removes a coverage variable: coverage is observation, outside the scenario', () => {
    const merged = mergeEnvironment(
      { NODE_V8_COVERAGE: '/c', NODE_DEBUG: 'x', GOCOVERDIR: '/g' },
      { 'NODE_*': null, 'GO*': null },
    )
    expect(merged).toEqual({ NODE_V8_COVERAGE: '/c', GOCOVERDIR: '/g' })
  })

  test.each([
    [{ 'CI_*': '1' }, 'environment.CI_*'],
    [{ '*': null }, 'environment.*'],
    [{ 'A*B': null }, 'environment.A*B'],
  ])('rejects the wildcard %o', (environment, path) => {
    try {
      validateScenario({ executable: 'x', environment })
      expect.unreachable()
    } catch (error) {
      expect(isReaError(error) && error.issues).toContainEqual(
        expect.objectContaining({ path, rule: 'environment_wildcard' }),
      )
    }
  })
})

describe('childEnvironment', () => {
  test('is the merged environment with TERM, PWD and the run token: the one the size check and the launch use', async () => {
    const { childEnvironment } = await import('../../../src/scenario/resolve.js')
    const environment = childEnvironment(
      {
        scenario: validateScenario({ executable: 'x', environment: { TERM: 'vt100' } }),
        root: '/r',
        workingDirectory: '/r/app',
        executablePath: '/bin/x',
        environment: { PATH: '/bin', TERM: 'vt100' },
        terminalType: 'vt100',
        observationPaths: [],
      },
      'rea-token',
    )
    expect(environment).toEqual({ PATH: '/bin', TERM: 'vt100', PWD: '/r/app', REA_RUN_TOKEN: 'rea-token' })
  })

  test('adds what REA sets to collect coverage over the inherited value, and never over the run token', async () => {
    const { childEnvironment } = await import('../../../src/scenario/resolve.js')
    const environment = childEnvironment(
      {
        scenario: validateScenario({ executable: 'x' }),
        root: '/r',
        workingDirectory: '/r',
        executablePath: '/bin/x',
        environment: { NODE_V8_COVERAGE: '/inherited' },
        terminalType: 'xterm-256color',
        observationPaths: [],
      },
      'rea-token',
      { NODE_V8_COVERAGE: '/capture', REA_RUN_TOKEN: 'forged' },
    )
    expect(environment).toMatchObject({ NODE_V8_COVERAGE: '/capture', REA_RUN_TOKEN: 'rea-token' })
  })
})
