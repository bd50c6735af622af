/** How the CLI's text names the screens level, where a stream comparison failed while every screen is equal. */
export const SCREENS_FLAG = '--terminal screens'
