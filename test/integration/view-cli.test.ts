import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { serializeEvidence } from '../../src/index.js'
import { buildEvidence } from '../helpers/build-evidence.js'
import { runCli } from '../helpers/run-cli.js'

const directory = mkdtempSync(path.join(tmpdir(), 'rea-view-cli-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
writeFileSync(path.join(directory, 'a.json'), serializeEvidence(buildEvidence([{ chunk: 'hello\r\n' }])))
writeFileSync(path.join(directory, 'b.json'), serializeEvidence(buildEvidence([{ chunk: 'hallo\r\n' }])))

describe('rea view', () => {
  test('writes the page, whatever the verdict, and prints nothing', async () => {
    const result = await runCli(['view', 'a.json', 'b.json', '--output', 'page.html'], { cwd: directory })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout + result.stderr).toBe('')
    const page = readFileSync(path.join(directory, 'page.html'), 'utf8')
    expect(page).toContain('<span id="rea-verdict" class="badge bad">different</span>')
  })

  test('writes the page to stdout when it is not a terminal', async () => {
    const result = await runCli(['view', 'a.json', 'a.json', '--timing', 'strict', '--terminal', 'screens'], {
      cwd: directory,
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^<!doctype html>/)
    expect(result.stdout).toContain('<span id="rea-verdict" class="badge good">equivalent</span>')
  })

  test.each([
    [['view', 'a.json'], /Expected 2 arguments \(authority\.json, reconstruction\.json\), got 1/],
    [
      ['view', 'a.json', 'b.json', '--timing', 'loose'],
      /--timing: must be "tolerant", "strict", "ignore" or \{ tolerance_ms, ratio \}: got "loose"/,
    ],
    [
      ['view', 'a.json', 'b.json', '--terminal', 'cells'],
      /--terminal must be one of stream, screens: got "cells"/,
    ],
    [['view', 'a.json', 'b.json', '-o', 'b.json'], /is the same file as the reconstruction b\.json/],
    [['view', 'a.json', 'missing.json', '-o', 'x.html'], /missing\.json/],
  ])('rejects bad input with exit 3, naming what is wrong: %j', async (args, message) => {
    const result = await runCli(args, { cwd: directory })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})
