extension DashboardPage {
    /// Plugin health from `/api/stats` and the state tree from `/api/state`.
    static let viewScript = #"""
        // A duration as people say it: "45 s", "4 min 57 s", "2 h 5 min 3 s", "3 d 4 h 0 min 1 s".
        function formatDuration(seconds) {
          let rest = Math.max(0, Math.round(seconds || 0));
          const parts = [];
          for (const [unit, size] of [["d", 86400], ["h", 3600], ["min", 60]]) {
            if (rest >= size || parts.length) { parts.push(Math.floor(rest / size) + " " + unit); rest %= size; }
          }
          parts.push(rest + " s");
          return parts.join(" ");
        }

        const PLUGIN_COLUMNS = ["plugin", "kind", "status", "restarts", "failures", "dropped", "buffer", "emitted", "last action", "last error"];
        const NOT_JOURNALED = "not journaled: only the live bus counts it, so the past has no value";

        function statusClass(status) {
          return /fail|gave|stopp|restart/.test(status) ? "bad" : status === "running" ? "good" : "";
        }

        // A plugin's cells, [value, class, title] per column: live from /api/stats, or at the
        // moment the timeline shows from what the journal told then (`timeline.plugins`).
        function pluginCells(plugin) {
          const status = String(plugin.status || "");
          if (timeline.at === null || !timeline.plugins) {
            return [[plugin.name, ""], [plugin.kind, "muted"], [status, statusClass(status)],
              [plugin.restarts, "num"], [plugin.failures, "num"], [plugin.dropped, "num"], [plugin.queued, "num"],
              [plugin.emitted, "num", "actions emitted since the bus started"], ["", ""], [plugin.lastError || "", "bad"]];
          }
          const then = (timeline.plugins.sources || {})[plugin.name] || { emitted: 0 };
          const since = timeline.plugins.since || 0;
          const last = then.last;
          return [[plugin.name, ""], [plugin.kind, "muted"],
            then.status ? [then.status, statusClass(then.status)] : ["—", "muted", "no lifecycle action of it in the journal before this moment"],
            [then.restarts ?? 0, "num"], [then.failures ?? 0, "num"],
            ["—", "muted", NOT_JOURNALED], ["—", "muted", NOT_JOURNALED],
            [then.emitted, "num", since ? "actions journaled after #" + since + " (the snapshot the history started from)" : "actions journaled up to this moment"],
            last ? ["#" + last.id + " " + last.type, "mono", "at " + last.time] : ["—", "muted", "no action of it in the journal before this moment"],
            [then.lastError || "", "bad"]];
        }

        // The plugins table from the last /api/stats, live or at the timeline's moment.
        function renderPlugins() {
          const stats = lastStats || {};
          const rows = [];
          for (const plugin of stats.plugins || []) {
            const row = element("tr");
            row.dataset.plugin = plugin.name;
            pluginCells(plugin).forEach(([value, className, title], index) => {
              const cell = element("td", className, value === undefined || value === null ? "" : String(value));
              cell.dataset.column = PLUGIN_COLUMNS[index];
              if (title) cell.title = title;
              row.appendChild(cell);
            });
            rows.push(row);
          }
          rows.push(...originRows());
          document.querySelector("#plugins tbody").replaceChildren(...rows);
        }

        let lastStats = null;

        // Plugin health; also finds the plugins that get a map, and the tile template.
        async function refreshStats() {
          const stats = (await getJSON("/api/stats")).stats || {};
          lastStats = stats;
          $("bus").textContent = "bus " + (stats.name || "?") + " · " + (stats.actions || 0) + " actions · up "
            + formatDuration(stats.uptime);
          for (const plugin of stats.plugins || []) {
            if (Object.hasOwn(POSITION_SOURCES, plugin.kind)) {
              ensureMap(plugin.name, plugin.kind, stats.journal ? stats.journal.lastSequence || 0 : 0);
            }
          }
          updateTimeline(stats.journal ? stats.journal.lastSequence || 0 : 0);
          renderPlugins();
          refreshFleet(stats.journal ? stats.journal.lastSequence || 0 : 0);
          const tiles = stats.http && typeof stats.http.tiles === "string" ? stats.http.tiles : null;
          if (tiles !== mapTiles) { mapTiles = tiles; redrawMaps(); }
          return stats;
        }

        // The state tree: re-rendered when the state changed, keeping what was folded, with the
        // paths that changed highlighted.
        const tree = { text: null, value: undefined, open: new Map() };

        async function refreshState() {
          if (timeline.at !== null) return;
          let reply;
          try { reply = await getJSON("/api/state"); } catch (error) { return; }
          if (timeline.at !== null) return;
          const text = JSON.stringify(reply.state);
          if (text === tree.text) return;
          const changed = new Set();
          if (tree.text !== null) changedPaths(tree.value, reply.state, "", changed);
          tree.text = text;
          tree.value = reply.state;
          const root = $("state");
          const scroll = root.scrollTop;
          root.replaceChildren(...children(reply.state, "", 0, changed));
          root.scrollTop = scroll;
          marks.stateLoaded = "yes";
        }

        function isContainer(value) { return value !== null && typeof value === "object"; }

        // Adds every leaf path that differs, and the containers above it.
        function changedPaths(before, after, path, out) {
          if (isContainer(before) && isContainer(after) && Array.isArray(before) === Array.isArray(after)) {
            let any = false;
            for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
              if (changedPaths(before[key], after[key], path ? path + "." + key : key, out)) any = true;
            }
            if (any && path) out.add(path);
            return any;
          }
          if (before === after || JSON.stringify(before) === JSON.stringify(after)) return false;
          out.add(path);
          return true;
        }

        function children(value, path, depth, changed) {
          if (!isContainer(value)) return [leaf("", value, path, changed)];
          const keys = Object.keys(value);
          if (!Array.isArray(value)) keys.sort();
          if (!keys.length) return [element("div", "leaf muted", Array.isArray(value) ? "[]" : "{}")];
          return keys.map((key) => {
            const child = value[key];
            const childPath = path ? path + "." + key : key;
            if (!isContainer(child)) return leaf(key, child, childPath, changed);
            const details = element("details");
            details.dataset.path = childPath;
            details.open = tree.open.has(childPath) ? tree.open.get(childPath) : depth < 2;
            details.addEventListener("toggle", () => tree.open.set(childPath, details.open));
            const summary = element("summary");
            summary.appendChild(element("span", "key", key));
            const size = Object.keys(child).length;
            summary.appendChild(element("span", "muted", Array.isArray(child) ? " [" + size + "]" : " {" + size + "}"));
            if (changed.has(childPath)) summary.classList.add("changed");
            details.appendChild(summary);
            details.append(...children(child, childPath, depth + 1, changed));
            return details;
          });
        }

        function leaf(key, value, path, changed) {
          const line = element("div", "leaf");
          line.dataset.path = path;
          if (key !== "") { line.appendChild(element("span", "key", key)); line.appendChild(document.createTextNode(": ")); }
          const kind = typeof value === "string" ? "string" : typeof value === "number" ? "number" : "muted";
          line.appendChild(element("span", kind, JSON.stringify(value)));
          if (changed.has(path)) line.classList.add("changed");
          return line;
        }

        """#
}
