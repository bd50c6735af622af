import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  appendFileSync,
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { captureProcess, type Evidence } from '../../src/index.js'
import { parseEvidenceText } from '../../src/front-end.js'
import { program } from '../helpers/fixtures.js'
import { CLI } from '../helpers/run-cli.js'
import { waitFor } from '../helpers/wait-for.js'

let root: string
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rea-files-'))
})
afterEach(() => {
  execFileSync('chmod', ['-R', 'u+rwx', root])
  rmSync(root, { recursive: true, force: true })
})

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex')
const write = (relative: string, content: string | Buffer) => {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true })
  writeFileSync(path.join(root, relative), content)
}
const effectsOf = (evidence: Evidence) =>
  Object.fromEntries(evidence.filesystem.effects.map((effect) => [effect.path, effect.status]))

describe('filesystem observation', () => {
  test('hashes a report independently of terminal output (the seed’s example, verbatim)', async () => {
    const evidence = await captureProcess(
      {
        executable: 'node',
        arguments: [
          '-e',
          "const fs=require('node:fs');fs.mkdirSync('reports',{recursive:true});fs.writeFileSync('reports/final.json',JSON.stringify({status:'complete',data:'X'.repeat(131072)}));console.log('x'.repeat(8192));",
        ],
        working_directory: '.',
        filesystem_observation_paths: ['./reports'],
        limits: { output_bytes: 1024, file_bytes: 262144 },
      },
      { root },
    )
    const report = readFileSync(path.join(root, 'reports/final.json'))
    expect(evidence.normalized_result.files_after!['root_0:final.json']).toEqual({
      type: 'file',
      size: report.length,
      sha256: sha256(report),
      mode: expect.stringMatching(/^0[0-7]{3}$/) as string,
    })
    expect(evidence.truncation_details.raw_terminal.truncated).toBe(true)
    expect(evidence.truncation_details.filesystem_after).toMatchObject({
      bytes_hashed: report.length,
      hash_omissions: [],
      truncated: false,
    })
    expect(evidence.filesystem.roots).toEqual([
      { alias: 'root_0', path: './reports', before: 'missing', after: 'directory' },
    ])
    expect(effectsOf(evidence)).toEqual({ 'root_0:.': 'created', 'root_0:final.json': 'created' })
    expect(evidence.filesystem.checkpoints.map((checkpoint) => checkpoint.name)).toEqual([
      'before_launch',
      'after_settlement',
    ])
  })

  test('classifies created, deleted, modified and unchanged entries in one run', async () => {
    write('state/keep.txt', 'same')
    write('state/change.txt', 'before')
    write('state/remove.txt', 'bye')
    const evidence = await captureProcess(
      {
        executable: 'sh',
        arguments: ['-c', 'echo after > state/change.txt; rm state/remove.txt; echo new > state/new.txt'],
        filesystem_observation_paths: ['state'],
      },
      { root },
    )
    // A directory's entry is its type and mode: files changing inside it do not modify it.
    expect(effectsOf(evidence)).toEqual({
      'root_0:.': 'unchanged',
      'root_0:change.txt': 'modified',
      'root_0:keep.txt': 'unchanged',
      'root_0:new.txt': 'created',
      'root_0:remove.txt': 'deleted',
    })
    const changed = evidence.filesystem.effects.find((effect) => effect.path === 'root_0:change.txt')
    expect(changed).toMatchObject({ status: 'modified', changes: ['sha256'] })
  })

  test('keeps a file a SIGTERM trap writes during finalization', async () => {
    const evidence = await captureProcess(
      {
        executable: program('finalizer.sh'),
        arguments: ['out/report.txt'],
        filesystem_observation_paths: ['out'],
        timeout_ms: 400,
        finalization_ms: 5000,
      },
      { root: (mkdirSync(path.join(root, 'out')), root) },
    )
    expect(evidence.exit.finalization?.exit_code).toBe(3)
    expect(evidence.normalized_result.files_after!['root_0:report.txt']).toMatchObject({
      sha256: sha256('complete\n'),
    })
    expect(effectsOf(evidence)['root_0:report.txt']).toBe('created')
  })

  test('resolves observation paths against a working_directory other than the root', async () => {
    write('app/data/input.txt', 'in')
    const evidence = await captureProcess(
      {
        executable: 'sh',
        arguments: ['-c', 'cp data/input.txt data/output.txt'],
        working_directory: 'app',
        filesystem_observation_paths: ['data'],
      },
      { root },
    )
    expect(evidence.commitments.comparison_contract.value).toMatchObject({
      working_directory: 'app',
      filesystem_observation_paths: ['data'],
    })
    expect(effectsOf(evidence)['root_0:output.txt']).toBe('created')
  })

  test('keeps the effects of a complete root when another root exceeds the entry limit', async () => {
    write('small/a.txt', 'a')
    for (let index = 0; index < 10; index++) {
      write(`big/f${index}.txt`, String(index))
    }
    const evidence = await captureProcess(
      {
        executable: 'sh',
        arguments: ['-c', 'echo b > small/b.txt; rm big/f9.txt'],
        filesystem_observation_paths: ['small', 'big'],
        limits: { file_count: 7 },
      },
      { root },
    )
    const after = evidence.truncation_details.filesystem_after!
    expect(after.count_limit_reached).toBe(true)
    expect(after.roots).toEqual([
      { alias: 'root_0', exhausted: true },
      { alias: 'root_1', exhausted: false },
    ])
    expect(after.incomplete_directories).toEqual(['root_1:.'])
    const effects = effectsOf(evidence)
    expect(effects['root_0:b.txt']).toBe('created')
    expect(
      Object.entries(effects).filter(([key, status]) => key.startsWith('root_1:f') && status === 'deleted'),
    ).toEqual([])
    expect(evidence.residual_unknowns.some((unknown) => unknown.dimension === 'filesystem')).toBe(true)
    expect(evidence.truncated).toBe(true)
  })

  test('stops at the depth limit and says which directories it did not open', async () => {
    write('tree/a/b/deep.txt', 'deep')
    const evidence = await captureProcess(
      { executable: 'true', filesystem_observation_paths: ['tree'], limits: { filesystem_depth: 1 } },
      { root },
    )
    expect(Object.keys(evidence.normalized_result.files_after!)).toEqual(['root_0:.', 'root_0:a'])
    expect(evidence.truncation_details.filesystem_after).toMatchObject({
      depth_limited: ['root_0:a'],
      roots: [{ exhausted: false }],
    })
    // Every listed entry is unchanged, but what lies below the cut is not known to be.
    expect(evidence.residual_unknowns.filter((unknown) => unknown.dimension === 'filesystem')).toEqual([
      expect.objectContaining({
        reason: 'enumeration_incomplete',
        detail: expect.stringContaining('before_launch'),
      }),
      expect.objectContaining({
        reason: 'enumeration_incomplete',
        detail: expect.stringContaining('after_settlement'),
      }),
    ])
  })

  test('skips a file too large for the remaining budget and still hashes a later smaller one', async () => {
    write('out/a-big.bin', Buffer.alloc(2000, 1))
    write('out/b-small.bin', Buffer.alloc(500, 2))
    const evidence = await captureProcess(
      { executable: 'true', filesystem_observation_paths: ['out'], limits: { file_bytes: 1000 } },
      { root },
    )
    const files = evidence.normalized_result.files_after!
    expect(files['root_0:a-big.bin']).toMatchObject({ size: 2000, sha256: null })
    expect(files['root_0:b-small.bin']).toMatchObject({ size: 500, sha256: sha256(Buffer.alloc(500, 2)) })
    expect(evidence.truncation_details.filesystem_after!.hash_omissions).toEqual([
      {
        path: 'root_0:a-big.bin',
        size: 2000,
        remaining_budget: 1000,
        reason: 'file_bytes_budget',
        system_code: null,
      },
    ])
    // A digest missing on both sides with nothing else changed is not proof of "unchanged".
    expect(effectsOf(evidence)['root_0:a-big.bin']).toBe('unknown')
    expect(effectsOf(evidence)['root_0:b-small.bin']).toBe('unchanged')
  })

  test('records FIFOs, sockets and symbolic links without opening or following them', async () => {
    mkdirSync(path.join(root, 'special'))
    execFileSync('mkfifo', [path.join(root, 'special/pipe')])
    execFileSync('python3', [
      '-c',
      `import socket; socket.socket(socket.AF_UNIX).bind(${JSON.stringify(path.join(root, 'special/sock'))})`,
    ])
    symlinkSync('loop', path.join(root, 'special/loop'))
    symlinkSync('/etc', path.join(root, 'special/outside'))
    const evidence = await captureProcess(
      { executable: 'true', filesystem_observation_paths: ['special'] },
      { root },
    )
    const files = evidence.normalized_result.files_after!
    expect(files['root_0:pipe']).toMatchObject({ type: 'fifo' })
    expect(files['root_0:sock']).toMatchObject({ type: 'socket' })
    expect(files['root_0:loop']).toEqual({ type: 'symlink', target: 'loop' })
    expect(files['root_0:outside']).toEqual({ type: 'symlink', target: '/etc' })
    expect(Object.keys(files).some((key) => key.startsWith('root_0:outside/'))).toBe(false)
    expect(evidence.truncation_details.filesystem_after!.roots).toEqual([
      { alias: 'root_0', exhausted: true },
    ])
  })

  test('keeps names with spaces, newlines and invalid UTF-8 apart, with a reversible escape', async () => {
    const names = [
      Buffer.from('with space.txt'),
      Buffer.from('new\nline.txt'),
      Buffer.from([0x62, 0xff, 0x2e, 0x74]),
      Buffer.from('100%.txt'),
    ]
    mkdirSync(path.join(root, 'names'))
    for (const name of names) {
      writeFileSync(Buffer.concat([Buffer.from(path.join(root, 'names') + '/'), name]), 'x')
    }
    const evidence = await captureProcess(
      { executable: 'true', filesystem_observation_paths: ['names'] },
      { root },
    )
    expect(Object.keys(evidence.normalized_result.files_after!).sort()).toEqual(
      [
        'root_0:.',
        'root_0:100%25.txt',
        'root_0:b%FF.t',
        'root_0:new\nline.txt',
        'root_0:with space.txt',
      ].sort(),
    )
  })

  test('records a missing root as missing, not as an error', async () => {
    const evidence = await captureProcess(
      { executable: 'true', filesystem_observation_paths: ['nowhere'] },
      { root },
    )
    expect(evidence.filesystem.roots[0]).toMatchObject({ before: 'missing', after: 'missing' })
    expect(evidence.filesystem.effects).toEqual([])
    expect(evidence.truncated).toBe(false)
  })

  test('reports unreadable files and directories with the OS error code', () => {
    write('locked/open.txt', 'readable')
    write('locked/secret.txt', 'no')
    mkdirSync(path.join(root, 'locked/closed'))
    write('locked/closed/inner.txt', 'hidden')
    chmodSync(path.join(root, 'locked/secret.txt'), 0o000)
    chmodSync(path.join(root, 'locked/closed'), 0o000)
    writeFileSync(
      path.join(root, 'scenario.json'),
      JSON.stringify({ executable: 'true', filesystem_observation_paths: ['locked'] }),
    )
    // Root reads everything; without these capabilities, permissions apply as for any user.
    const caps = '-dac_override,-dac_read_search'
    const output = execFileSync(
      'setpriv',
      [
        `--bounding-set=${caps}`,
        `--inh-caps=${caps}`,
        process.execPath,
        CLI,
        'capture-process',
        'scenario.json',
        '--json',
        '--no-progress',
      ],
      { cwd: root, encoding: 'utf8' },
    )
    const after = parseEvidenceText(output).truncation_details.filesystem_after!
    expect(after.hash_omissions).toEqual([
      expect.objectContaining({
        path: 'root_0:secret.txt',
        reason: 'file_unavailable',
        system_code: 'EACCES',
      }),
    ])
    expect(after.enumeration_failures).toEqual([{ path: 'root_0:closed', system_code: 'EACCES' }])
    expect(after.roots).toEqual([{ alias: 'root_0', exhausted: false }])
  })
})

