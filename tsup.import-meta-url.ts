// Injected into every CommonJS build (tsup.config.ts), which has no import.meta.url. tsup's own shim builds it as
// `file:${__filename}`, which breaks in a folder whose name holds `#` or `%` (the URL ends at the `#`);
// pathToFileURL escapes them.
import { pathToFileURL } from 'node:url'

export const importMetaUrl = pathToFileURL(__filename).href
