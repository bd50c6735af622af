import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { comparisonSchema, parseEvidence, type Evidence } from '../../src/index.js'
import { jsonSchemaFor, parseEvidenceText } from '../../src/front-end.js'
import { program, REPO_ROOT } from '../helpers/fixtures.js'
import { CLI, runCli } from '../helpers/run-cli.js'
import { findTokenCarriers, workerMarker } from '../helpers/token-carriers.js'
import { waitFor } from '../helpers/wait-for.js'
import { buildEvidence } from '../helpers/build-evidence.js'
import { authorityPathFor } from '../../src/authority/authority-path.js'
import { writeAuthority } from '../../src/authority/stored-authority.js'
import { writePendingCapture } from '../../src/authority/pending-store.js'
import { rawControlCharacters } from '../helpers/control-characters.js'
import { createSpecialFiles } from '../helpers/special-files.js'

let directory: string
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'rea-mcp-'))
})
afterAll(() => rmSync(directory, { recursive: true, force: true }))

interface Server {
  readonly client: Client
  readonly pid: number
  stderr(): string
}

const servers: Server[] = []
// Runs before the leak check (after hooks run in reverse order), which would otherwise count the server itself.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.client.close()))
})

/** `rea mcp` from the built CLI, as an MCP client starts it; stderr is collected, not inherited. */
async function startServer(
  options: { cwd?: string; args?: string[]; nodeArgs?: string[] } = {},
): Promise<Server> {
  const environment: Record<string, string> = { NO_COLOR: '1' }
  // The SDK passes only a few variables by default; the leak check needs the worker marker to reach captures.
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined) {
      environment[name] = value
    }
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), CLI, 'mcp', ...(options.args ?? [])],
    cwd: options.cwd ?? directory,
    env: environment,
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const client = new Client({ name: 'rea-mcp-test', version: '1.0.0' })
  // SDK 1.32.2 reports progress that arrives in the same read as its result as an "unknown token" error
  // (typescript-sdk#2580); that is the client's race, not a protocol fault of the server.
  client.onerror = () => undefined
  await client.connect(transport).catch((error: unknown) => {
    throw new Error(`rea mcp did not start: ${String(error)}; its stderr:\n${stderr}`, { cause: error })
  })
  const server: Server = { client, pid: transport.pid as number, stderr: () => stderr }
  servers.push(server)
  return server
}

async function call(server: Server, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return (await server.client.callTool({ name, arguments: args })) as CallToolResult
  } catch (error) {
    throw new Error(`${name} failed: ${String(error)}; the server's stderr:\n${server.stderr()}`, {
      cause: error,
    })
  }
}

const textOf = (result: CallToolResult): string =>
  result.content.map((item) => (item.type === 'text' ? item.text : '')).join('')

const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)

const liveCaptures = () => findTokenCarriers(workerMarker())

const processExists = (pid: number) =>
  existsSync(`/proc/${pid}`) && !/\) Z /.test(safeRead(`/proc/${pid}/stat`))
function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    // Gone between the check and the read.
    return ''
  }
}

