// swift-tools-version: 6.0
import PackageDescription

/// The built-in plugins, listed once: each is a folder under Plugins/ and a target of its own on
/// the bus runtime. Adding a plugin is a line here and its `register` in
/// Sources/SwitchyardPlugins/BuiltInPlugins.swift.
let plugins: [(target: String, folder: String, also: [Target.Dependency])] = [
    ("LoggerPlugin", "Logger", ["SwitchyardIO"]),
    ("TimerPlugin", "Timer", []),
    ("GPSDPlugin", "GPSD", ["SwitchyardIO"]),
    ("LocationEmitterPlugin", "LocationEmitter", ["SwitchyardIO"]),
    ("NetworkFetchPlugin", "NetworkFetch", ["SwitchyardIO", "CSwitchyardCurl"]),
    ("NATSPlugin", "NATS", ["SwitchyardIO"]),
    ("ExecPlugin", "Exec", ["SwitchyardIO", "CExecSpawn"]),
]
/// C shims a plugin keeps in a subfolder of its own (excluded from the plugin's Swift target).
let pluginShims: [(target: String, folder: String, linker: [LinkerSetting])] = [
    // libcurl through dlopen, so only a bus that fetches maps it (and its TLS libraries).
    ("CSwitchyardCurl", "NetworkFetch/CCurl", [.linkedLibrary("dl")]),
    // Glibc's Swift module hides pipe2 and the posix_spawn file-action extensions exec needs.
    ("CExecSpawn", "Exec/CSpawn", []),
]
let pluginTargets: [Target] = plugins.map { plugin in
    .target(name: plugin.target, dependencies: ["SwitchyardBus"] + plugin.also, path: "Plugins/" + plugin.folder,
            exclude: pluginShims.filter { $0.folder.hasPrefix(plugin.folder + "/") }.map { String($0.folder.dropFirst(plugin.folder.count + 1)) })
} + pluginShims.map { shim in
    .target(name: shim.target, path: "Plugins/" + shim.folder, linkerSettings: shim.linker)
}
let pluginDependencies: [Target.Dependency] = plugins.map { .target(name: $0.target) }

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15)],
    products: [
        // Portable (any platform Swift runs on, iOS and macOS included): the store, middleware,
        // effects and policies, with the stream layer it re-exports.
        .library(name: "Switchyard", targets: ["Switchyard"]),
        // Portable: Broadcast, CurrentValue, the operators and clocks on their own.
        .library(name: "SwitchyardStreams", targets: ["SwitchyardStreams"]),
        // Portable: TestStore, ManualClock, TestSource and recorders for testing stores and streams.
        .library(name: "SwitchyardTesting", targets: ["SwitchyardTesting"]),
        // Linux: the bus runtime (actions, configuration, plugin API, supervision, journal,
        // replay); re-exports Switchyard.
        .library(name: "SwitchyardBus", targets: ["SwitchyardBus"]),
        // Linux: the doors (control socket, HTTP API, dashboard, metrics), services a bus runs;
        // re-exports SwitchyardBus.
        .library(name: "SwitchyardDoors", targets: ["SwitchyardDoors"]),
        // Linux: TestBus, for testing plugins and configurations on a bus in memory.
        .library(name: "SwitchyardBusTesting", targets: ["SwitchyardBusTesting"]),
        // Every built-in plugin type and `PluginRegistry.builtIn`, for programs that build their own bus.
        .library(name: "SwitchyardPlugins", targets: ["SwitchyardPlugins"]),
        // What people type (`swift run switchyard` builds and runs the current code): the Swift
        // program, which blocks the stop signals in a C constructor once its libraries are loaded.
        .executable(name: "switchyard", targets: ["switchyard"]),
        // What the systemd unit runs: a static C launcher that blocks the stop signals before any
        // loader runs, then execs `switchyard` from its own directory.
        .executable(name: "switchyard-launcher", targets: ["SwitchyardLauncher"]),
    ],
    targets: [
        .target(name: "SwitchyardStreams"),
        .target(name: "Switchyard", dependencies: ["SwitchyardStreams"]),
        .target(name: "SwitchyardBus", dependencies: ["Switchyard", "SwitchyardIO", "CSwitchyardChecksum"]),
        .target(name: "SwitchyardDoors", dependencies: ["SwitchyardBus", "SwitchyardIO"]),
        // The processor's CRC-32C instruction for the journal's checksums, which Swift cannot reach.
        .target(name: "CSwitchyardChecksum"),
        // The one event loop (epoll, timers, sockets, pipes, children) under the control server
        // and the plugins; package-internal, no product.
        .target(name: "SwitchyardIO", dependencies: ["CSwitchyardIO"]),
        // epoll, eventfd and pidfd, which Swift's Glibc module does not import.
        .target(name: "CSwitchyardIO"),
        .target(name: "SwitchyardTesting", dependencies: ["Switchyard"]),
        .target(name: "SwitchyardBusTesting", dependencies: ["SwitchyardBus", "SwitchyardTesting"]),
        .target(name: "SwitchyardPlugins", dependencies: ["SwitchyardBus"] + pluginDependencies),
        // Package-internal test helpers (scaled deadlines, waiting for conditions, the control
        // socket's test client on SwitchyardIO's line client); no product.
        // CExecSpawn gives its process spawner the closefrom file action Glibc's module hides.
        .target(name: "SwitchyardTestSupport", dependencies: ["CExecSpawn", "SwitchyardIO"], path: "Tests/TestSupport"),
        // Blocks the stop signals in a constructor, before any Swift code of the executable runs
        // (under systemd the launcher has blocked them already, before the loader ran).
        .target(name: "CSwitchyardStartup"),
        // Static, so no dynamic loader runs before its first act: blocking the stop signals.
        .executableTarget(name: "SwitchyardLauncher", linkerSettings: [.unsafeFlags(["-static-executable"])]),
        .executableTarget(
            name: "switchyard",
            dependencies: ["CSwitchyardStartup", "SwitchyardBus", "SwitchyardDoors", "SwitchyardIO", "SwitchyardPlugins"]
        ),
        // One runnable example per source article (Examples/Sources), each tested in ExamplesTests.
        .target(name: "SwitchyardExamples", dependencies: ["Switchyard"], path: "Examples/Sources"),
        .executableTarget(name: "switchyard-examples", dependencies: ["SwitchyardExamples"], path: "Examples/Runner"),
        // Every runnable Swift snippet of the README and docs/, which quote them verbatim (ReadmeSnippetTests).
        .target(name: "SwitchyardSnippets", dependencies: ["SwitchyardBus", "SwitchyardDoors", "SwitchyardTesting", "SwitchyardBusTesting"], path: "Examples/Snippets"),
        .executableTarget(name: "switchyard-bench", dependencies: ["SwitchyardBus", "SwitchyardDoors", "SwitchyardIO", "SwitchyardStreams", "NATSPlugin"]),

        .testTarget(name: "SwitchyardStreamsTests", dependencies: ["SwitchyardTestSupport", "SwitchyardStreams", "SwitchyardTesting"]),
        .testTarget(name: "SwitchyardTests", dependencies: ["SwitchyardTestSupport", "Switchyard", "SwitchyardBus", "SwitchyardDoors", "SwitchyardIO"]),
        .testTarget(name: "SwitchyardDoorsTests", dependencies: ["SwitchyardTestSupport", "Switchyard", "SwitchyardBus", "SwitchyardDoors", "SwitchyardIO"]),
        .testTarget(name: "SwitchyardIOTests", dependencies: ["SwitchyardTestSupport", "SwitchyardIO"]),
        // Uses the library only through its products, as a program depending on the package would.
        .testTarget(name: "ExamplesTests", dependencies: ["SwitchyardTestSupport", "SwitchyardExamples", "SwitchyardSnippets", "SwitchyardBus", "SwitchyardTesting", "SwitchyardBusTesting"]),
        // The library through its products only; SwitchyardTestSupport holds test plumbing (deadlines), no library code.
        .testTarget(name: "SwitchyardLibraryTests", dependencies: ["SwitchyardTestSupport", "Switchyard", "SwitchyardBus", "SwitchyardDoors", "SwitchyardPlugins", "SwitchyardTesting", "SwitchyardBusTesting"]),
        .testTarget(name: "LoggerPluginTests", dependencies: ["LoggerPlugin", "SwitchyardBus", "SwitchyardBusTesting"]),
        .testTarget(name: "TimerPluginTests", dependencies: ["SwitchyardTestSupport", "TimerPlugin", "SwitchyardBus", "SwitchyardBusTesting"]),
        .testTarget(name: "GPSDPluginTests", dependencies: ["SwitchyardTestSupport", "SwitchyardIO", "GPSDPlugin", "LocationEmitterPlugin", "LoggerPlugin", "SwitchyardBusTesting"]),
        .testTarget(name: "LocationEmitterPluginTests", dependencies: ["SwitchyardTestSupport", "LocationEmitterPlugin", "LoggerPlugin", "SwitchyardBusTesting"]),
        .testTarget(
            name: "NetworkFetchPluginTests",
            dependencies: ["SwitchyardTestSupport", "NetworkFetchPlugin", "SwitchyardBusTesting"],
            exclude: ["Support/scripted_server.py"]
        ),
        .testTarget(name: "NATSPluginTests", dependencies: ["SwitchyardTestSupport", "NATSPlugin", "switchyard", "SwitchyardBusTesting"]),
        .testTarget(name: "ExecPluginTests", dependencies: ["SwitchyardTestSupport", "ExecPlugin", "SwitchyardBusTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["SwitchyardTestSupport", "SwitchyardIO", "switchyard"]),
        .testTarget(name: "FuzzTests", dependencies: ["SwitchyardTestSupport", "GPSDPlugin"]),
        // The command line's parser, help and completions, tested in-process (@testable import).
        .testTarget(name: "CommandLineTests", dependencies: ["SwitchyardTestSupport", "switchyard"]),
    ] + pluginTargets,
    swiftLanguageModes: [.v6]
)
