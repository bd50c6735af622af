// A capture of `true` through `rea mcp` (one tools/call on a warm server, timed in the client) vs the same
// capture through the library in this process, a whole `rea capture-process` CLI process, and a raw node-pty
// spawn→exit in this process. The four alternate, so load hits them alike.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import * as ptyNs from 'node-pty'
import { median } from './statistics.mjs'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CLI = path.join(repo, 'dist/cli/main.cjs')
const pty = typeof ptyNs.spawn === 'function' ? ptyNs : ptyNs.default
const round1 = (value) => Number(value.toFixed(1))

export async function runMcpBenchmark({ count = 30 } = {}) {
  const { captureProcess } = await import(path.join(repo, 'dist/index.js'))
  const dir = mkdtempSync(path.join(tmpdir(), 'rea-bench-mcp-'))
  const client = new Client({ name: 'rea-bench', version: '1' })
  try {
    writeFileSync(path.join(dir, 'true.json'), JSON.stringify({ executable: 'true' }))
    let started = performance.now()
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: dir, stderr: 'ignore' }),
    )
    await client.listTools()
    const connectMs = performance.now() - started
    const call = async () => {
      const result = await client.callTool({
        name: 'capture_process_scenario',
        arguments: { executable: 'true' },
      })
      if (result.isError) {
        throw new Error(`rea mcp answered with an error: ${JSON.stringify(result.content)}`)
      }
    }
    const raw = () => new Promise((resolve) => pty.spawn('true', [], { cols: 80, rows: 24 }).onExit(resolve))
    started = performance.now()
    await call()
    const firstCallMs = performance.now() - started
    for (let warm = 0; warm < 3; warm++) {
      await call()
      await captureProcess({ executable: 'true' })
      await raw()
    }
    const times = { mcp: [], library: [], cli: [], raw: [] }
    const time = async (name, body) => {
      const begin = performance.now()
      await body()
      times[name].push(performance.now() - begin)
    }
    for (let index = 0; index < count; index++) {
      await time('mcp', call)
      await time('library', () => captureProcess({ executable: 'true' }))
      await time('cli', () => {
        const cli = spawnSync(
          process.execPath,
          [CLI, 'capture-process', 'true.json', '--json', '--no-progress'],
          {
            cwd: dir,
          },
        )
        if (cli.status !== 0) {
          throw new Error(`rea capture-process exited ${cli.status}: ${cli.stderr}`)
        }
      })
      await time('raw', raw)
    }
    return {
      captures: count,
      connect_ms: Math.round(connectMs),
      first_call_ms: Math.round(firstCallMs),
      mcp_median_ms: round1(median(times.mcp)),
      library_median_ms: round1(median(times.library)),
      cli_process_median_ms: round1(median(times.cli)),
      raw_node_pty_median_ms: round1(median(times.raw)),
      mcp_vs_library: Number((median(times.mcp) / median(times.library)).toFixed(2)),
      mcp_vs_raw_node_pty: Number((median(times.mcp) / median(times.raw)).toFixed(2)),
      cli_process_vs_mcp: Number((median(times.cli) / median(times.mcp)).toFixed(2)),
    }
  } finally {
    await client.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
