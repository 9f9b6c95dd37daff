extension DashboardPage {
    /// The page's CSS: a grid of panels, readable on a laptop and a phone.
    static let style = #"""
        :root { --ink: #1d232b; --muted: #6b7480; --line: #d8dde3; --panel: #fff; --back: #f3f5f7; --accent: #0b6bcb; --warn: #b3261e; --ok: #1b7f3b; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--back); }
        header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2em 1em; padding: .6em 1em; background: #1d232b; color: #fff; }
        header h1 { font-size: 16px; margin: 0; }
        header nav { margin-left: auto; }
        header a { color: #9fcbff; margin-left: .8em; }
        .muted { color: var(--muted); }
        header .muted { color: #b8c0ca; }
        .badge { padding: 0 .6em; border-radius: 1em; background: #555; color: #fff; font-size: 12px; }
        .badge.live { background: var(--ok); }
        .badge.down { background: var(--warn); }
        main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: .8em; padding: .8em; }
        @media (max-width: 900px) { main { grid-template-columns: minmax(0, 1fr); } }
        .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6em .8em; min-width: 0; }
        /* The feed fills its panel, however tall the other column grows: no blank under it. */
        #actions-panel { grid-row: span 3; display: flex; flex-direction: column; }
        h2 { font-size: 14px; margin: 0 0 .5em; }
        h3 { font-size: 13px; margin: .6em 0 .3em; }
        code, pre, .mono, #feed, .tree { font: 12px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
        form { display: flex; gap: .4em; align-items: center; margin-bottom: .4em; }
        input { flex: 1; min-width: 6em; padding: .25em .4em; border: 1px solid var(--line); border-radius: 4px; font: inherit; }
        button { padding: .2em .7em; border: 1px solid var(--line); border-radius: 4px; background: #fafbfc; cursor: pointer; font: inherit; }
        button.on { background: #fff3cd; }
        #feed { flex: 1 1 auto; height: 52vh; min-height: 52vh; overflow: auto; border: 1px solid var(--line); border-radius: 4px; }
        @media (max-width: 900px) { #feed { flex: none; } }
        /* On a phone a row's payload goes under its id, time and type. */
        @media (max-width: 600px) { .row { grid-template-columns: 4.5em 7em minmax(0, 1fr); } .row .payload { grid-column: 1 / -1; padding-left: 1em; } }
        .row { display: grid; grid-template-columns: 5em 7.5em 14em minmax(0, 1fr); gap: .5em; padding: 1px .4em; cursor: pointer;
               white-space: nowrap; border-bottom: 1px solid #f0f2f4; }
        .row:hover, .row.selected { background: #e8f1fb; }
        .row .type { color: var(--accent); overflow: hidden; text-overflow: ellipsis; }
        .row .payload { overflow: hidden; text-overflow: ellipsis; color: #333; }
        .row.new { animation: flash 1.2s ease-out; }
        @keyframes flash { from { background: #fff3cd; } to { background: transparent; } }
        #detail { border-top: 1px solid var(--line); margin-top: .5em; }
        #detail pre { max-height: 22vh; overflow: auto; background: #f7f8fa; padding: .4em; margin: 0; }
        #detail ol { margin: 0; padding-left: 1.6em; }
        #detail li { cursor: pointer; }
        table { border-collapse: collapse; width: 100%; }
        #plugins-panel { overflow-x: auto; }
        /* Ten columns in half a page: tighter than the other tables. */
        #plugins { font-size: .9em; }
        #plugins th, #plugins td { padding: 2px .3em; }
        #plugins td.mono { font-size: .9em; word-break: break-all; }
        th, td { text-align: left; padding: 2px .5em; border-bottom: 1px solid #eef0f2; vertical-align: top; }
        th { color: var(--muted); font-weight: 600; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        td.bad, .bad { color: var(--warn); }
        td.good { color: var(--ok); }
        .tree { max-height: 45vh; overflow: auto; }
        .tree details { margin-left: 1em; }
        .tree summary { cursor: pointer; margin-left: -1em; }
        .tree .leaf { margin-left: 0; white-space: pre-wrap; word-break: break-all; }
        .tree .key { color: #7a3e9d; }
        .tree .string { color: #1b7f3b; }
        .tree .number { color: #0b6bcb; }
        .tree .changed { animation: flash 2s ease-out; background: #fff3cd; }
        figure { margin: 0 0 .8em; }
        figcaption { margin-bottom: .3em; }
        svg.map { width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; background: #f8faf8; display: block; }
        svg.map .grid { stroke: #dfe5df; stroke-width: 1; }
        svg.map .track { fill: none; stroke: var(--accent); stroke-width: 3; stroke-linejoin: round; stroke-linecap: round; }
        svg.map .accuracy { fill: rgba(11, 107, 203, .15); stroke: rgba(11, 107, 203, .5); }
        svg.map .position { fill: var(--warn); stroke: #fff; stroke-width: 2; }
        svg.map .scale { stroke: var(--ink); stroke-width: 2; fill: none; }
        svg.map .layer.stale { opacity: .4; }
        svg.map .layer .position { stroke: #fff; stroke-width: 2; }
        tr.origin td:first-child { padding-left: 1.2em; }
        #timeline { display: flex; gap: .5em; align-items: center; margin-top: .5em; }
        #timeline input[type=range] { flex: 1; padding: 0; border: 0; }
        body:not([data-timeline="live"]) #plugins tr[data-plugin] td { background: #fffbea; }
        body:not([data-timeline="live"]) #state { background: #fffbea; }
        #why { border-top: 1px solid var(--line); margin-top: .5em; }
        #why ol { margin: .2em 0 0; padding-left: 1.6em; }
        .tree .leaf[data-path] { cursor: help; }
        svg.map text { font: 11px system-ui, sans-serif; fill: var(--ink); paint-order: stroke; stroke: #fff; stroke-width: 3px; }

        """#
}
