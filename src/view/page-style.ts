/** The page's own style sheet (xterm.js brings its own for the terminals). */
export const PAGE_STYLE = `
:root { color-scheme: light; --bad: #c62828; --good: #2e7d32; --unsure: #b26a00; --neutral: #616161; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, "DejaVu Sans", sans-serif; margin: 0 auto; padding: 16px 24px 48px; max-width: 1600px; color: #1b1b1b; background: #fafafa; }
h1 { font-size: 20px; margin: 0 0 6px; } h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 14px; margin: 0 0 6px; } small { color: #666; font-weight: normal; }
code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: #fff; border: 1px solid #ddd; padding: 8px; overflow: auto; max-height: 480px; }
table { border-collapse: collapse; } th, td { text-align: left; vertical-align: top; padding: 4px 10px 4px 0; }
table.sides td, table.sides th { border-bottom: 1px solid #eee; }
table.dimensions th { width: 110px; } table.dimensions ul { margin: 0; padding-left: 0; list-style: none; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #fff; font-weight: 600; background: var(--neutral); }
.badge.good { background: var(--good); } .badge.bad { background: var(--bad); } .badge.unsure { background: var(--unsure); }
.verdict-line { font-size: 15px; } #rea-verdict { font-size: 16px; }
li.difference { color: var(--bad); } li.unknown { color: var(--unsure); } li.note, li.more { color: #666; }
pre.diff .add { color: #1b5e20; background: #e8f5e9; } pre.diff .del { color: #b71c1c; background: #ffebee; }
pre.diff .hunk { color: #0d47a1; } pre.diff .file { font-weight: bold; }
.nav { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; margin-bottom: 8px; }
.nav input[type=range] { width: 320px; }
ol.checkpoints { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; padding: 0; margin: 0 0 8px; }
ol.checkpoints button { font: inherit; font-size: 12px; border: 1px solid #bbb; border-radius: 4px; background: #fff; cursor: pointer; padding: 2px 6px; }
ol.checkpoints button.different { border-color: var(--bad); color: var(--bad); }
ol.checkpoints button.unknown, ol.checkpoints button.one_side { border-color: var(--unsure); color: var(--unsure); }
ol.checkpoints button[aria-current=true] { background: #263238; color: #fff; }
.panes { display: flex; gap: 16px; align-items: flex-start; overflow-x: auto; }
.pane { flex: 0 0 auto; }
.term-host { position: relative; display: inline-block; padding: 6px; background: #000; border-radius: 4px; }
.rea-overlay { position: absolute; inset: 0; pointer-events: none; z-index: 10; }
.rea-diff-cell { position: absolute; outline: 2px solid #ff5252; background: rgba(255, 82, 82, 0.2); }
.rea-diff-cell.rea-diff-blank { outline: 2px dashed #ffab40; background: repeating-linear-gradient(135deg, rgba(255, 171, 64, 0.45) 0 3px, transparent 3px 6px); }
.rea-diff-cell.rea-diff-spelling { outline: 2px dotted #b0bec5; background: rgba(176, 190, 197, 0.2); }
.rea-diff-cell.rea-first { outline: 3px solid #ffd600; }
.rea-diff-cursor { position: absolute; outline: 2px dashed #40c4ff; }
.absent { display: inline-block; padding: 24px; border: 1px dashed #999; color: #666; }
ol.events { list-style: none; padding: 0; margin: 6px 0 0; max-height: 220px; overflow: auto; font-size: 12px; }
ol.events li { cursor: pointer; padding: 1px 4px; } ol.events li.past { color: #888; } ol.events li.latest { background: #fff3c4; color: #000; }
ol.events .code { display: inline-block; width: 1.4em; font-weight: bold; }
footer { margin-top: 32px; color: #777; font-size: 12px; }
`
