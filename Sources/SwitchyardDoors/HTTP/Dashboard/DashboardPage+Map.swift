extension DashboardPage {
    /// A map per location plugin: its recent track in SVG, Web Mercator at a whole zoom level
    /// (so tiles line up when there are any), a grid whose squares are as wide as the scale bar,
    /// the current position and its accuracy circle.
    static let mapScript = #"""
        const MAP_WIDTH = 640, MAP_HEIGHT = 360, TILE = 256, TRACK_LIMIT = 2000, HISTORY = 50000;
        const SVG = "http://www.w3.org/2000/svg";
        const maps = new Map();
        let mapTiles = null;

        // A stream of the plugin's own actions, from HISTORY actions back, so the recent track
        // shows at once; positions read as `journal export` reads them: by the position source
        // of the plugin's kind (POSITION_SOURCES, from the server).
        function ensureMap(name, kind, lastSequence) {
          if (maps.has(name)) return;
          $("no-maps").hidden = true;
          const figure = element("figure");
          const caption = element("figcaption", "", name + " (" + kind + "): no position yet");
          const svg = document.createElementNS(SVG, "svg");
          svg.setAttribute("class", "map");
          svg.setAttribute("viewBox", "0 0 " + MAP_WIDTH + " " + MAP_HEIGHT);
          svg.dataset.plugin = name;
          svg.dataset.points = "0";
          figure.append(caption, svg);
          $("maps").appendChild(figure);
          const map = { name, kind, source: POSITION_SOURCES[kind], caption, svg, points: [], pending: false };
          maps.set(name, map);
          const query = new URLSearchParams({ pattern: name + "/*" });
          if (lastSequence > 0) query.set("lastEventId", String(Math.max(0, lastSequence - HISTORY)));
          else query.set("lastEventId", "0");
          const source = new EventSource("/api/actions?" + query.toString());
          source.onmessage = (event) => {
            let action;
            try { action = JSON.parse(event.data); } catch (error) { return; }
            remember(action);
            const point = position(map, action);
            if (!point) return;
            map.points.push(point);
            if (map.points.length > TRACK_LIMIT) map.points.splice(0, map.points.length - TRACK_LIMIT);
            if (!map.pending) { map.pending = true; setTimeout(() => { map.pending = false; drawMap(map); }, 150); }
          };
          source.addEventListener("end", () => source.close());
        }

        function position(map, action) {
          if (action.source !== map.name || action.type !== map.name + "/" + map.source.action) return null;
          return readPosition(map.source, action);
        }

        // The position `action` carries by the position source `source`, or null.
        function readPosition(source, action) {
          const payload = action.payload || {};
          if (source.minimumMode !== undefined && !(payload.mode >= source.minimumMode)) return null;
          const latitude = payload[source.latitude], longitude = payload[source.longitude];
          const accuracy = source.horizontalAccuracy === undefined ? null : payload[source.horizontalAccuracy];
          if (typeof latitude !== "number" || typeof longitude !== "number" || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
          return { latitude, longitude, accuracy: typeof accuracy === "number" ? accuracy : null,
            time: (source.time !== undefined && payload[source.time]) || action.time, seen: action.time, id: action.id };
        }

        // Web Mercator world pixels at `zoom`.
        function project(latitude, longitude, zoom) {
          const size = TILE * Math.pow(2, zoom);
          const sine = Math.min(Math.max(Math.sin(latitude * Math.PI / 180), -0.9999), 0.9999);
          return [(longitude + 180) / 360 * size, (0.5 - Math.log((1 + sine) / (1 - sine)) / (4 * Math.PI)) * size];
        }

        function redrawMaps() { for (const map of maps.values()) drawMap(map); scheduleFleet(); }

        function svgNode(tag, attributes, text) {
          const node = document.createElementNS(SVG, tag);
          for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
          if (text !== undefined) node.textContent = text;
          return node;
        }

        function niceLength(metres) {
          const power = Math.pow(10, Math.floor(Math.log10(metres)));
          for (const step of [5, 2, 1]) if (step * power <= metres) return step * power;
          return power;
        }

        function drawMap(map) {
          const points = visiblePoints(map.points);
          if (!points.length) return;
          const view = fitView(points);
          const nodes = backdrop(view);
          const line = points.map((point) => view.screen(point).map((value) => value.toFixed(1)).join(",")).join(" ");
          nodes.push(svgNode("polyline", { class: "track", points: line, "data-points": points.length }));
          const last = points[points.length - 1];
          const [cx, cy] = view.screen(last);
          if (last.accuracy !== null) nodes.push(svgNode("circle", { class: "accuracy", cx, cy, r: Math.max(last.accuracy / view.metresPerPixel, 1).toFixed(1) }));
          nodes.push(svgNode("circle", { class: "position", cx, cy, r: 6 }));
          map.svg.replaceChildren(...nodes);
          map.svg.dataset.points = String(points.length);
          map.svg.dataset.latitude = String(last.latitude);
          map.svg.dataset.longitude = String(last.longitude);
          map.caption.textContent = map.name + " (" + map.kind + "): " + last.latitude.toFixed(6) + ", " + last.longitude.toFixed(6)
            + (last.accuracy !== null ? " ± " + Math.round(last.accuracy) + " m" : "") + " · " + clock(last.time) + " · " + points.length + " points";
          scheduleFleet();
        }

        // The whole zoom level at which `points` fit the map with a margin, centred on them, and
        // how a point lands on the screen there.
        function fitView(points) {
          let south = 90, north = -90, west = 180, east = -180;
          for (const point of points) {
            south = Math.min(south, point.latitude); north = Math.max(north, point.latitude);
            west = Math.min(west, point.longitude); east = Math.max(east, point.longitude);
          }
          let zoom = 18;
          for (; zoom > 0; zoom -= 1) {
            const [x1, y1] = project(north, west, zoom), [x2, y2] = project(south, east, zoom);
            if (x2 - x1 <= MAP_WIDTH - 80 && y2 - y1 <= MAP_HEIGHT - 80) break;
          }
          const [x1, y1] = project(north, west, zoom), [x2, y2] = project(south, east, zoom);
          const left = (x1 + x2) / 2 - MAP_WIDTH / 2, top = (y1 + y2) / 2 - MAP_HEIGHT / 2;
          const screen = (point) => { const [x, y] = project(point.latitude, point.longitude, zoom); return [x - left, y - top]; };
          const centre = (south + north) / 2;
          const metresPerPixel = 156543.03392 * Math.cos(centre * Math.PI / 180) / Math.pow(2, zoom);
          return { zoom, left, top, screen, metresPerPixel };
        }

        // The tiles (when configured), the grid, the scale bar and the attribution of a view.
        function backdrop(view) {
          const { zoom, left, top, metresPerPixel } = view;
          const bar = niceLength(metresPerPixel * 120), barPixels = bar / metresPerPixel;
          const nodes = [];
          if (mapTiles) {
            const count = Math.pow(2, zoom);
            for (let tx = Math.floor(left / TILE); tx * TILE < left + MAP_WIDTH; tx += 1) {
              for (let ty = Math.max(0, Math.floor(top / TILE)); ty * TILE < top + MAP_HEIGHT && ty < count; ty += 1) {
                const url = mapTiles.replace("{z}", zoom).replace("{x}", ((tx % count) + count) % count).replace("{y}", ty).replace("{s}", "a");
                nodes.push(svgNode("image", { href: url, x: tx * TILE - left, y: ty * TILE - top, width: TILE, height: TILE }));
              }
            }
          }
          const grid = svgNode("g", { class: "grid" });
          for (let x = Math.ceil(left / barPixels) * barPixels; x < left + MAP_WIDTH; x += barPixels) grid.appendChild(svgNode("line", { x1: x - left, y1: 0, x2: x - left, y2: MAP_HEIGHT }));
          for (let y = Math.ceil(top / barPixels) * barPixels; y < top + MAP_HEIGHT; y += barPixels) grid.appendChild(svgNode("line", { x1: 0, y1: y - top, x2: MAP_WIDTH, y2: y - top }));
          nodes.push(grid);
          const label = bar >= 1000 ? bar / 1000 + " km" : bar + " m";
          nodes.push(svgNode("path", { class: "scale", d: "M12," + (MAP_HEIGHT - 22) + " v6 h" + barPixels.toFixed(1) + " v-6" }));
          nodes.push(svgNode("text", { x: 12, y: MAP_HEIGHT - 26 }, label + " (grid " + label + ")"));
          if (mapTiles) nodes.push(svgNode("text", { x: MAP_WIDTH - 8, y: MAP_HEIGHT - 8, "text-anchor": "end" }, "© OpenStreetMap contributors"));
          return nodes;
        }

        """#
}
