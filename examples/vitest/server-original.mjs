#!/usr/bin/env node
// The original health-check server: listens on an ephemeral port, checks itself once, and stops.
import { createServer } from 'node:http'

const server = createServer((request, response) => {
  response.writeHead(request.url === '/health' ? 200 : 404, { 'content-type': 'text/plain' })
  response.end(request.url === '/health' ? 'ok' : 'not found')
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${server.address().port}`
console.log(`listening on ${url}/`)
const response = await fetch(`${url}/health`)
console.log(`GET /health → ${response.status} ${await response.text()}`)
// Stays up for a second before stopping, as a smoke-test server does. This also makes the run long enough
// that CI load cannot double its duration (exit times differ only beyond 250 ms and half the longer run).
await new Promise((resolve) => setTimeout(resolve, 1000))
await new Promise((resolve) => server.close(resolve))
console.log('stopped')
