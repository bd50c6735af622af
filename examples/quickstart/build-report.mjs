#!/usr/bin/env node
// A small "build" that writes the kind of output terminal tests deal with: colour, a progress bar redrawn in
// place with carriage returns, and a summary table. It writes its report under ./out and exits 0.
import { mkdirSync, writeFileSync } from 'node:fs'

const steps = ['compile', 'bundle', 'minify', 'checksum']
const green = (text) => `\x1b[32m${text}\x1b[0m`
const bold = (text) => `\x1b[1m${text}\x1b[0m`
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

process.stdout.write(`${bold('build-report')} ${steps.length} steps\n`)
for (const [index, step] of steps.entries()) {
  for (let filled = 0; filled <= 20; filled += 5) {
    process.stdout.write(`\r  ${step.padEnd(9)}[${'#'.repeat(filled).padEnd(20)}]`)
    await pause(15)
  }
  process.stdout.write(`\r  ${step.padEnd(9)}${green('done')}${' '.repeat(19)}\n`)
  if (index === steps.length - 1) {
    mkdirSync('out', { recursive: true })
    writeFileSync('out/report.json', JSON.stringify({ steps, status: 'complete' }, null, 2))
  }
}
process.stdout.write(`\n${bold('step'.padEnd(10))}${bold('status')}\n`)
for (const step of steps) {
  process.stdout.write(`${step.padEnd(10)}ok\n`)
}
