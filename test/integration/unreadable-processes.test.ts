import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parseEvidenceText } from '../../src/front-end.js'
import { readStartIdentity } from '../../src/process/identity.js'
import { CLI } from '../helpers/run-cli.js'

const NOBODY = '65534'
/** The capture runs as nobody, who must be able to reach this checkout (a clone under a 0700 folder is not). */
const nobodyCanRunCli =
  spawnSync('setpriv', ['--reuid', NOBODY, '--regid', NOBODY, '--clear-groups', 'test', '-r', CLI]).status ===
  0
let directory: string
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-unreadable-'))
  chmodSync(directory, 0o777)
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe('processes whose ownership cannot be read', () => {
  test.skipIf(!nobodyCanRunCli)(
    'lists an unrelated process started during the capture as unverified and leaves it alive',
    async () => {
      // The capture runs as an unprivileged user, so it cannot read the environment of root's processes.
      const marker = path.join(directory, 'go')
      writeFileSync(
        path.join(directory, 'scenario.json'),
        JSON.stringify({
          executable: 'sh',
          arguments: ['-c', `until [ -e '${marker}' ]; do sleep 0.01; done`],
          settle_ms: 50,
        }),
      )
      const capture = spawn(
        'setpriv',
        [
          '--reuid',
          NOBODY,
          '--regid',
          NOBODY,
          '--clear-groups',
          process.execPath,
          CLI,
          'capture-process',
          'scenario.json',
          '--json',
        ],
        { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] },
      )
      let stdout = ''
      capture.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
      const exited = new Promise<number | null>((resolve) => capture.on('close', resolve))
      // Progress arrives in pipe chunks that may split a line: look at everything received so far.
      let stderr = ''
      await new Promise<void>((resolve, reject) => {
        capture.stderr.setEncoding('utf8').on('data', (text: string) => {
          stderr += text
          if (stderr.includes('"phase":"running"')) {
            resolve()
          }
        })
        // A capture that ends before it runs fails the test with its own words instead of hanging it.
        void exited.then((code) =>
          reject(new Error(`the capture exited with ${code} before running: ${stderr}`)),
        )
      })

      let unrelated: ChildProcess | undefined
      try {
        // A full-privilege process that starts while the capture runs and has nothing to do with it.
        unrelated = spawn('sleep', ['600'], { stdio: 'ignore' })
        await new Promise((resolve) => unrelated!.once('spawn', resolve))
        writeFileSync(marker, '')
        expect(await exited).toBe(0)
        const evidence = parseEvidenceText(stdout)
        expect(evidence.cleanup.unverified_processes).toContainEqual(
          expect.objectContaining({ pid: unrelated.pid, related: false }),
        )
        expect(evidence.residual_unknowns).toContainEqual(
          expect.objectContaining({ dimension: 'process', reason: 'unrelated_process_unverified' }),
        )
        expect(evidence.cleanup.killed.map((entry) => entry.pid)).not.toContain(unrelated.pid)
        expect(readStartIdentity(unrelated.pid!).status).toBe('ok')
        // Processes that were running before the capture cannot be its own and are not listed.
        expect(evidence.cleanup.unverified_processes.map((entry) => entry.pid)).not.toContain(process.pid)
        expect(evidence.cleanup.owned_processes).toBe('not_needed')
      } finally {
        unrelated?.kill('SIGKILL')
        capture.kill('SIGKILL')
      }
    },
  )
})
