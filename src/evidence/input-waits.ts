/**
 * How an input's wait for the terminal exchange ended (docs/events.md#when-input-goes-in): the program read REA's
 * replies and asked nothing more; it had not within the limit; or REA cannot see the input queue on this host.
 */
export const EXCHANGE_OUTCOMES = ['read', 'limit_reached', 'unobservable'] as const
export type ExchangeOutcome = (typeof EXCHANGE_OUTCOMES)[number]

/**
 * How a wait without `quiet_ms` settled once its condition was met: the output went quiet for the settle time, or
 * the settle limit came first (a program that never stops drawing).
 */
export const WAIT_SETTLES = ['quiet', 'limit_reached'] as const
export type WaitSettle = (typeof WAIT_SETTLES)[number]