describe('rea mcp', () => {
  test('lists the eight tools; the capture input schema is the scenario JSON Schema', async () => {
    const server = await startServer()
    const { tools } = await server.client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'capture_process_scenario',
      'capture_process_scenario_to_file',
      'compare_process_captures',
      'check_capabilities',
      'list_pending_captures',
      'show_pending_capture',
      'accept_pending_captures',
      'reject_pending_captures',
    ])
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
    expect(byName['capture_process_scenario']?.inputSchema).toEqual(jsonSchemaFor('scenario'))
    expect(byName['capture_process_scenario_to_file']?.inputSchema.required).toEqual([
      'scenario',
      'output_path',
    ])
    expect(Object.keys(byName['compare_process_captures']?.inputSchema.properties ?? {})).toEqual([
      'authority',
      'reconstruction',
      'trace',
      'timing',
      'terminal',
    ])
    expect(byName['compare_process_captures']?.annotations?.readOnlyHint).toBe(true)
  })

  test('captures a scenario: Evidence as structured content, a summary as text, paths against the server cwd', async () => {
    const server = await startServer()
    const result = await call(server, 'capture_process_scenario', {
      executable: program('exit-with.sh'),
      arguments: ['3', 'bye'],
    })
    expect(result.isError).toBeFalsy()
    const evidence = parseEvidence(result.structuredContent, 'structuredContent')
    expect(evidence.exit).toMatchObject({ code: 3, reason: 'exited' })
    expect(evidence.host.capture_root).toBe(directory)
    expect(textOf(result)).toContain('REA capture')
    expect(textOf(result)).toContain('exit code 3')
  })

  test('the summary text shows each event’s outcome and the cause of a skip', async () => {
    const server = await startServer()
    const result = await call(server, 'capture_process_scenario', {
      executable: 'bash',
      arguments: ['-c', 'echo ready; sleep 30'],
      events: [{ type: 'input', data: 'x\r', after: { screen: 'never shown' } }],
      timeout_ms: 1000,
    })
    expect(textOf(result)).toContain('signal 9 (timeout)')
    expect(textOf(result)).toContain(`events    0 input skipped at`)
    expect(textOf(result)).toContain(
      `REA's timeout_ms (1000 ms) ended the run before the event was due [deadline] (waited for screen "never shown", never met)`,
    )
  })

  test('--root sets the capture root for clients that cannot choose the working directory', async () => {
    const server = await startServer({ cwd: REPO_ROOT, args: ['--root', directory] })
    const result = await call(server, 'capture_process_scenario', { executable: program('print-cwd.mjs') })
    const evidence = parseEvidence(result.structuredContent)
    expect(evidence.host.capture_root).toBe(directory)
    expect(evidence.terminal.chunks.map((chunk) => chunk.data).join('')).toContain(directory)
  })

  test('compares a prompt shown 0.6 s later as equivalent by default and as different under strict', async () => {
    const server = await startServer()
    const late = (delay: string) => ({
      executable: program('delayed-prompt.mjs'),
      arguments: ['--delay', delay],
      events: [{ type: 'input', data: 'Ada\r', after: { output: 'Name? ' } }],
    })
    await call(server, 'capture_process_scenario_to_file', { scenario: late('20'), output_path: 'fast.json' })
    await call(server, 'capture_process_scenario_to_file', {
      scenario: late('650'),
      output_path: 'slow.json',
    })
    const tolerant = await call(server, 'compare_process_captures', {
      authority: 'fast.json',
      reconstruction: 'slow.json',
    })
    expect(tolerant.structuredContent, textOf(tolerant)).toMatchObject({
      verdict: 'equivalent',
      timing: { policy: 'tolerant', min_ms: 500, fraction: 0.75 },
    })
    const strict = await call(server, 'compare_process_captures', {
      authority: 'fast.json',
      reconstruction: 'slow.json',
      timing: 'strict',
    })
    expect(strict.structuredContent).toMatchObject({ verdict: 'different' })
  })

  test('captures to files and compares them by path and inline; a difference is a result, not an error', async () => {
    const server = await startServer()
    const same = { executable: 'echo', arguments: ['same'] }
    const first = await call(server, 'capture_process_scenario_to_file', {
      scenario: same,
      output_path: 'authority.json',
    })
    expect(first.isError).toBeFalsy()
    expect(first.structuredContent).toMatchObject({
      output_path: path.join(directory, 'authority.json'),
      disposition: 'exited',
    })
    expect(textOf(first)).toContain(`saved to ${path.join(directory, 'authority.json')}`)
    const saved = parseEvidenceText(readFileSync(path.join(directory, 'authority.json'), 'utf8'))
    expect(first.structuredContent?.['identity_digest']).toBe(saved.identity_digest)
    await call(server, 'capture_process_scenario_to_file', { scenario: same, output_path: 'again.json' })

    const equal = await call(server, 'compare_process_captures', {
      authority: 'authority.json',
      reconstruction: 'again.json',
    })
    expect(equal.isError).toBeFalsy()
    const comparison = comparisonSchema.parse(equal.structuredContent)
    expect(comparison.verdict, textOf(equal)).toBe('equivalent')
    expect(comparison.authority.source).toBe('authority.json')
    expect(textOf(equal)).toMatch(/^REA comparison equivalent/)

    const other = await call(server, 'capture_process_scenario', { executable: 'echo', arguments: ['other'] })
    const different = await call(server, 'compare_process_captures', {
      authority: 'authority.json',
      reconstruction: other.structuredContent,
      timing: 'strict',
    })
    expect(different.isError).toBeFalsy()
    expect(different.structuredContent).toMatchObject({
      verdict: 'different',
      reconstruction: { source: null },
      timing: { policy: 'strict' },
      first_divergence: { field: 'terminal.stream' },
    })
    const ignored = await call(server, 'compare_process_captures', {
      authority: 'authority.json',
      reconstruction: 'again.json',
      timing: 'ignore',
    })
    expect(ignored.structuredContent).toMatchObject({ verdict: 'equivalent', timing: { policy: 'ignore' } })
    const explicit = await call(server, 'compare_process_captures', {
      authority: 'authority.json',
      reconstruction: 'again.json',
      timing: { tolerance_ms: 100, ratio: 0.5 },
    })
    expect(explicit.structuredContent).toMatchObject({
      timing: { policy: 'tolerance', min_ms: 100, fraction: 0.5 },
    })
    const bad = await call(server, 'compare_process_captures', {
      authority: 'authority.json',
      reconstruction: 'again.json',
      timing: { tolerance_ms: 100, ratio: 3 },
    })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toContain('timing.ratio: must be a number from 0 to 1')
  })

  test('names the first screen row that differs as old → new text, and escapes the command line', async () => {
    const server = await startServer()
    for (const [file, greeting] of [
      ['greet-ada.json', 'Hello, Ada!'],
      ['greet-bob.json', 'Hello, Bob!'],
    ]) {
      const saved = await call(server, 'capture_process_scenario_to_file', {
        scenario: {
          executable: '/bin/sh',
          // Rows 1 and 2 are the argument holding a newline, an ESC and a quote; row 3 the one-word change.
          arguments: ['-c', `printf '%s\\n' "$@"`, 'sh', 'one\ntwo \u001b[31m"q"', greeting],
        },
        output_path: file,
      })
      expect(saved.isError, textOf(saved)).toBeFalsy()
    }
    const result = await call(server, 'compare_process_captures', {
      authority: 'greet-ada.json',
      reconstruction: 'greet-bob.json',
    })
    expect(result.isError, textOf(result)).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ verdict: 'different' })
    const text = textOf(result)
    expect(text).toContain('screen          checkpoint 0 (final), row 3: "Hello, Ada!" → "Hello, Bob!"')
    // The command line by the one escaping rule: the argument quoted, its newline, ESC and quote visible.
    expect(text).toContain(
      `authority       greet-ada.json: /bin/sh -c "printf '%s\\\\n' \\"$@\\"" sh "one\\ntwo \\e[31m\\"q\\"" "Hello, Ada!"`,
    )
    expect(rawControlCharacters(text)).toEqual([])
  })

  test('compares by screens with the argument terminal, and names it when only the drawing differs', async () => {
    const server = await startServer()
    const scenario = {
      executable: program('random-draw.mjs'),
      events: [{ type: 'input', data: '\r', after: { screen: 'Ready' } }],
    }
    for (const output_path of ['drawn-1.json', 'drawn-2.json']) {
      expect(
        (await call(server, 'capture_process_scenario_to_file', { scenario, output_path })).isError,
      ).toBeFalsy()
    }
    const pair = { authority: 'drawn-1.json', reconstruction: 'drawn-2.json' }
    const byStream = await call(server, 'compare_process_captures', pair)
    expect(byStream.structuredContent).toMatchObject({
      verdict: 'different',
      terminal_level: 'stream',
      screens_equal: true,
    })
    expect(textOf(byStream)).toContain(
      'To compare what the screens show, use the argument terminal: "screens"',
    )
    // Only the terminal is looked at here: how fast the program ran on a loaded machine is left out.
    const byScreens = await call(server, 'compare_process_captures', {
      ...pair,
      terminal: 'screens',
      timing: 'ignore',
    })
    expect(byScreens.structuredContent, textOf(byScreens)).toMatchObject({
      verdict: 'equivalent',
      terminal_level: 'screens',
    })
    const bad = await call(server, 'compare_process_captures', { ...pair, terminal: 'pixels' })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toContain('terminal: must be "stream" or "screens": got "pixels"')
  })

  test('leaves the V8 coverage of a Node.js program in coverage_directory, as rea capture-process --coverage does', async () => {
    const server = await startServer()
    const result = await call(server, 'capture_process_scenario_to_file', {
      scenario: { executable: process.execPath, arguments: ['-e', 'console.log("covered")'] },
      output_path: 'covered.json',
      coverage_directory: 'mcp-coverage',
    })
    expect(result.isError, textOf(result)).toBeFalsy()
    const files = readdirSync(path.join(directory, 'mcp-coverage'))
    expect(files).toEqual([expect.stringMatching(/^coverage-\d+-\d+-\d+\.json$/)])
    const saved = parseEvidenceText(readFileSync(path.join(directory, 'covered.json'), 'utf8'))
    expect(saved.coverage).toEqual({ variables: ['NODE_V8_COVERAGE'], v8_files_written: 1 })
    const bad = await call(server, 'capture_process_scenario_to_file', {
      scenario: { executable: 'echo' },
      output_path: 'never.json',
      coverage_directory: 7,
    })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toContain('coverage_directory: must be a string (a file path): got 7')
  })

  test('saves the Evidence elsewhere when output_path stops being writable during the capture', async () => {
    const server = await startServer()
    mkdirSync(path.join(directory, 'doomed'))
    const result = await call(server, 'capture_process_scenario_to_file', {
      scenario: { executable: 'rm', arguments: ['-r', 'doomed'] },
      output_path: 'doomed/capture.json',
    })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('The capture ran, but doomed/capture.json could not be written (ENOENT)')
    const file = result.structuredContent?.['output_path'] as string
    try {
      expect(parseEvidenceText(readFileSync(file, 'utf8')).exit.code).toBe(0)
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true })
    }
  })

  test('sends progress notifications while a capture runs when the client asks for them', async () => {
    const server = await startServer()
    const updates: Progress[] = []
    const result = (await server.client.callTool(
      { name: 'capture_process_scenario', arguments: { executable: 'sleep', arguments: ['1.5'] } },
      undefined,
      { onprogress: (progress) => updates.push(progress) },
    )) as CallToolResult
    expect(result.isError).toBeFalsy()
    expect(updates.length).toBeGreaterThanOrEqual(2)
    for (const [index, update] of updates.entries()) {
      expect(update.message).toMatch(/^phase=\w+ elapsed_ms=\d+ frames=\d+ samples=\d+ interactions=\d+/)
      expect(update.total).toBeUndefined()
      expect(update.progress).toBeGreaterThan(index === 0 ? 0 : (updates[index - 1]?.progress ?? 0))
    }
    expect(updates.some((update) => update.message?.startsWith('phase=running'))).toBe(true)
  })

  test('writes only protocol to stdout, every progress notification before the result, and exits 0 on EOF', async () => {
    const server = startRawServer()
    server.captureWithProgress(1, { executable: 'echo', arguments: ['wire'] })
    const messages = await server.messagesUntil((message) => message['id'] === 1)
    server.child.stdin.end()
    expect(await server.exited).toBe(0)
    expect(messages.every((message) => message['jsonrpc'] === '2.0')).toBe(true)
    const afterInitialize = messages.slice(1)
    const result = afterInitialize.at(-1) as { id: number; result: CallToolResult }
    const progress = afterInitialize.slice(0, -1) as { method: string; params: Progress }[]
    expect(result.id).toBe(1)
    expect(progress.map((message) => message.method)).toEqual(progress.map(() => 'notifications/progress'))
    expect(progress.at(-1)?.params.message).toMatch(
      /^phase=cleanup .* disposition=exited owned_processes=\w+/,
    )
    expect(server.stdout().endsWith('\n')).toBe(true)
    expect(server.stderr()).toContain('rea mcp: client disconnected; stopping')
    expect(server.stderr()).not.toContain('wire')
  })

  test.for([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    'stops on %s with exit %i after cancelling the captures still running',
    async ([signal, code]) => {
      const server = startRawServer()
      server.captureWithProgress(1, detachedAndWaiting())
      await server.messagesUntil(
        (message) => JSON.stringify(message).includes('phase=running') && detachedSleeperRuns(),
      )
      server.child.kill(signal)
      expect(await server.exited).toBe(code)
      expect(liveCaptures()).toEqual([])
      expect(server.stderr()).toContain(`rea mcp: received ${signal}; stopping`)
    },
  )

  test('rejects a --root that is not a directory with exit 3, naming it by the one escaping rule', async () => {
    const result = await runCli(['mcp', '--root', path.join(directory, 'no-such\ndirectory')])
    expect(result.code).toBe(3)
    expect(result.stderr).toContain(
      `--root "${directory}/no-such\\ndirectory" is not a usable directory (ENOENT)`,
    )
    expect(result.stdout).toBe('')
  })

  test('cancelling a capture kills its process tree, still saves the Evidence, and the server keeps serving', async () => {
    const server = await startServer()
    const updates: string[] = []
    const controller = new AbortController()
    const output = path.join(directory, 'cancelled.json')
    const cancelled = server.client
      .callTool(
        {
          name: 'capture_process_scenario_to_file',
          arguments: {
            scenario: detachedAndWaiting(),
            output_path: 'cancelled.json',
          },
        },
        undefined,
        { signal: controller.signal, onprogress: (progress) => updates.push(progress.message ?? '') },
      )
      .catch((error: unknown) => error)
    await waitFor(
      () => updates.some((message) => message.startsWith('phase=running')) && detachedSleeperRuns(),
      {
        description: 'the capture to run with its detached sleeper',
      },
    )
    controller.abort()
    expect(await cancelled).toBeInstanceOf(Error)
    const evidence = await waitFor(() => readSavedEvidence(output), {
      description: 'the cancelled capture’s file',
    })
    expect(evidence).toMatchObject({ disposition: 'cancelled', cleanup: { owned_processes: 'completed' } })
    expect(liveCaptures()).toEqual([])

    const next = await call(server, 'capture_process_scenario', { executable: 'echo', arguments: ['after'] })
    expect(next.isError).toBeFalsy()
    expect(parseEvidence(next.structuredContent).disposition).toBe('exited')
  })

  test('a client that disconnects mid-capture leaves no process behind', async () => {
    const server = await startServer()
    const updates: string[] = []
    const pending = server.client
      .callTool({ name: 'capture_process_scenario', arguments: detachedAndWaiting() }, undefined, {
        onprogress: (progress) => updates.push(progress.message ?? ''),
      })
      .catch((error: unknown) => error)
    await waitFor(
      () => updates.some((message) => message.startsWith('phase=running')) && detachedSleeperRuns(),
      { description: 'the capture to run with its detached sleeper' },
    )
    await server.client.close()
    expect(await pending).toBeInstanceOf(Error)
    await waitFor(() => !processExists(server.pid) && liveCaptures().length === 0, {
      description: 'the server and its capture to end',
    })
    expect(server.stderr()).toContain('client disconnected; stopping')
  })

  test('answers invalid arguments with the CLI’s message as a tool error and keeps serving', async () => {
    const server = await startServer()
    writeFileSync(path.join(directory, 'oversized.json'), JSON.stringify(oversized))
    const good = await call(server, 'capture_process_scenario_to_file', {
      scenario: { executable: 'echo', arguments: ['x'] },
      output_path: 'good.json',
    })
    const edited = readFileSync(path.join(directory, 'good.json'), 'utf8').replace('"x\\r\\n"', '"y\\r\\n"')
    expect(edited).not.toBe(readFileSync(path.join(directory, 'good.json'), 'utf8'))
    writeFileSync(path.join(directory, 'edited.json'), edited)

    const cases: [string, Record<string, unknown>, string, string[] | undefined][] = [
      [
        'capture_process_scenario',
        { executable: 'echo', terminal: { columns: 1 } },
        'terminal.columns: must be ≥ 2',
        undefined,
      ],
      ['capture_process_scenario', oversized, '[cell_budget]', ['capture-process', 'oversized.json']],
      ['capture_process_scenario', {}, 'executable: is required', undefined],
      [
        'capture_process_scenario_to_file',
        { scenario: { executable: 'echo' }, output_path: 'no/such/dir/x.json' },
        'output_path: must be in an existing directory',
        undefined,
      ],
      [
        'compare_process_captures',
        { authority: 'good.json', reconstruction: 'edited.json' },
        'the file was edited or corrupted',
        ['compare-process-captures', 'good.json', 'edited.json'],
      ],
      [
        'compare_process_captures',
        { authority: 'missing.json', reconstruction: 'good.json' },
        'could not be read (ENOENT)',
        ['compare-process-captures', 'missing.json', 'good.json'],
      ],
      [
        'compare_process_captures',
        { authority: 42, reconstruction: 'good.json', bogus: 1 },
        'bogus: is not a known field',
        undefined,
      ],
      ['check_capabilities', { verbose: true }, 'this tool takes no arguments', undefined],
    ]
    for (const [tool, args, message, cliArguments] of cases) {
      const result = await call(server, tool, args)
      const text = textOf(result)
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true)
      expect(text).toContain(message)
      noStackTrace(text)
      if (cliArguments !== undefined) {
        const cli = await runCli(cliArguments, { cwd: directory })
        expect(cli.stderr).toBe(`rea: ${text}\n`)
      }
    }
    expect(good.isError).toBeFalsy()
    expect(liveCaptures()).toEqual([])
    const capabilities = await call(server, 'check_capabilities', {})
    expect(capabilities.structuredContent).toMatchObject({ capture: { status: 'available' } })
    expect(server.stderr()).not.toContain('internal error')
  })

  test('refuses a FIFO, socket, device, directory or oversized file as each path it reads', async () => {
    const special = await createSpecialFiles(directory, 600 * 1024 * 1024)
    try {
      const server = await startServer()
      const evidence = path.join(REPO_ROOT, 'test/fixtures/evidence/v1-job.capture.json')
      for (const [kind, file, message] of special.cases) {
        for (const args of [
          { authority: file, reconstruction: evidence },
          { authority: evidence, reconstruction: file },
          { authority: evidence, reconstruction: evidence, trace: file },
        ]) {
          const result = await call(server, 'compare_process_captures', args)
          expect(result.isError, `${kind} ${JSON.stringify(args)}`).toBe(true)
          expect(textOf(result)).toContain(`${file} ${message}`)
        }
      }
    } finally {
      await special.close()
    }
  })

  test('shows the control characters of a hostile file escaped in the text and the structured error', async () => {
    const server = await startServer()
    writeFileSync(path.join(directory, 'title.json'), '\u001b]0;PWNED\u0007{')
    const result = await call(server, 'compare_process_captures', {
      authority: 'title.json',
      reconstruction: 'title.json',
    })
    expect(result.isError).toBe(true)
    const { error } = result.structuredContent as { error: { message: string } }
    for (const text of [textOf(result), error.message]) {
      expect(rawControlCharacters(text)).toEqual([])
      expect(text).toContain('\\e]0;PWNED\\x07')
    }
  })

  test(
    'saves Evidence too large to return inline to a file and says where',
    { timeout: 120_000 },
    async () => {
      const server = await startServer()
      const result = await call(server, 'capture_process_scenario', {
        executable: program('flood.sh'),
        arguments: ['9000000'],
        limits: { output_bytes: 16 * 1024 * 1024, rendered_bytes: 0 },
      })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toContain('larger than the 8,388,608 bytes returned inline')
      const file = result.structuredContent?.['output_path'] as string
      try {
        const evidence = parseEvidenceText(readFileSync(file, 'utf8'))
        expect(evidence.truncation_details.raw_terminal.observed_bytes).toBeGreaterThanOrEqual(9_000_000)
        expect(result.structuredContent?.['identity_digest']).toBe(evidence.identity_digest)
      } finally {
        rmSync(path.dirname(file), { recursive: true, force: true })
      }
    },
  )

  test(
    'counts the summary of a huge screen against the inline limit, not only the Evidence',
    { timeout: 120_000 },
    async () => {
      const server = await startServer()
      // About 8 MB of Evidence (under the limit alone) and a summary holding a 920,000-cell final screen of
      // 3-byte characters: together over the SDK client's 10 MiB, which would drop the connection.
      const result = await call(server, 'capture_process_scenario', {
        executable: process.execPath,
        arguments: ['-e', "process.stdout.write('─'.repeat(920000))"],
        terminal: { columns: 1000, rows: 1000, scrollback: 0 },
        limits: { output_bytes: 16 * 1024 * 1024, rendered_bytes: 16 * 1024 * 1024 },
      })
      expect(result.isError, textOf(result).slice(0, 500)).toBe(true)
      expect(textOf(result)).toContain('larger than the 8,388,608 bytes returned inline')
      rmSync(path.dirname(result.structuredContent?.['output_path'] as string), {
        recursive: true,
        force: true,
      })
      // The connection survived.
      expect((await call(server, 'check_capabilities', {})).isError).toBeFalsy()
    },
  )
})

