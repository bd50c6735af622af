import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { findExecutable, mergeEnvironment, resolveScenario } from '../../../src/scenario/resolve.js'
import { validateScenario } from '../../../src/scenario/validate.js'
import { rejection } from '../../helpers/rejection.js'

let scratch: string

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'rea-resolve-')))
})

afterEach(() => {
  rmSync(scratch, { recursive: true, force: true })
})

/** Creates `relative` under the scratch directory (and its parents) and returns its absolute path. */
function file(relative: string, mode: number): string {
  const absolute = path.join(scratch, relative)
  mkdirSync(path.dirname(absolute), { recursive: true })
  writeFileSync(absolute, '#!/bin/sh\nexit 0\n')
  chmodSync(absolute, mode)
  return absolute
}

function directory(relative: string): string {
  const absolute = path.join(scratch, relative)
  mkdirSync(absolute, { recursive: true })
  return absolute
}

describe('mergeEnvironment', () => {
  test('lets an override win over an inherited value', () => {
    expect(mergeEnvironment({ LANG: 'en_US.UTF-8', HOME: '/home/u' }, { LANG: 'C' })).toEqual({
      LANG: 'C',
      HOME: '/home/u',
    })
  })

  test('removes an inherited variable whose override is null', () => {
    expect(mergeEnvironment({ CI: 'true', HOME: '/home/u' }, { CI: null })).toEqual({ HOME: '/home/u' })
  })

  test('ignores a null override for a variable that is not inherited', () => {
    expect(mergeEnvironment({ HOME: '/home/u' }, { CI: null })).toEqual({ HOME: '/home/u' })
  })

  test('drops inherited variables whose value is undefined', () => {
    const merged = mergeEnvironment({ HOME: '/home/u', UNSET: undefined }, {})
    expect(merged).toEqual({ HOME: '/home/u' })
    expect(Object.keys(merged)).not.toContain('UNSET')
  })

  test('adds overrides that are not inherited', () => {
    expect(mergeEnvironment({}, { NEW: 'value', EMPTY: '' })).toEqual({ NEW: 'value', EMPTY: '' })
  })

  test('does not mutate the inherited environment or the overrides', () => {
    const inherited = { CI: 'true', LANG: 'en_US.UTF-8' }
    const overrides = { CI: null, LANG: 'C', NEW: 'x' }
    const merged = mergeEnvironment(inherited, overrides)
    expect(inherited).toEqual({ CI: 'true', LANG: 'en_US.UTF-8' })
    expect(overrides).toEqual({ CI: null, LANG: 'C', NEW: 'x' })
    expect(merged).not.toBe(inherited)
  })
})

describe('findExecutable', () => {
  test('searches execvp’s default directories when PATH is unset', () => {
    expect(findExecutable('sh', directory('nowhere'), undefined)).toMatch(/^\/(usr\/)?bin\/sh$/)
  })

  test('finds a bare name on PATH', () => {
    const tool = file('bin/tool', 0o755)
    const searchPath = [directory('empty'), path.join(scratch, 'bin')].join(path.delimiter)
    expect(findExecutable('tool', directory('work'), searchPath)).toBe(tool)
  })

  test('takes the first PATH entry that holds the name', () => {
    const first = file('first/tool', 0o755)
    file('second/tool', 0o755)
    const searchPath = [path.join(scratch, 'first'), path.join(scratch, 'second')].join(path.delimiter)
    expect(findExecutable('tool', scratch, searchPath)).toBe(first)
  })

  test('skips a non-executable file in favour of a later PATH entry', () => {
    file('first/tool', 0o644)
    const later = file('second/tool', 0o755)
    const searchPath = [path.join(scratch, 'first'), path.join(scratch, 'second')].join(path.delimiter)
    expect(findExecutable('tool', scratch, searchPath)).toBe(later)
  })

  test('skips a directory with the executable name', () => {
    directory('first/tool')
    const later = file('second/tool', 0o755)
    const searchPath = [path.join(scratch, 'first'), path.join(scratch, 'second')].join(path.delimiter)
    expect(findExecutable('tool', scratch, searchPath)).toBe(later)
  })

  test('returns undefined when no PATH entry holds an executable with the name', () => {
    file('bin/other', 0o755)
    file('bin/tool', 0o644)
    expect(findExecutable('tool', scratch, path.join(scratch, 'bin'))).toBeUndefined()
  })

  test('reads an empty PATH entry as the working directory', () => {
    const work = directory('work')
    const tool = file('work/tool', 0o755)
    const searchPath = [directory('empty'), ''].join(path.delimiter)
    expect(findExecutable('tool', work, searchPath)).toBe(tool)
  })

  test('does not look in the working directory when PATH has no empty entry', () => {
    const work = directory('work')
    file('work/tool', 0o755)
    expect(findExecutable('tool', work, directory('empty'))).toBeUndefined()
  })

  test('resolves a relative PATH entry against the working directory', () => {
    const work = directory('work')
    const tool = file('work/local/bin/tool', 0o755)
    expect(findExecutable('tool', work, 'local/bin')).toBe(tool)
  })

  test.for([
    ['./tool', 'work/tool'],
    ['sub/tool', 'work/sub/tool'],
    ['../tool', 'tool'],
  ] as const)('resolves %s, which contains a slash, against the working directory', ([name, expected]) => {
    file(expected, 0o755)
    // PATH holds an executable of the same base name: a name with a slash must not be looked up there.
    file('bin/tool', 0o755)
    expect(findExecutable(name, directory('work'), path.join(scratch, 'bin'))).toBe(
      path.join(scratch, expected),
    )
  })

  test('accepts an absolute path whatever the working directory', () => {
    const tool = file('bin/tool', 0o755)
    expect(findExecutable(tool, directory('work'), undefined)).toBe(tool)
  })

  test.for([
    ['missing', './missing'],
    ['not executable', './plain'],
  ] as const)('returns undefined for a path to a %s file', ([, name]) => {
    file('plain', 0o644)
    expect(findExecutable(name, scratch, path.join(scratch))).toBeUndefined()
  })
})

