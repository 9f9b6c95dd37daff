/// The dashboard served at `GET /`: one self-contained page — HTML, CSS and plain script
/// inline, no framework, no build step, nothing fetched but the bus's own API, so it works
/// offline and behind the bus's token (the cookie `?token=` sets covers every request).
///
/// Panels: the live action feed (`/api/actions` as Server-Sent Events, a type-pattern filter,
/// pause, a click shows one action with its `cause` chain), plugin health (`/api/stats`), a map
/// per plugin whose kind has a ``PositionSource`` (an SVG track on a projected grid with a scale
/// bar; OpenStreetMap-style tiles underneath when `stats.http.tiles` names a URL template) and
/// the live state tree (`/api/state`, collapsible, changed paths highlighted).
///
/// For tests and scripts the page writes what it shows into attributes: `body[data-connection]`,
/// `body[data-feed-received]`, `body[data-state-loaded]`, `svg[data-plugin][data-points]`,
/// `[data-path]` on every state leaf.
enum DashboardPage {
    /// The whole page, its script told where each kind of `positionSources` carries positions.
    static func html(positionSources: [(kind: String, source: PositionSource)]) -> String {
        var sources: [String: JSON] = [:]
        for (kind, source) in positionSources { sources[kind] = source.json }
        // `<` as an escape, so no string in the data can end the script element.
        let data = JSON.object(sources).serialized().split(separator: "<", omittingEmptySubsequences: false).joined(separator: "\\u003c")
        return head + "<style>\n" + style + "</style>\n</head>\n" + body + "<script>\n\"use strict\";\n"
            + "const POSITION_SOURCES = " + data + ";\n" + coreScript + viewScript + mapScript + fleetScript + timelineScript + "start();\n</script>\n</body>\n</html>\n"
    }

    private static let head = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Switchyard</title>

        """

    private static let body = """
        <body data-connection="connecting" data-feed-received="0" data-state-loaded="no">
        <header>
          <h1>Switchyard</h1>
          <span id="bus" class="muted">bus …</span>
          <span id="connection" class="badge">connecting</span>
          <nav><a href="/metrics">metrics</a> <a href="/api/stats">stats</a> <a href="/api/state">state</a> <a href="/readyz">readyz</a></nav>
        </header>
        <main>
          <section class="panel" id="actions-panel">
            <h2>Actions</h2>
            <form id="filter">
              <input id="pattern" value="*" spellcheck="false" aria-label="type pattern" title="*, a domain gps/* or a type gps/fix">
              <button type="submit">Filter</button>
              <button type="button" id="pause">Pause</button>
              <span id="feed-note" class="muted"></span>
            </form>
            <div id="feed" role="log" aria-live="off"></div>
        \(timelineHTML)
            <div id="detail" hidden>
              <h3>Action <span id="detail-id"></span> <button type="button" id="detail-close">close</button></h3>
              <pre id="detail-json"></pre>
              <h3>Cause chain</h3>
              <ol id="detail-causes"></ol>
            </div>
          </section>
          <section class="panel" id="plugins-panel">
            <h2>Plugins</h2>
            <table id="plugins"><thead><tr><th>plugin</th><th>kind</th><th>status</th><th>restarts</th><th>failures</th>
              <th>dropped</th><th>buffer</th><th>emitted</th><th>last action</th><th>last error</th></tr></thead><tbody></tbody></table>
          </section>
          <section class="panel" id="maps-panel">
            <h2>Location</h2>
            <div id="maps"><p class="muted" id="no-maps">No plugin reports positions.</p></div>
          </section>
          <section class="panel" id="state-panel">
            <h2>State</h2>
            <div id="state" class="tree"></div>
          </section>
        </main>

        """
}
