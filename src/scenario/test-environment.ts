/**
 * The environment the test plugin's captures run in, over the inherited one: the variables that make programs
 * print differently on a developer's terminal and on a CI runner, removed (`null`) or pinned. Read from what
 * the libraries users run actually consult: Node's `getColorDepth`, supports-color (chalk), is-in-ci (Ink),
 * is-interactive (ora), ci-info and std-env (Vitest, Jest), CPython, rich, anstream, termenv, gcc, git, npm.
 * docs/vitest.md lists every entry with the reason. Changing it changes the contract of every test capture:
 * authorities recorded before are then told to re-record (compare/hints/new-defaults.ts).
 */
export const TEST_ENVIRONMENT: Readonly<Record<string, string | null>> = {
  // Locale and time: one UTF-8 locale and UTC. Every category but LANG is removed, so a scenario can still set
  // one (a pinned LC_ALL would silently override it). Node's Intl reads C.UTF-8 as en-US.
  LANG: process.platform === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8',
  TZ: 'UTC',
  ...nulls(
    'LC_ALL LC_CTYPE LC_NUMERIC LC_TIME LC_COLLATE LC_MONETARY LC_MESSAGES LC_PAPER LC_NAME LC_ADDRESS',
    'LC_TELEPHONE LC_MEASUREMENT LC_IDENTIFICATION LANGUAGE PYTHONIOENCODING PYTHONUTF8 PYTHONCOERCECLOCALE',
  ),
  // Colour switches: on or off, and how many colours, is for the terminal to say (REA's is xterm-256color).
  ...nulls(
    'NO_COLOR FORCE_COLOR NODE_DISABLE_COLORS FORCE_TTY CLICOLOR CLICOLOR_FORCE COLORTERM TTY_COMPATIBLE',
    'TTY_INTERACTIVE TTY_FORCE IGNORE_IS_TERMINAL PYTHON_COLORS FORCE_HYPERLINK LS_COLORS GREP_COLORS GREP_COLOR',
    'GCC_COLORS GCC_URLS TERM_URLS CARGO_TERM_COLOR CARGO_TERM_PROGRESS_WHEN CARGO_TERM_VERBOSE CARGO_TERM_QUIET',
  ),
  // Size: the PTY is the only source (rich, Python, ncurses and terminal-size prefer these over the PTY).
  ...nulls('COLUMNS LINES JUPYTER_COLUMNS JUPYTER_LINES CLI_WIDTH MANWIDTH'),
  // CI markers: generic ones, then each CI vendor's detection key (ci-info, std-env, Node, supports-color).
  ...nulls(
    'CI CONTINUOUS_INTEGRATION BUILD_ID BUILD_NUMBER RUN_ID TASK_ID CI_NAME CI_APP_ID CI_BUILD_ID CI_BUILD_NUMBER',
    'AGENT_NAME AC_APPCIRCLE AGOLA_GIT_REF APPCENTER_BUILD_ID APPVEYOR AWS_APP_ID BITBUCKET_COMMIT',
    'BITRISE_IO BUDDY_WORKSPACE_ID BUILDER_OUTPUT BUILDKITE CF_BUILD_ID CF_PAGES CIRCLECI',
    'CIRRUS_CI CI_MERGE_REQUEST_ID CI_XCODE_PROJECT CM_BUILD_ID CODEBUILD_BUILD_ARN CODEBUILD_SRC_DIR DRONE',
    'DRONE_BUILD_EVENT DSARI EARTHLY_CI EAS_BUILD EO_PAGES_CI GERRIT_PROJECT GITEA_ACTIONS GITHUB_ACTION',
    'GITHUB_ACTIONS GITLAB_CI GITLAB_DEPLOYMENT GO_PIPELINE_LABEL GO_PIPELINE_NAME HARNESS_BUILD_ID HUDSON_URL',
    'JENKINS_URL LAYERCI MAGNUM NETLIFY NEVERCODE NOW_BUILDER NOW_GITHUB_DEPLOYMENT PROW_JOB_ID RELEASE_BUILD_ID',
    'RENDER SAILCI SAIL_CI SCREWDRIVER SEMAPHORE SHIPPABLE STRIDER SYSTEM_TEAMFOUNDATIONCOLLECTIONURI',
    'TASKCLUSTER_ROOT_URL TDDIUM TEAMCITY_VERSION TF_BUILD TRAVIS VELA VERCEL WERCKER WORKERS_CI XCS bamboo_planKey',
  ),
  // The terminal program: none exists on a CI runner, and each changes colour depth, escapes or hyperlinks.
  ...nulls(
    'TERM_PROGRAM TERM_PROGRAM_VERSION TERM_SESSION_ID TMUX TMUX_PANE STY VTE_VERSION COLORFGBG WT_SESSION',
    'WT_PROFILE_ID LC_TERMINAL LC_TERMINAL_VERSION TERMINAL_EMULATOR TERMINUS_SUBLIME ConEmuTask ConEmuANSI',
    'ANSICON ANSICON_VER GOOGLE_CLOUD_SHELL CURSOR_TRACE_ID INSIDE_EMACS EMACS',
  ),
  'ITERM_*': null,
  'KITTY_*': null,
  'WEZTERM_*': null,
  'ALACRITTY_*': null,
  'GHOSTTY_*': null,
  'KONSOLE_*': null,
  'VSCODE_*': null,
  // The test runner REA runs in: a captured program is not itself a test (Vitest, Vite, Jest).
  ...nulls('VITEST TEST NODE_ENV UPDATE_SNAPSHOT PROD DEV MODE BASE_URL SSR JEST_WORKER_ID'),
  'VITEST_*': null,
  // AI-agent markers (std-env's detectAgent: Vitest switches colours and reporter off for an agent).
  ...nulls(
    'AI_AGENT CLAUDECODE CLAUDE_CODE REPL_ID GEMINI_CLI CODEX_SANDBOX CODEX_THREAD_ID OPENCODE AUGMENT_AGENT',
    'GOOSE_PROVIDER JUNIE_DATA JUNIE_SHIM_PATH COPILOT_AGENT COPILOT_CLI CURSOR_AGENT',
  ),
  // `npm run`'s context: scaffolders print `npm run dev` or `pnpm dev` by it.
  ...nulls(
    'npm_config_user_agent npm_execpath npm_node_execpath npm_command npm_lifecycle_event npm_lifecycle_script',
    'npm_package_json INIT_CWD COLOR npm_config_color npm_config_loglevel npm_config_progress',
  ),
  'npm_package_*': null,
  // Update notices depend on the network and the date; they were off only because CI or NODE_ENV was set.
  NO_UPDATE_NOTIFIER: '1',
  npm_config_update_notifier: 'false',
  GH_NO_UPDATE_NOTIFIER: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  // Diagnostics a developer's shell may export: preloads, warnings, debug output, backtraces.
  ...nulls(
    'NODE_OPTIONS NODE_NO_WARNINGS NODE_PENDING_DEPRECATION NODE_DEBUG NODE_DEBUG_NATIVE DEBUG INK_SCREEN_READER',
    'PYTHONWARNINGS PYTHONDEVMODE PYTHONSTARTUP PYTHON_BASIC_REPL PYTHONUNBUFFERED RUST_BACKTRACE',
    'RUST_LIB_BACKTRACE RUST_LOG',
  ),
  // Pagers, git's hook context (a test run from a hook would drive the outer repository), shell start-up.
  ...nulls(
    'PAGER GIT_PAGER MANPAGER LESS LESSOPEN LESSCLOSE GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX',
    'GIT_OBJECT_DIRECTORY GIT_COMMON_DIR GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT BASH_ENV PROMPT_COMMAND',
  ),
  'LESS_TERMCAP_*': null,
  'GIT_CONFIG_KEY_*': null,
  'GIT_CONFIG_VALUE_*': null,
}

function nulls(...lines: string[]): Record<string, null> {
  return Object.fromEntries(lines.flatMap((line) => line.split(' ')).map((name) => [name, null]))
}
