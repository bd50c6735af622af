import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os, { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { storedAuthority } from '../../src/authority/stored-authority.js'
import { computeIdentityDigest } from '../../src/evidence/identity-digest.js'
import { parseEvidenceText } from '../../src/front-end.js'
import { captureProcess, compareCaptures, formatComparison, type Evidence } from '../../src/index.js'
import { isReaError } from '../../src/errors.js'

/**
 * An authority stores the values its placeholders stand for as their tokens everywhere, not only in the comparison
 * text: the capture root, the raw output, the scenario and its paths, symlink targets. Import checks the result,
 * comparison gives what it gave before, and the capture the test holds keeps its raw values.
 */
let root: string
let home: string
let temporary: string

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rea-stored-root-'))
  home = mkdtempSync(path.join(tmpdir(), 'rea-stored-home-'))
  temporary = mkdtempSync(path.join(tmpdir(), 'rea-stored-tmp-'))
  mkdirSync(path.join(root, 'out'))
  // A link whose target is a path of this machine: an observed folder keeps it in its entries.
  symlinkSync(path.join(home, 'config'), path.join(root, 'out', 'config-link'))
  writeFileSync(
    path.join(root, 'show.mjs'),
    [
      "import os from 'node:os'",
      'console.log(`cwd ${process.cwd()} home ${os.homedir()} tmp ${os.tmpdir()}`)',
      'console.log(`user ${os.userInfo().username} on ${os.hostname()}`)',
      'console.log(JSON.stringify({ script: process.argv[1] }))',
    ].join('\n'),
  )
})

afterAll(() => {
  for (const folder of [root, home, temporary]) {
    rmSync(folder, { recursive: true, force: true })
  }
})

function scenario() {
  return {
    executable: 'node',
    // An absolute argument: the scenario and the executable commitment hold the checkout's path.
    arguments: [path.join(root, 'show.mjs')],
    environment: { HOME: home, TMPDIR: temporary },
    filesystem_observation_paths: ['out'],
    normalization: { placeholders: ['root', 'cwd', 'home', 'tmpdir', 'user', 'hostname'] as const },
  }
}

async function capture(): Promise<Evidence> {
  return captureProcess(
    { ...scenario(), normalization: { placeholders: [...scenario().normalization.placeholders] } },
    { root },
  )
}

const raw = (evidence: Evidence) =>
  evidence.terminal.chunks.map((chunk) => chunk.raw_data ?? chunk.data).join('')

