extension DashboardPage {
    /// The timeline under the feed and the "why" of a state value.
    ///
    /// Dragging the range (or stepping it with the arrow keys) shows the bus as it was right
    /// after that action: the state tree from `/api/state?at=ID`, the maps' tracks up to that
    /// action (`visiblePoints`), the plugins table as the journal tells it then (emitted
    /// count, last action, lifecycle; "—" for the live-only counters). "Live" returns to now. A click on a value in the state tree asks `/api/why` (at the moment shown) and shows
    /// the action that last changed it and its causes. For tests: `body[data-timeline]` is
    /// `live` or the id asked for, `body[data-timeline-shown]` the id whose state is shown,
    /// `#why[data-explained]` the path explained.
    static let timelineHTML = """
        <div id="timeline">
          <input type="range" id="timeline-range" min="1" max="1" value="1" step="1" aria-label="timeline: the action to see the bus after">
          <button type="button" id="timeline-live" class="on">Live</button>
          <span id="timeline-note" class="muted">live</span>
        </div>
        <div id="why" hidden>
          <h3>Why <span id="why-path" class="mono"></span> <button type="button" id="why-close">close</button></h3>
          <div id="why-text" class="mono"></div>
          <ol id="why-causes"></ol>
        </div>

        """

    static let timelineScript = #"""
        // null while live; else the id of the action the page shows the bus after.
        // `asking`: a past state is on its way (one question at a time).
        // `plugins`: what the journal told of the plugins at the moment shown.
        const timeline = { at: null, shown: null, timer: null, last: 0, asking: false, plugins: null };
        marks.timeline = "live";

        // The range follows the journal's end while live.
        function updateTimeline(lastSequence) {
          timeline.last = lastSequence;
          const range = $("timeline-range");
          range.max = String(Math.max(1, lastSequence));
          if (timeline.at === null) range.value = range.max;
        }

        // The map points up to the moment shown (all of them while live).
        function visiblePoints(points) {
          if (timeline.at === null) return points;
          return points.filter((point) => point.id === undefined || point.id <= timeline.at);
        }

        function seek(id) {
          timeline.at = id;
          marks.timeline = String(id);
          $("timeline-live").classList.remove("on");
          $("timeline-note").textContent = "#" + id + " …";
          clearTimeout(timeline.timer);
          // Dragging asks once it rests: one request per pause, not one per pixel.
          timeline.timer = setTimeout(askMoment, 120);
        }

        // One question at a time: while an answer is on its way, a drag that moves on only
        // moves `timeline.at`, and the answer's arrival asks for where it rests then. So a
        // bus is never asked faster than it answers, and the latest point always wins.
        async function askMoment() {
          if (timeline.asking) return;
          timeline.asking = true;
          try {
            while (timeline.at !== null && timeline.at !== timeline.shown) {
              if (!(await showMoment(timeline.at))) break;
            }
          } finally {
            timeline.asking = false;
          }
        }

        // Shows the bus after action `id`; false when it could not be had.
        async function showMoment(id) {
          let reply;
          try { reply = await getJSON("/api/state?at=" + id); } catch (error) {
            $("timeline-note").textContent = "#" + id + ": " + error.message;
            return false;
          }
          if (timeline.at !== id) return true;
          const action = reply.at || {};
          $("timeline-note").textContent = "after #" + id + " " + (action.type || "") + " at " + clock(action.time);
          const changed = new Set();
          if (tree.value !== undefined) changedPaths(tree.value, reply.state, "", changed);
          tree.text = JSON.stringify(reply.state);
          tree.value = reply.state;
          $("state").replaceChildren(...children(reply.state, "", 0, changed));
          timeline.shown = id;
          timeline.plugins = reply.plugins || null;
          renderPlugins();
          marks.timelineShown = String(id);
          redrawMaps();
          return true;
        }

        function goLive() {
          timeline.at = null;
          timeline.shown = null;
          timeline.plugins = null;
          renderPlugins();
          marks.timeline = "live";
          delete marks.timelineShown;
          $("timeline-live").classList.add("on");
          $("timeline-note").textContent = "live";
          $("timeline-range").value = $("timeline-range").max;
          tree.text = null;
          refreshState();
          redrawMaps();
        }

        // What last changed `path` (at the moment shown), its value before and after, and why.
        async function showWhy(path) {
          const query = new URLSearchParams({ path });
          if (timeline.at !== null) query.set("at", String(timeline.at));
          $("why").hidden = false;
          $("why").dataset.explained = path;
          $("why-path").textContent = path;
          $("why-text").textContent = "…";
          $("why-causes").replaceChildren();
          let reply;
          try { reply = await getJSON("/api/why?" + query.toString()); } catch (error) {
            $("why-text").textContent = error.message;
            return;
          }
          const why = reply.why;
          const change = why.changedBy;
          $("why-text").textContent = change
            ? "#" + change.id + " " + change.type + " from " + change.source + " at " + clock(change.time) + ": "
              + JSON.stringify(why.before) + " → " + JSON.stringify(why.after)
            : "no action changed it: it is the initial value";
          const items = why.causes.map((cause) => element("li", "", "caused by #" + cause.id + " " + cause.type + " from " + cause.source));
          if (why.missingCause) items.push(element("li", "muted", "caused by #" + why.missingCause + " (not in the journal any more)"));
          else if (change) items.push(element("li", "muted", "which came from outside the bus"));
          $("why-causes").replaceChildren(...items);
        }

        function startTimeline() {
          const range = $("timeline-range");
          range.addEventListener("input", () => seek(Number(range.value)));
          $("timeline-live").addEventListener("click", goLive);
          $("why-close").addEventListener("click", () => { $("why").hidden = true; });
          $("state").addEventListener("click", (event) => {
            const leaf = event.target.closest(".leaf[data-path]");
            if (leaf) showWhy(leaf.dataset.path);
          });
        }

        """#
}
