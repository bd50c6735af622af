#!/usr/bin/env node
// Baseline: a bare Node process that only reads a command's output through node-pty and counts the bytes.
// Usage: bare-pty-reader.mjs <shell command>
import * as ptyNs from 'node-pty'

const pty = typeof ptyNs.spawn === 'function' ? ptyNs : ptyNs.default
const child = pty.spawn('sh', ['-c', process.argv[2]], { encoding: null, cols: 80, rows: 24 })
let bytes = 0
child.onData((data) => (bytes += data.length))
child.onExit(() => process.stdout.write(`${bytes}\n`))
