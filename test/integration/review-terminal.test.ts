import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { writeAuthority } from '../../src/authority/stored-authority.js'
import { writePendingCapture } from '../../src/authority/pending-store.js'
import { captureProcess, type Evidence } from '../../src/index.js'
import { CLI } from '../helpers/run-cli.js'

/** `rea review` in a real terminal, captured by REA itself: what a person sees, the keys they press. */

const folders: string[] = []
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })))

interface PendingPair {
  readonly authority: string
  readonly pending: string
}

/** A project with, for each test name, an authority printing `before` and a pending capture printing `after`. */
async function project(pairs: Record<string, [before: string, after: string]>) {
  const folder = mkdtempSync(path.join(tmpdir(), 'rea-review-tui-'))
  folders.push(folder)
  const files: Record<string, PendingPair> = {}
  for (const [name, [before, after]] of Object.entries(pairs)) {
    const print = (text: string) => captureProcess({ executable: 'printf', arguments: [`${text}\\n`] })
    const authority = authorityPathFor(path.join(folder, 'todo.test.mjs'), name, 1)
    expect(writeAuthority(authority, await print(before)).failure).toBeNull()
    const written = writePendingCapture(authority, await print(after))
    expect(written.state).toBe('written')
    files[name] = { authority, pending: written.state === 'written' ? written.pending : '' }
  }
  return { folder, files }
}

const BOTH_SIDES = '^You have 3 tasks today\\. +│ You have 3 chores today\\.'
const output = (evidence: Evidence) => evidence.terminal.chunks.map((chunk) => chunk.data).join('')
const finalScreen = (evidence: Evidence) => {
  const frame = evidence.terminal.frames.findLast((entry) => entry.status === 'retained')
  return frame?.status === 'retained' ? frame.lines.join('\n') : ''
}
const dispatched = (evidence: Evidence) => evidence.interactions.map((interaction) => interaction.outcome)

describe('rea review in a terminal', () => {
  test('shows both sides with the changed word, accepts with a, follows a resize, rejects with r', async () => {
    const { folder, files } = await project({
      greets: ['You have 3 tasks today.', 'You have 3 chores today.'],
      lists: ['one', 'two'],
    })
    const lists = readFileSync(files['lists']!.authority)
    const evidence = await captureProcess({
      executable: process.execPath,
      arguments: [CLI, 'review'],
      working_directory: folder,
      terminal: { columns: 80, rows: 24 },
      events: [
        // The sides are 38 cells wide at 80 columns: the old line, padded, then the new one; above them, the
        // verdict of each dimension.
        { type: 'input', data: '?', after: { screen_regex: BOTH_SIDES } },
        { type: 'input', data: '?', after: { screen: 'A R S  the same for this one and every one left' } },
        { type: 'input', data: 'd', after: { screen_regex: BOTH_SIDES } },
        { type: 'input', data: 'd', after: { screen: 'review section, whole (d: screens)' } },
        { type: 'input', data: 'a', after: { screen_regex: BOTH_SIDES } },
        {
          type: 'resize',
          columns: 100,
          rows: 30,
          after: { screen: 'rea review 2/2 · todo.test.mjs › lists' },
        },
        // Redrawn for 100 columns: 48-cell sides, the keys on the last of 30 rows.
        { type: 'input', data: 'r', after: { screen_regex: '^one {46}│ two' } },
      ],
      timeout_ms: 60_000,
    })
    expect(dispatched(evidence)).toEqual(Array(7).fill('dispatched'))
    expect(evidence.exit.code).toBe(0)
    const first = evidence.terminal.frames.find((frame) => frame.status === 'retained' && frame.checkpoint)
    expect(first?.status === 'retained' ? first.lines.join('\n') : '').toMatch(
      /^different: terminal different · .*exit equal/m,
    )
    expect(readFileSync(files['greets']!.authority, 'utf8')).toContain('You have 3 chores today.')
    expect(existsSync(files['greets']!.pending)).toBe(false)
    expect(readFileSync(files['lists']!.authority).equals(lists)).toBe(true)
    expect(existsSync(files['lists']!.pending)).toBe(false)
    expect(finalScreen(evidence)).toMatch(/accepted: [\s\S]*greets 1-[\s\S]*rejected: [\s\S]*lists 1-/)
  })

  test('s skips one, R rejects it and every one left; the skipped one stays pending', async () => {
    const { folder, files } = await project({
      alpha: ['one', 'uno'],
      beta: ['two', 'dos'],
      gamma: ['three', 'tres'],
    })
    const evidence = await captureProcess({
      executable: process.execPath,
      arguments: [CLI, 'review'],
      working_directory: folder,
      terminal: { columns: 80, rows: 24 },
      events: [
        { type: 'input', data: 's', after: { screen: 'rea review 1/3' } },
        { type: 'input', data: 'R', after: { screen: 'rea review 2/3' } },
      ],
      timeout_ms: 60_000,
    })
    expect(dispatched(evidence)).toEqual(['dispatched', 'dispatched'])
    expect(evidence.exit.code).toBe(0)
    const pending = Object.values(files).filter((file) => existsSync(file.pending))
    expect(pending).toHaveLength(1)
    expect(finalScreen(evidence)).toMatch(/still pending: /)
  })

  test('Ctrl-C leaves the terminal in line mode with echo, and every capture pending', async () => {
    const { folder, files } = await project({ greets: ['tasks', 'chores'] })
    const evidence = await captureProcess({
      executable: 'sh',
      arguments: ['-c', `"${process.execPath}" "${CLI}" review; echo "review exited $?"; stty -a`],
      working_directory: folder,
      terminal: { columns: 80, rows: 24 },
      events: [{ type: 'input', data: '\x03', after: { screen: 'rea review 1/1' } }],
      timeout_ms: 60_000,
    })
    expect(dispatched(evidence)).toEqual(['dispatched'])
    const screen = finalScreen(evidence)
    expect(screen).toContain('review exited 130')
    expect(screen).toMatch(/(^|\s)icanon(\s|$)/m)
    expect(screen).toMatch(/(^|\s)echo(\s|$)/m)
    expect(screen).not.toMatch(/-icanon|(^|\s)-echo(\s|$)/m)
    expect(existsSync(files['greets']!.pending)).toBe(true)
  })

  test('SIGTERM gives the terminal back (the normal screen, the cursor) and exits 143', async () => {
    const { folder, files } = await project({ greets: ['tasks', 'chores'] })
    const evidence = await captureProcess({
      executable: process.execPath,
      arguments: [CLI, 'review'],
      working_directory: folder,
      events: [{ type: 'signal', signal: 'SIGTERM', after: { screen: 'rea review 1/1' } }],
      timeout_ms: 60_000,
    })
    expect(evidence.exit).toMatchObject({ code: 143, signal: 0 })
    const text = output(evidence)
    expect(text.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(text.lastIndexOf('\x1b[?1049h'))
    expect(text.lastIndexOf('\x1b[?25h')).toBeGreaterThan(text.lastIndexOf('\x1b[?25l'))
    expect(existsSync(files['greets']!.pending)).toBe(true)
  })

  test('without a terminal it lists what is pending and how to act, and never waits for a key', async () => {
    const { folder } = await project({ greets: ['tasks', 'chores'] })
    const { runCli } = await import('../helpers/run-cli.js')
    const result = await runCli(['review'], { cwd: folder, killAfterMs: 60_000 })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/no terminal to review in[\s\S]*1 pending capture[\s\S]*--accept/)
  })
})
