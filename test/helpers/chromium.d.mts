export declare const CHROMIUM: string

export declare function chromiumUnavailable(): string | null

export interface ScreenshotBrowser {
  /** Loads `url` in a new tab and writes a PNG of it to `file` as soon as its load event fires. */
  screenshotOnLoad(url: string, file: string): Promise<void>
  close(): Promise<void>
}

export declare function openScreenshotBrowser(
  /** `niceness`: the browser's scheduling priority, as `nice -n` takes it (0, the default, leaves it as is). */
  options?: { readonly width?: number; readonly height?: number; readonly niceness?: number },
): ScreenshotBrowser

export interface BrowserPage {
  /** Console errors, uncaught exceptions and error log entries (CSP violations among them). */
  readonly consoleErrors: string[]
  /** Every URL the page requested, the page itself included. */
  readonly requests: string[]
  readonly loadMs: number
  evaluate<T = unknown>(expression: string): Promise<T>
  waitFor(expression: string, timeoutMs?: number): Promise<number>
  click(selector: string): Promise<void>
  screenshot(file: string): Promise<void>
  close(): Promise<void>
}

export declare function openPage(
  url: string,
  options?: { readonly width?: number; readonly height?: number },
): Promise<BrowserPage>