describe('hashing a file that changes', () => {
  // The writer alternates two versions of different sizes, each one byte repeated, by truncating and
  // rewriting. Every state the file really has (empty, partly written, complete) is then one byte repeated,
  // so a digest of bytes read consistently equals the digest of that byte repeated `bytes` times. A read torn
  // across a change would mix bytes, and a prefix reported as the whole file would disagree with the size.
  const consistent = (digest: string, bytes: number) =>
    ['a', 'b'].some((fill) => sha256(Buffer.alloc(bytes, fill)) === digest)

  test('never reports a torn or prefix digest while the file is rewritten', async () => {
    write('live/v0', Buffer.alloc(3 * 1024 * 1024, 'a'))
    write('live/v1', Buffer.alloc(2 * 1024 * 1024, 'b'))
    write('live/file', Buffer.alloc(3 * 1024 * 1024, 'a'))
    // Short rests between rewrites leave stable windows, so some reads are confirmed and the test sees both
    // outcomes; without them a loaded or an idle machine can make every read overlap a rewrite.
    const writer = spawn('sh', ['-c', 'while :; do cp v1 file; sleep 0.03; cp v0 file; sleep 0.03; done'], {
      cwd: path.join(root, 'live'),
      stdio: 'ignore',
    })
    try {
      const { hashFileConsistently } = await import('../../src/filesystem/hash.js')
      const seen = { hashed: 0, changed: 0 }
      for (let attempt = 0; attempt < 300; attempt++) {
        const result = await hashFileConsistently(path.join(root, 'live/file'), null, 64 * 1024 * 1024)
        if (result.status === 'hashed') {
          seen.hashed++
          expect(consistent(result.sha256, result.bytes), `inconsistent digest at attempt ${attempt}`).toBe(
            true,
          )
        } else {
          seen.changed++
          expect(result.reason).toBe('file_changed_or_short_read')
        }
      }
      // The check must have been exercised both ways for the test to mean anything.
      expect(seen.changed).toBeGreaterThan(0)
      expect(seen.hashed).toBeGreaterThan(0)
    } finally {
      writer.kill('SIGKILL')
    }
  })
})

