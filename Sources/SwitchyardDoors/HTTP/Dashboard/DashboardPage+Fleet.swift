extension DashboardPage {
    /// Every vehicle on one map: a layer for each of this bus's position plugins and one for each
    /// origin bus heard through a relay.
    ///
    /// A relay is any plugin whose slice has `origins` (the NATS bridge keeps them): each origin
    /// with its `source`, `received`, `lastSeen`, `lastType` and `types`. Its positions are the
    /// relayed actions of those types that a kind's position source reads (`gps/fix`,
    /// `location/changed`): one stream per type from `HISTORY` actions back, sorted into layers
    /// by source. A layer not heard from for `FLEET_STALE_MS` is drawn faded. The plugin table
    /// gets a row per origin with its last message and how long ago it came.
    static let fleetScript = #"""
        const FLEET_STALE_MS = 30000;
        const fleet = { origins: new Map(), streams: new Set(), figure: null, svg: null, caption: null, pending: false };

        // The relays' origins in the state: [{ relay, name, entry }].
        function relayedOrigins() {
          const found = [];
          const state = tree.value;
          if (!isContainer(state)) return found;
          for (const [relay, slice] of Object.entries(state)) {
            if (!isContainer(slice) || !isContainer(slice.origins)) continue;
            for (const [name, entry] of Object.entries(slice.origins)) if (isContainer(entry)) found.push({ relay, name, entry });
          }
          return found.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
        }

        // The position source reading actions of `type` (by its event after the slash), if any.
        function sourceForType(type) {
          const event = String(type).slice(String(type).indexOf("/") + 1);
          for (const source of Object.values(POSITION_SOURCES)) if (source.action === event) return source;
          return null;
        }

        // Rows under the relay's own: each origin, its last message and how long ago it was.
        // "lag 12 ms (largest 310 ms)": from when the origin stamped its last action to when it
        // was received; "lag —" for an origin whose bus sends no time.
        function lagText(entry) {
          const lag = element("span", "lag");
          if (typeof entry.lag !== "number") {
            lag.textContent = "lag —";
            lag.title = "this origin sends no Switchyard-Time header (an older bus, or a publisher that is not a bus), so its lag is unknown";
            return lag;
          }
          const ms = (seconds) => Math.round(seconds * 1000) + " ms";
          lag.textContent = "lag " + ms(entry.lag) + (typeof entry.maxLag === "number" ? " (largest " + ms(entry.maxLag) + ")" : "");
          lag.title = "from when the origin's bus stamped its last action to when this bridge received it (the two clocks' difference included)";
          return lag;
        }

        function originRows() {
          const rows = [];
          for (const { relay, name, entry } of relayedOrigins()) {
            const row = element("tr", "origin");
            row.dataset.origin = name;
            row.dataset.relay = relay;
            const age = Date.now() - Date.parse(entry.lastSeen);
            const stale = !(age < FLEET_STALE_MS);
            row.appendChild(element("td", "", "↳ " + name));
            row.appendChild(element("td", "muted", "origin via " + relay));
            row.appendChild(element("td", stale ? "bad" : "good", stale ? "quiet" : "heard"));
            const last = element("td", "", "last " + (entry.lastType || "?") + " at " + clock(entry.lastSeen) + " (" + (age >= 0 ? formatDuration(age / 1000) : "?") + " ago) · "
              + (entry.received || 0) + " received");
            last.colSpan = 7;
            last.appendChild(document.createTextNode(" · "));
            last.appendChild(lagText(entry));
            row.appendChild(last);
            rows.push(row);
          }
          return rows;
        }

        // Opens a stream per position type the origins have sent, and keeps the layers' facts.
        function refreshFleet(lastSequence) {
          for (const { name, entry } of relayedOrigins()) {
            let layer = fleet.origins.get(name);
            if (!layer) {
              layer = { name, source: entry.source, points: [], lastSeen: null };
              fleet.origins.set(name, layer);
            }
            layer.lastSeen = entry.lastSeen;
            for (const type of entry.types || []) {
              const source = sourceForType(type);
              if (source && !fleet.streams.has(type)) openFleetStream(type, source, lastSequence);
            }
          }
          scheduleFleet();
        }

        function openFleetStream(type, source, lastSequence) {
          fleet.streams.add(type);
          const query = new URLSearchParams({ pattern: type, lastEventId: String(Math.max(0, lastSequence - HISTORY)) });
          const events = new EventSource("/api/actions?" + query.toString());
          events.onmessage = (event) => {
            let action;
            try { action = JSON.parse(event.data); } catch (error) { return; }
            for (const layer of fleet.origins.values()) {
              if (layer.source !== action.source) continue;
              const point = readPosition(source, action);
              if (!point) return;
              layer.points.push(point);
              if (layer.points.length > TRACK_LIMIT) layer.points.splice(0, layer.points.length - TRACK_LIMIT);
              scheduleFleet();
              return;
            }
          };
          events.addEventListener("end", () => events.close());
        }

        function scheduleFleet() {
          if (fleet.pending) return;
          fleet.pending = true;
          setTimeout(() => { fleet.pending = false; drawFleet(); }, 150);
        }

        // The layers: this bus's own position plugins, then the origins, each with a position —
        // up to the timeline's moment when it looks at the past.
        function fleetLayers() {
          const layers = [];
          for (const map of maps.values()) {
            const points = visiblePoints(map.points);
            // Heard when the bus reduced the position, not at the time the position names (a
            // replayed route's points are old).
            if (points.length) layers.push({ name: map.name, own: true, points, lastSeen: points[points.length - 1].seen });
          }
          for (const layer of fleet.origins.values()) {
            const points = visiblePoints(layer.points);
            if (points.length) layers.push({ ...layer, points, lastSeen: timeline.at === null ? layer.lastSeen : points[points.length - 1].seen, own: false });
          }
          return layers;
        }

        function drawFleet() {
          if (!fleet.origins.size) return;
          if (!fleet.figure) {
            $("no-maps").hidden = true;
            fleet.figure = element("figure");
            fleet.figure.id = "fleet";
            fleet.caption = element("figcaption", "", "fleet: no position yet");
            fleet.svg = document.createElementNS(SVG, "svg");
            fleet.svg.setAttribute("class", "map fleet");
            fleet.svg.setAttribute("viewBox", "0 0 " + MAP_WIDTH + " " + MAP_HEIGHT);
            fleet.figure.append(fleet.caption, fleet.svg);
            $("maps").prepend(fleet.figure);
          }
          const layers = fleetLayers();
          fleet.svg.dataset.layers = String(layers.length);
          if (!layers.length) return;
          const view = fitView(layers.flatMap((layer) => layer.points));
          const nodes = backdrop(view);
          const now = Date.now();
          layers.forEach((layer, index) => {
            const stale = !(now - Date.parse(layer.lastSeen) < FLEET_STALE_MS);
            const group = svgNode("g", { class: "layer" + (stale ? " stale" : "") + (layer.own ? " own" : ""), "data-layer": layer.name });
            const last = layer.points[layer.points.length - 1];
            group.dataset.latitude = String(last.latitude);
            group.dataset.longitude = String(last.longitude);
            group.dataset.points = String(layer.points.length);
            const colour = "hsl(" + (index * 137) % 360 + ", 65%, 40%)";
            const line = layer.points.map((point) => view.screen(point).map((value) => value.toFixed(1)).join(",")).join(" ");
            group.appendChild(svgNode("polyline", { class: "track", points: line, style: "stroke: " + colour }));
            const [cx, cy] = view.screen(last);
            group.appendChild(svgNode("circle", { class: "position", cx, cy, r: 6, style: "fill: " + colour }));
            // Labels step down by layer, so vehicles close together stay readable.
            group.appendChild(svgNode("text", { x: cx + 9, y: cy - 9 + (index % 3) * 13 }, layer.name + " · " + clock(layer.lastSeen)));
            nodes.push(group);
          });
          fleet.svg.replaceChildren(...nodes);
          fleet.caption.textContent = "fleet: " + layers.map((layer) => layer.name + (layer.own ? " (this bus)" : "")).join(", ");
        }

        """#
}
