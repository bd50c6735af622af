import { writeFile } from 'node:fs/promises'
import { canonicalJsonDocument } from '../index.js'

export const OUTPUT_FORMATS = ['toon', 'json'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/** TOON is the default terminal format; @toon-format/toon is ESM-only, so it is loaded only when used. */
export async function formatDocument(value: unknown, format: OutputFormat): Promise<string> {
  switch (format) {
    case 'json':
      return canonicalJsonDocument(value)
    case 'toon': {
      const { encode } = await import('@toon-format/toon')
      return `${encode(JSON.parse(JSON.stringify(value)) as Parameters<typeof encode>[0])}\n`
    }
  }
}

/** Writes the final document to stdout, or to a file; resolves once it is flushed. */
export async function emitDocument(text: string, outputPath: string | undefined): Promise<void> {
  if (outputPath !== undefined) {
    await writeFile(outputPath, text)
    return
  }
  await new Promise<void>((resolve, reject) => {
    process.stdout.write(text, (error) => (error === null || error === undefined ? resolve() : reject(error)))
  })
}
