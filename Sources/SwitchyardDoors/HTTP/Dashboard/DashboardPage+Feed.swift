extension DashboardPage {
    /// The action feed, the detail view with its cause chain, and `start()`.
    static let coreScript = #"""
        const $ = (id) => document.getElementById(id);
        const marks = document.body.dataset;
        const FEED_ROWS = 300, BACKLOG = 100, KNOWN_LIMIT = 5000, PAUSED_LIMIT = 2000;

        // Every action seen (feed and map streams), for cause chains without a round trip.
        const known = new Map();
        function remember(action) {
          known.set(action.id, action);
          if (known.size > KNOWN_LIMIT) known.delete(known.keys().next().value);
        }

        function element(tag, className, text) {
          const node = document.createElement(tag);
          if (className) node.className = className;
          if (text !== undefined) node.textContent = text;
          return node;
        }

        async function getJSON(path) {
          const response = await fetch(path, { cache: "no-store" });
          if (!response.ok) throw new Error(path + ": HTTP " + response.status);
          return response.json();
        }

        function clock(time) {
          return typeof time === "string" && time.length >= 23 ? time.slice(11, 23) : String(time || "");
        }

        function setConnection(text, kind) {
          const badge = $("connection");
          badge.textContent = text;
          badge.className = "badge " + (kind || "");
          marks.connection = text;
        }

        // The feed: one EventSource on /api/actions?pattern=P, starting BACKLOG actions back.
        // EventSource reconnects on its own with Last-Event-ID, so a dropped stream loses nothing.
        const feed = { source: null, pattern: "*", paused: false, pending: [], skipped: 0, received: 0, flushing: false, selected: null };

        function connectFeed(lastSequence) {
          if (feed.source) feed.source.close();
          const query = new URLSearchParams();
          if (feed.pattern !== "*") query.set("pattern", feed.pattern);
          if (lastSequence > 0) query.set("lastEventId", String(Math.max(0, lastSequence - BACKLOG)));
          const text = query.toString();
          const source = new EventSource("/api/actions" + (text ? "?" + text : ""));
          feed.source = source;
          source.onopen = () => setConnection("live", "live");
          source.onmessage = (event) => {
            let action;
            try { action = JSON.parse(event.data); } catch (error) { return; }
            remember(action);
            feed.received += 1;
            marks.feedReceived = String(feed.received);
            feed.pending.push(action);
            if (feed.paused && feed.pending.length > PAUSED_LIMIT) {
              feed.skipped += feed.pending.length - PAUSED_LIMIT;
              feed.pending.splice(0, feed.pending.length - PAUSED_LIMIT);
            }
            scheduleFlush();
          };
          source.addEventListener("gap", () => note("older actions were compacted away"));
          source.addEventListener("end", () => { setConnection("bus stopped", "down"); source.close(); });
          source.onerror = () => {
            if (source.readyState === EventSource.CLOSED) {
              setConnection("disconnected", "down");
              note("the bus refused the stream (is \"" + feed.pattern + "\" a type pattern?) or is gone");
            } else {
              setConnection("reconnecting", "down");
            }
          };
        }

        function note(text) { $("feed-note").textContent = text; }

        function scheduleFlush() {
          if (feed.paused || feed.flushing) return;
          feed.flushing = true;
          setTimeout(flushFeed, 100);
        }

        // Renders what arrived since the last flush, newest on top; the list keeps FEED_ROWS rows.
        function flushFeed() {
          feed.flushing = false;
          if (feed.paused) return;
          const list = $("feed");
          const fragment = document.createDocumentFragment();
          for (const action of feed.pending.slice(-FEED_ROWS).reverse()) fragment.appendChild(feedRow(action));
          feed.pending = [];
          list.insertBefore(fragment, list.firstChild);
          while (list.childElementCount > FEED_ROWS) list.lastElementChild.remove();
          marks.feedRows = String(list.childElementCount);
        }

        function feedRow(action) {
          const row = element("div", "row new");
          row.dataset.id = action.id;
          row.appendChild(element("span", "muted", "#" + action.id));
          row.appendChild(element("span", "muted", clock(action.time)));
          row.appendChild(element("span", "type", action.type));
          const payload = action.payload === null || action.payload === undefined ? "" : JSON.stringify(action.payload);
          row.appendChild(element("span", "payload", action.source + "  " + payload.slice(0, 300)));
          row.title = action.type + " from " + action.source;
          row.addEventListener("click", () => showDetail(action.id));
          return row;
        }

        function togglePause() {
          feed.paused = !feed.paused;
          const button = $("pause");
          button.classList.toggle("on", feed.paused);
          button.textContent = feed.paused ? "Resume" : "Pause";
          if (feed.paused) {
            note("paused");
          } else {
            note(feed.skipped ? feed.skipped + " actions skipped while paused" : "");
            feed.skipped = 0;
            scheduleFlush();
          }
        }

        // The action with `id`: from memory, else the first event of a stream resumed just
        // before it (the journal replays it), read and cancelled.
        async function actionById(id) {
          if (known.has(id)) return known.get(id);
          const controller = new AbortController();
          const timer = setTimeout(() => controller.abort(), 5000);
          try {
            const response = await fetch("/api/actions?lastEventId=" + (id - 1), { signal: controller.signal, cache: "no-store" });
            if (!response.ok || !response.body) return null;
            const reader = response.body.getReader();
            const decoder = new TextDecoder();
            let text = "";
            for (;;) {
              const { value, done } = await reader.read();
              if (done) return null;
              text += decoder.decode(value, { stream: true });
              let end;
              while ((end = text.indexOf("\n\n")) >= 0) {
                const lines = text.slice(0, end).split("\n");
                text = text.slice(end + 2);
                if (lines.some((line) => line.startsWith("event:"))) continue;
                const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim()).join("\n");
                if (!data) continue;
                const action = JSON.parse(data);
                remember(action);
                if (action.id >= id) return action.id === id ? action : null;
              }
            }
          } catch (error) {
            return null;
          } finally {
            clearTimeout(timer);
            controller.abort();
          }
        }

        // One action and the chain of actions that led to it, nearest cause first.
        async function showDetail(id) {
          feed.selected = id;
          for (const row of document.querySelectorAll("#feed .row.selected")) row.classList.remove("selected");
          const row = document.querySelector('#feed .row[data-id="' + id + '"]');
          if (row) row.classList.add("selected");
          const action = await actionById(id);
          $("detail").hidden = false;
          $("detail-id").textContent = "#" + id;
          $("detail-json").textContent = action ? JSON.stringify(action, null, 2) : "not in the journal any more";
          const causes = $("detail-causes");
          causes.replaceChildren();
          let cause = action ? action.cause : null;
          for (let depth = 0; cause !== null && cause !== undefined && depth < 32 && feed.selected === id; depth += 1) {
            const parent = await actionById(cause);
            const item = element("li", "mono", parent ? "#" + parent.id + " " + parent.type + " from " + parent.source : "#" + cause + " (not in the journal any more)");
            const target = cause;
            item.addEventListener("click", () => showDetail(target));
            causes.appendChild(item);
            cause = parent ? parent.cause : null;
          }
          if (!causes.childElementCount) causes.appendChild(element("li", "muted", "none: it came from outside the bus (" + (action ? action.source : "?") + ")"));
        }

        async function start() {
          $("filter").addEventListener("submit", (event) => {
            event.preventDefault();
            feed.pattern = $("pattern").value.trim() || "*";
            $("feed").replaceChildren();
            feed.pending = [];
            note("");
            connectFeed(0);
          });
          $("pause").addEventListener("click", togglePause);
          startTimeline();
          $("detail-close").addEventListener("click", () => { $("detail").hidden = true; feed.selected = null; });
          let lastSequence = 0;
          try {
            const stats = await refreshStats();
            lastSequence = stats && stats.journal ? stats.journal.lastSequence || 0 : 0;
          } catch (error) {
            setConnection("no bus", "down");
          }
          connectFeed(lastSequence);
          refreshState();
          setInterval(() => refreshStats().catch(() => setConnection("no bus", "down")), 2000);
          setInterval(refreshState, 1000);
        }

        """#
}
