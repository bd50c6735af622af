// A report generator: writes into a fresh temporary folder and says when it ran.
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const prefix = process.argv[2] ?? 'report-'
const folder = mkdtempSync(path.join(os.tmpdir(), prefix))
writeFileSync(path.join(folder, 'out.json'), '{}')
console.log(`Report written to ${path.join(folder, 'out.json')}`)
console.log(`Generated ${new Date().toLocaleDateString('en-US', { dateStyle: 'full' })}`)