/** `rea mcp` driven with raw JSON-RPC lines, to see exactly what it writes and how it exits. */
function startRawServer() {
  const child = spawn(process.execPath, [CLI, 'mcp'], {
    cwd: directory,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`)
  /** A capture_process_scenario call with a progress token. */
  const captureWithProgress = (id: number, scenario: object) =>
    send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'capture_process_scenario', arguments: scenario, _meta: { progressToken: 'p' } },
    })
  send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  })
  send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  /** Every message written so far, once one of them satisfies `predicate`. */
  const messagesUntil = (predicate: (message: Record<string, unknown>) => boolean) =>
    waitFor(
      () => {
        const lines = stdout.split('\n').filter((line) => line !== '')
        const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
        return parsed.some(predicate) ? parsed : false
      },
      { description: 'a message from rea mcp' },
    )
  return {
    child,
    send,
    captureWithProgress,
    exited,
    messagesUntil,
    stdout: () => stdout,
    stderr: () => stderr,
  }
}

/** A descendant in its own session, which a PTY hang-up does not end, then a root that waits: both must go. */
// The sleeper's own command line, after `setsid` and the `trap`: waiting only for two live processes let the
// cancel land while the forked child was still in the root's process group, so the group kill took it and the
// cleanup had nothing left to do.
const detachedSleeperRuns = () => liveCaptures().some((carrier) => carrier.command === 'sleep 600')

const detachedAndWaiting = () => ({
  executable: 'sh',
  arguments: ['-c', `${program('detach-sleeper.sh')}; exec sleep 30`],
})

const oversized = { executable: 'echo', terminal: { columns: 5000, rows: 300 } }

function readSavedEvidence(file: string): Evidence | false {
  try {
    return parseEvidenceText(readFileSync(file, 'utf8'))
  } catch {
    // Not written yet, or still being written.
    return false
  }
}

describe('pending captures', () => {
  /** A project folder with an authority of `tasks` and a pending capture of `chores` for each test name. */
  function project(names: readonly string[]): {
    folder: string
    files: Record<string, { authority: string; pending: string }>
  } {
    const folder = mkdtempSync(path.join(directory, 'project-'))
    const old = buildEvidence([{ chunk: 'You have 3 tasks today.\r\n' }, { frame: 'retained' }])
    const changed = buildEvidence([{ chunk: 'You have 3 chores today.\r\n' }, { frame: 'retained' }])
    const files: Record<string, { authority: string; pending: string }> = {}
    for (const name of names) {
      const authority = authorityPathFor(path.join(folder, 'todo.test.mjs'), name, 1)
      writeAuthority(authority, old)
      const written = writePendingCapture(authority, changed)
      files[name] = { authority, pending: written.state === 'written' ? written.pending : '' }
    }
    return { folder, files }
  }

  test('list, show, accept and reject them in the server’s project folder, through the SDK client', async () => {
    const { folder, files } = project(['greets', 'counts'])
    const server = await startServer({ cwd: folder })
    const listed = await call(server, 'list_pending_captures', {})
    expect(listed.isError).toBeFalsy()
    const entries = (
      listed.structuredContent as { pending: { pending_path: string; test: { name: string } }[] }
    ).pending
    expect(entries.map((entry) => entry.test.name).sort()).toEqual(['counts', 'greets'])
    expect(entries.map((entry) => entry.pending_path)).toContain(
      path.relative(folder, files['greets']!.pending),
    )

    const shown = await call(server, 'show_pending_capture', { pending: 'greets' })
    expect(shown.isError).toBeFalsy()
    expect((shown.structuredContent as { review_diff: string }).review_diff).toMatch(
      /^\+ +"You have 3 chores today\."$/m,
    )

    const before = readFileSync(files['counts']!.authority)
    const accepted = await call(server, 'accept_pending_captures', { filters: ['greets'] })
    expect(accepted.isError).toBeFalsy()
    expect(readFileSync(files['greets']!.authority, 'utf8')).toContain('You have 3 chores today.')
    expect(existsSync(files['greets']!.pending)).toBe(false)
    const rejected = await call(server, 'reject_pending_captures', { filters: ['todo.test.mjs'] })
    expect((rejected.structuredContent as { outcomes: { outcome: string }[] }).outcomes).toEqual([
      expect.objectContaining({ outcome: 'rejected' }),
    ])
    expect(readFileSync(files['counts']!.authority).equals(before)).toBe(true)
    const empty = await call(server, 'list_pending_captures', {})
    expect((empty.structuredContent as { pending: unknown[] }).pending).toEqual([])
  })

  test('stay inside the project folder: a path outside it, or a bad argument, is a tool error', async () => {
    const { folder, files } = project(['outside'])
    const inner = mkdtempSync(path.join(folder, 'inner-'))
    const server = await startServer({ cwd: inner })
    for (const filters of [['..'], [files['outside']!.pending], ['/']]) {
      const result = await call(server, 'accept_pending_captures', { filters })
      expect(result.isError, filters[0]).toBe(true)
      expect(textOf(result)).toMatch(/outside the server's project folder/)
    }
    expect(existsSync(files['outside']!.pending)).toBe(true)
    const bad = await call(server, 'reject_pending_captures', { filters: 'greets', force: 1 })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toMatch(/force: is not a known field[\s\S]*filters: must be an array of strings/)
    noStackTrace(textOf(bad))
  })
})

describe('where capture is unavailable', () => {
  test('the capture tools say so, before looking at the scenario’s paths, and comparison still works', async () => {
    const server = await startServer({
      nodeArgs: ['--import', path.join(REPO_ROOT, 'test/fixtures/mcp/pretend-windows.mjs')],
    })
    for (const [name, args] of [
      ['capture_process_scenario', { executable: 'no-such-program-on-this-host' }],
      [
        'capture_process_scenario_to_file',
        { scenario: { executable: 'no-such-program-on-this-host' }, output_path: 'never.json' },
      ],
    ] as const) {
      const result = await call(server, name, args)
      expect(result.isError, name).toBe(true)
      expect((result.structuredContent as { error: { code: string } }).error.code).toBe(
        'CAPABILITY_UNAVAILABLE',
      )
      expect(textOf(result)).toMatch(/Windows/)
    }
    expect(existsSync(path.join(directory, 'never.json'))).toBe(false)

    const evidence = path.join(REPO_ROOT, 'test/fixtures/evidence/v1-job.capture.json')
    const comparison = await call(server, 'compare_process_captures', {
      authority: evidence,
      reconstruction: evidence,
    })
    expect(comparison.isError).toBeFalsy()
    expect(comparisonSchema.parse(comparison.structuredContent).verdict).toBe('equivalent')

    const capabilities = await call(server, 'check_capabilities', {})
    expect(JSON.stringify(capabilities.structuredContent)).toContain('unavailable')
  })
})