describe('hashing against the listed state', () => {
  test('refuses a digest when the file changed between enumeration and hashing', async () => {
    // Before this check, the entry paired the listed size with a digest of the later contents.
    write('grown.txt', 'first\n')
    const listed = lstatSync(path.join(root, 'grown.txt'), { bigint: true })
    appendFileSync(path.join(root, 'grown.txt'), 'second\n')
    const { hashFile } = await import('../../src/filesystem/hash.js')
    const result = await hashFile(path.join(root, 'grown.txt'), listed, 1024)
    expect(result).toMatchObject({ status: 'omitted', reason: 'file_changed_or_short_read' })
  })

  test('hashes a file whose listed state still holds', async () => {
    write('steady.txt', 'steady\n')
    const listed = lstatSync(path.join(root, 'steady.txt'), { bigint: true })
    const { hashFile } = await import('../../src/filesystem/hash.js')
    const result = await hashFile(path.join(root, 'steady.txt'), listed, 1024)
    expect(result).toMatchObject({ status: 'hashed', sha256: sha256('steady\n'), bytes: 7 })
  })
})

describe('cancelling a checkpoint', () => {
  const limits = { fileCount: 100, depth: 8, fileBytes: 256 * 1024 * 1024 }

  test('stops hashing at the next batch and hashes nothing after it', async () => {
    // Larger than one read batch, so hashing yields to the event loop, where the abort below runs.
    write('data/a-large.bin', Buffer.alloc(24 * 1024 * 1024, 'x'))
    write('data/b-small.txt', 'small\n')
    const { takeSnapshot } = await import('../../src/filesystem/snapshot.js')
    const controller = new AbortController()
    setImmediate(() => {
      controller.abort()
    })
    const snapshot = await takeSnapshot([path.join(root, 'data')], limits, controller.signal)
    expect(snapshot.accounting.hash_omissions.map(({ path, reason }) => ({ path, reason }))).toEqual([
      { path: 'root_0:a-large.bin', reason: 'cancelled' },
      { path: 'root_0:b-small.txt', reason: 'cancelled' },
    ])
    expect(snapshot.accounting.bytes_hashed).toBe(0)
    expect(snapshot.entries['root_0:a-large.bin']).toMatchObject({ type: 'file', sha256: null })
  })

  test('still enumerates after cancellation, so a cancelled run records which entries exist', async () => {
    write('one/file.txt', 'x')
    write('two/file.txt', 'y')
    const { takeSnapshot } = await import('../../src/filesystem/snapshot.js')
    const snapshot = await takeSnapshot(
      [path.join(root, 'one'), path.join(root, 'two')],
      limits,
      AbortSignal.abort(),
    )
    expect(Object.keys(snapshot.entries)).toEqual([
      'root_0:.',
      'root_0:file.txt',
      'root_1:.',
      'root_1:file.txt',
    ])
    expect(snapshot.accounting.roots).toEqual([
      { alias: 'root_0', exhausted: true },
      { alias: 'root_1', exhausted: true },
    ])
    expect(snapshot.accounting.hash_omissions.map(({ reason }) => reason)).toEqual(['cancelled', 'cancelled'])
  })

  test('takes files_after for a cancelled capture: creation is known, contents are not', async () => {
    mkdirSync(path.join(root, 'out'))
    const controller = new AbortController()
    const marker = path.join(root, 'out/started')
    const capture = captureProcess(
      {
        executable: 'sh',
        arguments: ['-c', `echo hi > ${JSON.stringify(marker)}; exec sleep 30`],
        filesystem_observation_paths: ['out'],
      },
      { root, signal: controller.signal },
    )
    await waitFor(() => existsSync(marker), { description: 'the command to write its file' })
    controller.abort()
    const evidence = await capture
    expect(evidence.disposition).toBe('cancelled')
    expect(evidence.normalized_result.files_after!['root_0:started']).toEqual({
      type: 'file',
      size: 3,
      sha256: null,
      mode: expect.any(String),
    })
    expect(evidence.truncation_details.filesystem_after!.hash_omissions).toEqual([
      {
        path: 'root_0:started',
        size: 3,
        remaining_budget: 64 * 1024 * 1024,
        reason: 'cancelled',
        system_code: null,
      },
    ])
    expect(effectsOf(evidence)['root_0:started']).toBe('created')
  })
})
