#!/usr/bin/env node
// A small prompt-driven CLI: asks for a task, confirms it in colour and saves it to ./out/todo.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import readline from 'node:readline/promises'

const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true })
const task = await rl.question('\x1b[1mNew task:\x1b[0m ')
rl.close()
mkdirSync('out', { recursive: true })
writeFileSync('out/todo.json', `${JSON.stringify({ tasks: [task.trim()] }, null, 2)}\n`)
console.log(`\x1b[32m✔\x1b[0m added "${task.trim()}" (1 task)`)
