/// The dashboard served at `GET /`: one self-contained page (HTML, CSS and script inline, no
/// network beyond the bus's own API).
enum DashboardPage {
    /// The page. Until the full dashboard lands, a small page that lists the bus's endpoints
    /// and shows the live action feed from `/api/actions`.
    static let html: String = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Switchyard</title>
    <style>
    body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
    code, pre { font: 12px ui-monospace, monospace; }
    #feed { max-height: 60vh; overflow: auto; border: 1px solid #ccc; padding: .5em; }
    </style>
    </head>
    <body>
    <h1>Switchyard</h1>
    <p>Endpoints: <a href="/metrics">/metrics</a>, <a href="/healthz">/healthz</a>, <a href="/readyz">/readyz</a>,
    <a href="/api/state">/api/state</a>, <a href="/api/stats">/api/stats</a>, <code>/api/actions</code> (events).</p>
    <h2>Actions</h2>
    <pre id="feed"></pre>
    <script>
    const feed = document.getElementById("feed");
    const source = new EventSource("/api/actions");
    source.onmessage = (event) => {
      feed.textContent = event.data + "\\n" + feed.textContent.slice(0, 20000);
    };
    </script>
    </body>
    </html>
    """
}
