/** Capability names left out of REA's tables. */
export declare const OMITTED_CAPABILITIES: readonly string[]
/** The string and numeric capabilities of `type` from this host's terminfo, values decoded. */
export declare function readTerminfo(type: string): Record<string, string>
