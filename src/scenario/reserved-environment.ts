/**
 * The environment variable that carries a capture's run token into the command. A scenario may not set it:
 * ownership of every process the capture started is read from it.
 */
export const RUN_TOKEN_VARIABLE = 'REA_RUN_TOKEN'