describe('storedAuthority', () => {
  test('stores every value of the machine as its token, and says so', async () => {
    const evidence = await capture()
    const stored = storedAuthority(evidence)
    const user = os.userInfo().username
    for (const value of [root, home, temporary, JSON.stringify(root).slice(1, -1)]) {
      expect(stored.text).not.toContain(value)
    }
    const applied = (stored.evidence.terminal.stream_normalization?.placeholders ?? []).flatMap((entry) =>
      entry.status === 'applied' ? [entry.name] : [],
    )
    // A host name of one or two letters (this VM's is `vm`) is skipped rather than replacing ordinary text.
    if (applied.includes('hostname')) {
      expect(stored.text).not.toMatch(new RegExp(`\\b${os.hostname()}\\b`))
      expect(raw(stored.evidence)).toContain('on [HOSTNAME]')
    }
    expect(stored.evidence.host.capture_root).toBe('[ROOT]')
    expect(stored.evidence.commitments.scenario.value.arguments).toEqual(['[ROOT]/show.mjs'])
    expect(stored.evidence.commitments.scenario.value.environment).toMatchObject({
      HOME: '[HOME]',
      TMPDIR: '[TMPDIR]',
    })
    expect(stored.evidence.normalized_result.files_after?.['root_0:config-link']).toEqual({
      type: 'symlink',
      target: '[HOME]/config',
    })
    expect(raw(stored.evidence)).toContain('cwd [ROOT] home [HOME] tmp [TMPDIR]')
    expect(raw(stored.evidence)).toContain('user [USER] on ')
    expect(applied).toEqual(expect.arrayContaining(['root', 'tmpdir', 'home', 'user']))
    expect(stored.evidence.machine_values).toEqual({
      version: 'placeholder-tokens-v1',
      placeholders: applied,
      replaced: expect.any(Number),
    })
    expect(stored.machineValuesLeft).toEqual([])
    // The capture the test holds keeps what the program really printed.
    expect(raw(evidence)).toContain(`cwd ${root}`)
    expect(evidence.host.capture_root).toBe(root)
    expect(user.length).toBeGreaterThan(0)
  })

  test('a node installed under the home (as nvm does) is stored under [HOME], not the author’s path', async () => {
    // Scenarios name the running node as process.execPath; under nvm that is a path in the author's home.
    const node = path.join(home, '.nvm/versions/node/v22.0.0/bin/node')
    mkdirSync(path.dirname(node), { recursive: true })
    symlinkSync(process.execPath, node)
    const evidence = await captureProcess(
      {
        ...scenario(),
        executable: node,
        normalization: { placeholders: [...scenario().normalization.placeholders] },
      },
      { root },
    )
    const stored = storedAuthority(evidence)
    expect(stored.text).not.toContain(home)
    const tokenized = '[HOME]/.nvm/versions/node/v22.0.0/bin/node'
    expect(stored.evidence.commitments.scenario.value.executable).toBe(tokenized)
    expect(stored.evidence.commitments.executable.value.executable).toBe(tokenized)
    expect(stored.machineValuesLeft).toEqual([])
    // Read back, it compares with a new capture of the same program as equivalent.
    const elsewhere = parseEvidenceText(stored.text, 'stored')
    const again = await captureProcess(
      {
        ...scenario(),
        executable: node,
        normalization: { placeholders: [...scenario().normalization.placeholders] },
      },
      { root },
    )
    expect(compareCaptures(elsewhere, again, { timing: 'ignore' }).verdict).toBe('equivalent')
  })

  test('is read back, its digest covering what it stores, and compares as the capture did', async () => {
    const first = await capture()
    const second = await capture()
    const stored = parseEvidenceText(storedAuthority(first).text, 'stored')
    expect(stored.identity_digest).toBe(computeIdentityDigest(stored as unknown as Record<string, unknown>))
    const direct = compareCaptures(first, second, { timing: 'ignore' })
    expect(direct.verdict, formatComparison(direct, { color: false })).toBe('equivalent')
    const fromStored = compareCaptures(stored, second, { timing: 'ignore' })
    expect(fromStored.verdict, formatComparison(fromStored, { color: false })).toBe('equivalent')
    expect(compareCaptures(second, stored, { timing: 'ignore' }).verdict).toBe('equivalent')
    // Storing a stored authority again changes nothing.
    expect(storedAuthority(stored).evidence).toBe(stored)
  })

  test('import rejects a stored authority whose machine_values were edited, even with a new digest', async () => {
    const stored = storedAuthority(await capture())
    const document = JSON.parse(stored.text) as { evidence: Record<string, unknown> }
    const evidence = document.evidence as { machine_values: { version: string }; identity_digest: string }
    evidence.machine_values.version = 'placeholder-tokens-v9'
    evidence.identity_digest = computeIdentityDigest(document.evidence)
    let error: unknown
    try {
      parseEvidenceText(JSON.stringify(document), 'edited')
    } catch (caught) {
      error = caught
    }
    expect(isReaError(error) && error.issues.map((issue) => issue.path)).toContain('machine_values.version')
  })

  test('a capture without placeholders is stored as it is', async () => {
    const plain = await captureProcess({ executable: 'node', arguments: ['-e', 'console.log(1)'] }, { root })
    expect(storedAuthority(plain).evidence).toBe(plain)
  })
})
