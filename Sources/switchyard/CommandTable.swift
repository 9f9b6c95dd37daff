import SwitchyardBus

/// Every command of the `switchyard` program, declared once. The parser, `--help`, error
/// usage lines, shell completions and the command reference in docs/command-line.md all come from here.
///
/// To add an option that several commands share, add it to ``clientOptions`` or
/// ``journalOptions``; to add a command, add its spec to ``root`` and a case to
/// `SwitchyardCommand.run(_:)`.
enum CommandTable {
    static let defaultConfiguration = "Config/default.json"

    /// How clients (`send`, `state`, `tail`, `stats`) find the bus. Without any, the bus is
    /// `$SWITCHYARD_DATA`, or the only one in .switchyard/ or /var/lib/switchyard/ (``BusLocator``).
    static let clientOptions: [OptionSpec] = [
        .value("bus", "NAME", help: "the bus called NAME, in .switchyard/ or /var/lib/switchyard/", completion: .bus),
        .value("data-dir", "DIR", help: "the bus whose data directory is DIR", completion: .directory),
        .value("data-directory", "DIR", help: "the same as --data-dir", completion: .directory, hidden: true),
        .value("socket", "PATH", help: "the bus's control socket", completion: .file(extension: nil)),
        .value("config", "FILE", help: "the bus in FILE's data directory", completion: .file(extension: "json")),
    ]

    /// How journal commands find the data directory; without any, as for clients.
    static let journalOptions: [OptionSpec] = [
        .value("bus", "NAME", help: "the journal of the bus called NAME, in .switchyard/ or /var/lib/switchyard/", completion: .bus),
        .value("data-dir", "DIR", help: "the journal in DIR", completion: .directory),
        .value("data-directory", "DIR", help: "the same as --data-dir", completion: .directory, hidden: true),
        .value("config", "FILE", help: "the journal in FILE's data directory", completion: .file(extension: "json")),
    ]

    /// How `tail` and `journal show` print actions (``ActionFormat``).
    static let actionFormat: [OptionSpec] = [
        .flag("json", help: "print one JSON object a line (the default when stdout is not a terminal)"),
        .flag("text", help: "print the logger's text lines (the default on a terminal)"),
    ]

    static let pattern = PositionalSpec("PATTERN", optional: true, repeats: true,
                                        help: "type patterns, any of which matches: * (default), a domain gps/*, an event */changed or a type gps/fix")

    static let run = CommandSpec(
        name: "run", abstract: "run the bus until SIGTERM or SIGINT",
        discussion: """
            SIGTERM/SIGINT stop the bus gracefully (exit 0; a second one exits at once); SIGHUP reloads
            CONFIG (an invalid file keeps the running configuration). Readiness: "ready:" on stderr and
            READY=1 to $NOTIFY_SOCKET once every plugin has started.
            """,
        positionals: [PositionalSpec("CONFIG", optional: true, help: "the plugin set (default \(defaultConfiguration))",
                                     completion: .file(extension: "json"))],
        options: [
            .flag("accept-slice-changes", help: "restore a journal written by a bus with other state slices (once, after changing the plugins)"),
            .value("log-level", "LEVEL", help: "trace, debug, info, warning or error (default: bus.logLevel, else info)",
                   completion: .words(LogSink.Level.allCases.map(\.rawValue))),
            .value("log-format", "FORMAT", help: "text (default) or json: one object a line with level, time, message, plugin, metadata",
                   completion: .words(LogSink.Format.allCases.map(\.rawValue))),
        ],
        examples: [
            .init("switchyard run", "the offline demo, Config/default.json"),
            .init("switchyard run Config/tracker.json --log-format json --log-level debug", "structured logs for journald or Loki"),
            .init("switchyard run Config/gpsd.json", "positions from a gpsd on 127.0.0.1:2947"),
        ])

