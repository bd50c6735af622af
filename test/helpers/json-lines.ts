/** The JSON documents a helper process printed one per line (run-vitest-project.mjs, run-jest-project.mjs). */
export function jsonLines<T>(stdout: string): T[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as T)
}