describe('resolveScenario', () => {
  test('resolves working_directory against the given root', () => {
    const work = directory('project/sub')
    const tool = file('bin/tool', 0o755)
    const scenario = validateScenario({ executable: 'tool', working_directory: 'sub' })
    const resolved = resolveScenario(scenario, path.join(scratch, 'project'), {
      PATH: path.join(scratch, 'bin'),
    })
    expect(resolved).toEqual({
      scenario,
      root: path.join(scratch, 'project'),
      workingDirectory: work,
      executablePath: tool,
      environment: { PATH: path.join(scratch, 'bin') },
      terminalType: 'xterm-256color',
      observationPaths: [],
    })
  })

  test('makes a relative root absolute against the current directory', () => {
    const tool = file('tool', 0o755)
    const relativeRoot = path.relative(process.cwd(), scratch)
    const resolved = resolveScenario(validateScenario({ executable: './tool' }), relativeRoot, {})
    expect(resolved.root).toBe(scratch)
    expect(resolved.workingDirectory).toBe(scratch)
    expect(resolved.executablePath).toBe(tool)
  })

  test('resolves observation paths against the working directory, not the root', () => {
    const work = directory('work')
    file('work/tool', 0o755)
    const scenario = validateScenario({
      executable: './tool',
      working_directory: 'work',
      filesystem_observation_paths: ['out', 'nested/file.json', '../sibling', '/abs/path'],
    })
    expect(resolveScenario(scenario, scratch, {}).observationPaths).toEqual([
      path.join(work, 'out'),
      path.join(work, 'nested/file.json'),
      path.join(scratch, 'sibling'),
      '/abs/path',
    ])
  })

  test('looks a bare executable up on the PATH of the merged environment', () => {
    file('inherited/tool', 0o755)
    const override = file('override/tool', 0o755)
    const scenario = validateScenario({
      executable: 'tool',
      environment: { PATH: path.join(scratch, 'override') },
    })
    const resolved = resolveScenario(scenario, scratch, { PATH: path.join(scratch, 'inherited') })
    expect(resolved.executablePath).toBe(override)
  })

  test('merges the scenario environment over the inherited one', () => {
    file('tool', 0o755)
    const scenario = validateScenario({ executable: './tool', environment: { CI: null, LANG: 'C' } })
    const resolved = resolveScenario(scenario, scratch, { CI: 'true', LANG: 'en_US.UTF-8', HOME: '/h' })
    expect(resolved.environment).toEqual({ LANG: 'C', HOME: '/h' })
  })

  test('rejects a missing working directory with rule directory_exists', () => {
    const scenario = validateScenario({ executable: 'sh', working_directory: 'nowhere' })
    const error = rejection(() => resolveScenario(scenario, scratch, { PATH: '/bin:/usr/bin' }))
    expect(error.code).toBe('INVALID_SCENARIO')
    expect(error.issues).toEqual([
      expect.objectContaining({ path: 'working_directory', rule: 'directory_exists' }),
    ])
    expect(error.issues[0]?.message).toContain(path.join(scratch, 'nowhere'))
  })

  test('rejects a working directory that is a file', () => {
    file('plain', 0o644)
    const scenario = validateScenario({ executable: 'sh', working_directory: 'plain' })
    const error = rejection(() => resolveScenario(scenario, scratch, { PATH: '/bin:/usr/bin' }))
    expect(error.issues.map((issue) => issue.rule)).toEqual(['directory_exists'])
  })

  test('rejects a bare executable missing from PATH with rule executable_found', () => {
    const searchPath = directory('bin')
    const scenario = validateScenario({ executable: 'rea-no-such-tool' })
    const error = rejection(() => resolveScenario(scenario, scratch, { PATH: searchPath }))
    expect(error.code).toBe('INVALID_SCENARIO')
    expect(error.issues).toEqual([expect.objectContaining({ path: 'executable', rule: 'executable_found' })])
    expect(error.issues[0]?.message).toContain(searchPath)
  })

  test('rejects an executable path that is not executable, naming the resolved path', () => {
    file('work/plain', 0o644)
    const scenario = validateScenario({ executable: './plain', working_directory: 'work' })
    const error = rejection(() => resolveScenario(scenario, scratch, {}))
    expect(error.issues).toEqual([expect.objectContaining({ path: 'executable', rule: 'executable_found' })])
    expect(error.issues[0]?.message).toContain(path.join(scratch, 'work/plain'))
  })
})