    static let validate = CommandSpec(
        name: "validate", abstract: "check a configuration and exit (0 valid, 78 invalid)",
        positionals: [PositionalSpec("CONFIG", help: "the plugin set to check", completion: .file(extension: "json"))],
        examples: [.init("switchyard validate Config/tracker.json", "every problem at once, with its key path")])

    static let plugins = CommandSpec(
        name: "plugins", abstract: "list the plugin kinds and their settings",
        positionals: [PositionalSpec("KIND", optional: true, help: "only this kind", completion: .words(BuiltInPlugins.registry.kinds.sorted()))],
        options: [.flag("json", help: "print the kinds and settings as one JSON array")],
        examples: [
            .init("switchyard plugins timer", "the timer's settings and their defaults"),
            .init("switchyard plugins --json", "every kind, for tools"),
        ])

    static let schema = CommandSpec(
        name: "schema", abstract: "print the JSON Schema (draft 2020-12) of configuration files",
        discussion: "Editors complete and check a config that names it: \"$schema\": \"switchyard.schema.json\".",
        examples: [.init("switchyard schema > Config/switchyard.schema.json", "the copy the shipped configs name")])

    static let send = CommandSpec(
        name: "send", abstract: "dispatch an action to a running bus; prints the reply, {\"id\":N,\"ok\":true}",
        positionals: [
            PositionalSpec("TYPE", help: "the action type, lower-case domain/event"),
            PositionalSpec("JSON", optional: true, help: "the payload (default null)"),
        ],
        options: clientOptions,
        examples: [.init(#"switchyard send demo/hello '{"to": "world"}'"#, "the reply comes once the action is reduced and journaled")])

    static let state = CommandSpec(
        name: "state", abstract: "print the running bus's state (or the part at PATH), or with --at the state then",
        discussion: "With --at, the state right after that action is rebuilt from the data directory, bus running or not: "
            + "--config names the plugin set whose reducers rebuild it (and the data directory, unless --data-dir or --bus names another).",
        positionals: [PositionalSpec("PATH", optional: true, help: "a dotted state path (location.latitude, places.value.0)")],
        options: clientOptions + [history, .flag("json", help: "print one line of JSON instead of indented JSON")],
        examples: [
            .init("switchyard state location", "the current location slice"),
            .init("switchyard state --at 2026-11-22T09:30:00Z location --config Config/tracker.json", "where it was at half past nine"),
        ])

    /// `--at` of `state` and `why`.
    static let history = OptionSpec.value("at", "ID|TIME", help: "right after this action id, or the last action at or before this ISO 8601 time")

    static let why = CommandSpec(
        name: "why", abstract: "print the action that last changed the state at PATH, its causes, and the value before and after",
        discussion: "Read from the data directory, bus running or not; --config names the plugin set whose reducers rebuild "
            + "the state (and the data directory, unless --data-dir or --bus names another). Without --at: after the newest action.",
        positionals: [PositionalSpec("PATH", help: "a dotted state path (location.latitude)")],
        options: [
            history,
            .value("config", "FILE", help: "the plugin set (required)", completion: .file(extension: "json")),
            .value("data-dir", "DIR", help: "the data directory to read (default: the config's)", completion: .directory),
            .value("data-directory", "DIR", help: "the same as --data-dir", completion: .directory, hidden: true),
            .value("bus", "NAME", help: "the bus called NAME, in .switchyard/ or /var/lib/switchyard/"),
            .flag("json", help: "print the answer as one JSON object"),
        ],
        examples: [.init("switchyard why location.latitude --config Config/tracker.json", "the location/changed that set it, and the fix behind it")])

    static let tail = CommandSpec(
        name: "tail", abstract: "print actions as the bus reduces them",
        discussion: "Runs until Ctrl-C or the bus stops (exit 0), or until the bus drops it for reading too slowly or the "
            + "connection ends without the bus saying why (exit 1, with a message).",
        positionals: [pattern],
        options: [
            .value("lines", short: "n", "N", help: "first print the last N matching actions from the journal"),
            .value("count", "N", help: "exit after printing N actions (the -n ones included)"),
            .value("buffer", "N", help: "let N actions wait for this watcher (default 8192)"),
            .value("overflow", "POLICY", help: "when it falls behind: disconnect (default, exit 1) or drop-oldest (count and go on)",
                   completion: .words(["disconnect", "drop-oldest"])),
        ] + actionFormat + clientOptions,
        examples: [
            .init("switchyard tail 'location/*' -n 5", "the last five location actions, then new ones as they come"),
            .init("switchyard tail --count 1 bus/stopping", "wait for the bus to stop"),
        ])

    static let stats = CommandSpec(
        name: "stats", abstract: "print the running bus's counters",
        options: clientOptions + [.flag("json", help: "print the counters as JSON")],
        examples: [.init("switchyard stats --json", "the counters for a script")])

    static let journal = CommandSpec(
        name: "journal", abstract: "print, check, trim, export, import or compare journals",
        subcommands: [
            CommandSpec(
                name: "show", abstract: "print the journaled actions (text on a terminal, JSON lines when piped)",
                discussion: """
                    ID is an action id. TIME is an ISO 8601 time (2026-11-22T09:30:00Z), a local date or time as journalctl
                    takes them (2026-11-28, "2026-11-28 09:30", 09:30), today, yesterday, now, or relative (-5m, "1 hour ago").
                    Both bounds are inclusive.
                    """,
                positionals: [pattern],
                options: [
                    .value("since", "ID|TIME", help: "start at this action id or time"),
                    .value("until", "ID|TIME", help: "stop after this action id or time"),
                    .value("lines", short: "n", "N", help: "only the last N matching actions"),
                    .flag("follow", short: "f", help: "keep printing actions as they are journaled"),
                ] + actionFormat + journalOptions,
                examples: [
                    .init("switchyard journal show 'location/*' -n 10", "the ten latest location actions"),
                    .init("switchyard journal show --since 2026-11-22T09:00:00Z --until 120", "a window of the history"),
                    .init("switchyard journal show --since '1 hour ago'", "the last hour (also -1h, today, yesterday, 2026-11-28)"),
                ]),
            CommandSpec(name: "verify", abstract: "check every segment and snapshot; exit 1 with file, line and byte on damage",
                        options: [
                            .flag("repair", help: "keep everything before the damage, move the rest aside into journal/damaged-TIME (nothing is deleted)"),
                        ] + journalOptions),
            CommandSpec(name: "compact", abstract: "remove segments and snapshots the latest snapshot covers",
                        options: journalOptions),
            CommandSpec(
                name: "export", abstract: "write a range of the journal as JSON lines, or its location history as GPX or GeoJSON",
                discussion: """
                    For a bug report: the file replays elsewhere (switchyard replay FILE) or goes into another data directory
                    (journal import). A damaged journal stops the export with file, line and byte (exit 1).
                    --gpx and --geojson write the positions of every location-emitter (NAME/changed) and gpsd plugin
                    (NAME/fix with a 2D or 3D fix) in the range: a GPX 1.1 track or a GeoJSON (RFC 7946) line per plugin,
                    a new segment where the position was lost. No positions in the range: exit 1, nothing written.
                    --since and --until are the same as --from and --to.
                    """,
                options: range + [
                    .value("since", "ID|TIME", help: "the same as --from", hidden: true),
                    .value("until", "ID|TIME", help: "the same as --to", hidden: true),
                    .value("output", short: "o", "FILE", help: "write to FILE instead of stdout", completion: .file(extension: nil)),
                    .value("format", "FORMAT", help: "jsonl (default): one action a line; gpx or geojson: the location history",
                           completion: .words(TrackExport.Format.allCases.map(\.rawValue))),
                    .flag("gpx", help: "the same as --format gpx: the location history as a GPX 1.1 track"),
                    .flag("geojson", help: "the same as --format geojson: the location history as a GeoJSON FeatureCollection"),
                    .value("plugin", "NAME", help: "with --gpx or --geojson: only the track of the plugin called NAME"),
                ] + journalOptions,
                examples: [
                    .init("switchyard journal export --from 2026-11-22T09:00:00Z --to 2026-11-22T10:00:00Z -o hour.jsonl", "an hour of the recording"),
                    .init("switchyard journal export --types 'gps/*' --config Config/gpsd.json > fixes.jsonl", "only the receiver's actions"),
                    .init("switchyard journal export --gpx --plugin location --since 2026-11-22T09:00:00Z > track.gpx", "where the device has been, for any map tool"),
                ]),
            CommandSpec(
                name: "import", abstract: "append exported actions to a data directory's journal",
                discussion: """
                    Every line is checked before anything is written (a bad line: exit 1 naming the line, nothing imported).
                    The actions get the ids that continue the journal (no id is ever reused); a cause inside the import
                    follows its action, one outside it becomes null. Refused while a bus holds the data directory.
                    """,
                positionals: [PositionalSpec("FILE", help: "a file journal export wrote; - for stdin", completion: .file(extension: "jsonl"))],
                options: range + journalOptions,
                examples: [.init("switchyard journal import bug-1234.jsonl --data-dir /tmp/bug-1234", "a recording from a bug report, ready for switchyard run")]),
            CommandSpec(
                name: "diff", abstract: "compare two recordings: the first action where they, or the states after them, differ",
                discussion: """
                    A and B are data directories, journal directories or exported files. The actions matching --types are
                    paired in order and compared by type, source and payload; with --config, also the states after them
                    (every action reduced by CONFIG's plugins, none run). Exit codes: 0 the same, 1 they differ,
                    2 trouble (a usage error, a recording missing or damaged), 78 invalid configuration.
                    """,
                positionals: [
                    PositionalSpec("A", help: "the first recording", completion: .file(extension: nil)),
                    PositionalSpec("B", help: "the second recording", completion: .file(extension: nil)),
                ],
                options: [
                    .value("config", "FILE", help: "compare the states too, reduced by this plugin set", completion: .file(extension: "json")),
                    .value("types", "PATTERN", help: "pair only the actions of this type pattern (default *)"),
                ],
                examples: [
                    .init("switchyard journal diff .switchyard/tracker /tmp/replay --config Config/tracker.json", "a replay against its recording, state by state"),
                ]),
        ])

    /// The range of recorded actions export, import and replay take.
    static let range: [OptionSpec] = [
        .value("from", "ID|TIME", help: "start at this action id or time, as journal show takes them (inclusive)"),
        .value("to", "ID|TIME", help: "stop after this action id or time (inclusive)"),
        .value("types", "PATTERN", help: "only actions of this type pattern: * (default), gps/* or gps/fix"),
    ]

    static let replay = CommandSpec(
        name: "replay", abstract: "feed recorded actions into a bus built from CONFIG, at their recorded pace",
        discussion: """
            The bus gets a data directory of its own (--data-dir, new or empty), so the recording is never written to.
            Replayed actions keep their type, payload, source and time (reducers see what they saw); causes point at the
            replayed copies. --effects off (default) only reduces them: no plugin starts. --effects on runs the plugins,
            which react: their actions are new, with a cause pointing at the replayed one. Ends when the last action is
            reduced (with effects, once the bus has been quiet for a second); SIGINT stops early (exit 0).
            """,
        positionals: [PositionalSpec("RECORDING", help: "a data directory, journal directory or exported file", completion: .file(extension: nil))],
        options: [
            .value("config", "CONFIG", help: "the plugin set to build the bus from (required)", completion: .file(extension: "json")),
            .value("data-dir", "DIR", help: "the replay bus's data directory (default: CONFIG's, with -replay-TIME added)", completion: .directory),
        ] + range + [
            .value("speed", "N", help: "N times the recorded pace (default 1; 0.5 is half speed)"),
            .flag("as-fast-as-possible", help: "no waiting: each action as soon as the one before is reduced"),
            .value("effects", "on|off", help: "off (default): reducers only; on: plugins run and react", completion: .words(["off", "on"])),
            .flag("step", help: "wait for Enter before each action (and print it on stderr)"),
        ],
        examples: [
            .init("switchyard replay .switchyard/tracker --config Config/tracker.json --speed 50", "yesterday at ×50 through today's reducers"),
            .init("switchyard replay day.jsonl --config Config/new.json --types 'gps/*' --effects on --as-fast-as-possible",
                  "recorded positions through a new plugin set"),
        ])

    static let inspect = CommandSpec(
        name: "inspect", abstract: "serve the dashboard over a recording, read-only, without running its plugins",
        discussion: "The timeline, state?at=, why and diff work as on a running bus; dispatches are refused. Serves until Ctrl-C "
            + "(exit 0), on a loopback address only (it has no token). Nothing is written to DATA_DIR.",
        positionals: [PositionalSpec("DATA_DIR", help: "a bus's data directory, or a replay's", completion: .directory)],
        options: [
            .value("config", "FILE", help: "the plugin set that recorded it (required)", completion: .file(extension: "json")),
            .value("http", "HOST:PORT", help: "where to serve (default 127.0.0.1:8080)"),
        ],
        examples: [.init("switchyard inspect bug-1234/tracker --config Config/tracker.json --http 127.0.0.1:8081",
                         "scrub through a bug report's journal at http://127.0.0.1:8081/")])

    static let completions = CommandSpec(
        name: "completions", abstract: "print a shell completion script",
        positionals: [PositionalSpec("SHELL", help: "bash, zsh or fish", completion: .words(["bash", "fish", "zsh"]))],
        examples: [
            .init("source <(switchyard completions bash)", "completion in this bash session"),
            .init("switchyard completions fish > ~/.config/fish/completions/switchyard.fish", "for every fish session"),
        ])

    static let version = CommandSpec(name: "version", abstract: "print the version")

    /// The commands `help` explains, itself included.
    static let commands = [run, validate, plugins, schema, send, state, why, tail, stats, journal, replay, inspect, completions]

    static let help = CommandSpec(
        name: "help", abstract: "show the help of a command, or the manual page",
        positionals: [PositionalSpec("COMMAND", optional: true, help: "a command, such as tail or journal",
                                     completion: .words(commands.map(\.name) + ["help", "version"]))],
        options: [.flag("man", help: "print the manual page (roff), generated from the same definitions: man -l <(switchyard help --man)")],
        examples: [.init("switchyard help --man > /usr/local/share/man/man1/switchyard.1", "what Scripts/install does for man switchyard")])

    /// The program: every command below it.
    static let root = CommandSpec(
        name: "switchyard", abstract: "an actor-based event bus",
        discussion: """
            Without a command, switchyard runs \(defaultConfiguration); a lone CONFIG.json argument runs that file.
            Exit codes: 0 success, 1 failure (an error reply, no bus, a damaged journal), 2 usage,
            78 invalid configuration.
            """,
        options: [.flag("version", short: "V", help: "print the version")],
        subcommands: commands + [help, version])

    /// The words to parse: `switchyard` alone runs the default configuration, `switchyard
    /// FILE.json` runs that file, and `--version` (`-V`) is the `version` command.
    static func normalized(_ arguments: [String]) -> [String] {
        guard let first = arguments.first else { return ["run"] }
        if first == "--version" || first == "-V" { return ["version"] + arguments.dropFirst() }
        if first.hasSuffix(".json"), !first.hasPrefix("-") { return ["run"] + arguments }
        return arguments
    }
}
