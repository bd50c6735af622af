#!/usr/bin/env node
// Asks ROUNDS questions ("Q<i>? "), one after the other, and times each answer from the moment the question was
// written to the moment the answer line arrived. Prints "LATENCIES <json ms array>" at the end.
import readline from 'node:readline'

const rounds = Number(process.argv[2] ?? 50)
const latencies = []
const lines = readline.createInterface({ input: process.stdin, terminal: false })
let asked = 0n
const ask = (index) => {
  process.stdout.write(`Q${index}? `)
  asked = process.hrtime.bigint()
}
let index = 0
lines.on('line', () => {
  latencies.push(Number(process.hrtime.bigint() - asked) / 1e6)
  index += 1
  if (index === rounds) {
    process.stdout.write(`\r\nLATENCIES ${JSON.stringify(latencies.map((ms) => Number(ms.toFixed(3))))}\r\n`)
    lines.close()
    return
  }
  // A pause between questions, so each question is a fresh wait rather than a queue of ready answers.
  setTimeout(() => ask(index), 20)
})
ask(0)
