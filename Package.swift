// swift-tools-version: 6.0
import PackageDescription

/// The built-in plugins: one target each under Plugins/, all depending on Switchyard only.
let pluginTargets: [Target] = [
    .target(name: "LoggerPlugin", dependencies: ["Switchyard", "SwitchyardIO"], path: "Plugins/Logger"),
    .target(name: "TimerPlugin", dependencies: ["Switchyard"], path: "Plugins/Timer"),
    .target(name: "GPSDPlugin", dependencies: ["Switchyard", "SwitchyardIO"], path: "Plugins/GPSD"),
    .target(name: "LocationEmitterPlugin", dependencies: ["Switchyard", "SwitchyardIO"], path: "Plugins/LocationEmitter"),
    .target(name: "NetworkFetchPlugin", dependencies: ["Switchyard", "SwitchyardIO", "CSwitchyardCurl"], path: "Plugins/NetworkFetch", exclude: ["CCurl"]),
    // libcurl through dlopen, so only a bus that fetches maps it (and its TLS libraries).
    .target(name: "CSwitchyardCurl", path: "Plugins/NetworkFetch/CCurl", linkerSettings: [.linkedLibrary("dl")]),
    .target(name: "NATSPlugin", dependencies: ["Switchyard", "SwitchyardIO"], path: "Plugins/NATS"),
    .target(name: "ExecPlugin", dependencies: ["Switchyard", "SwitchyardIO", "CExecSpawn"], path: "Plugins/Exec", exclude: ["CSpawn"]),
    // Glibc's Swift module hides pipe2 and the posix_spawn file-action extensions exec needs.
    .target(name: "CExecSpawn", path: "Plugins/Exec/CSpawn"),
]

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .library(name: "SwitchyardStreams", targets: ["SwitchyardStreams"]),
        // Every built-in plugin type and `PluginRegistry.builtIn`, for programs that build their own bus.
        .library(name: "SwitchyardPlugins", targets: ["SwitchyardPlugins"]),
        // TestStore, TestBus, ManualClock and recorders for testing stores, plugins and streams.
        .library(name: "SwitchyardTesting", targets: ["SwitchyardTesting"]),
        // What people and systemd run: a static C launcher that blocks the stop signals, then
        // execs `switchyard-bus` (the Swift program, target `switchyard`) from its own directory.
        .executable(name: "switchyard", targets: ["SwitchyardLauncher"]),
        .executable(name: "switchyard-bus", targets: ["switchyard"]),
    ],
    targets: [
        .target(name: "SwitchyardStreams"),
        .target(name: "Switchyard", dependencies: ["SwitchyardStreams", "SwitchyardIO", "CSwitchyardChecksum"]),
        // The processor's CRC-32C instruction for the journal's checksums, which Swift cannot reach.
        .target(name: "CSwitchyardChecksum"),
        // The one event loop (epoll, timers, sockets, pipes, children) under the control server
        // and the plugins; package-internal, no product.
        .target(name: "SwitchyardIO", dependencies: ["CSwitchyardIO"]),
        // epoll, eventfd and pidfd, which Swift's Glibc module does not import.
        .target(name: "CSwitchyardIO"),
        .target(name: "SwitchyardTesting", dependencies: ["SwitchyardStreams", "Switchyard"]),
        .target(
            name: "SwitchyardPlugins",
            dependencies: [
                "Switchyard", "LoggerPlugin", "TimerPlugin", "GPSDPlugin", "LocationEmitterPlugin",
                "NetworkFetchPlugin", "NATSPlugin", "ExecPlugin",
            ]
        ),
        // Package-internal test helpers (scaled deadlines, waiting for conditions); no product.
        // CExecSpawn gives its process spawner the closefrom file action Glibc's module hides.
        .target(name: "SwitchyardTestSupport", dependencies: ["CExecSpawn"], path: "Tests/TestSupport"),
        // Blocks the stop signals in a constructor, before any Swift code of the executable runs
        // (the launcher has blocked them already; this keeps `switchyard-bus` run directly safe).
        .target(name: "CSwitchyardStartup"),
        // Static, so no dynamic loader runs before its first act: blocking the stop signals.
        .executableTarget(name: "SwitchyardLauncher", linkerSettings: [.unsafeFlags(["-static-executable"])]),
        .executableTarget(
            name: "switchyard",
            dependencies: [
                "CSwitchyardStartup", "Switchyard", "SwitchyardIO", "SwitchyardPlugins", "LoggerPlugin", "TimerPlugin", "GPSDPlugin",
                "LocationEmitterPlugin", "NetworkFetchPlugin", "NATSPlugin", "ExecPlugin",
            ]
        ),
        // One runnable example per source article (Examples/Sources), each tested in ExamplesTests.
        .target(name: "SwitchyardExamples", dependencies: ["Switchyard"], path: "Examples/Sources"),
        .executableTarget(name: "switchyard-examples", dependencies: ["SwitchyardExamples"], path: "Examples/Runner"),
        // Every runnable Swift snippet of the README, which quotes them verbatim (ReadmeSnippetTests).
        .target(name: "SwitchyardSnippets", dependencies: ["Switchyard", "SwitchyardTesting"], path: "Examples/Snippets"),
        .executableTarget(name: "switchyard-bench", dependencies: ["Switchyard", "SwitchyardIO", "SwitchyardStreams", "NATSPlugin"]),

        .testTarget(name: "SwitchyardStreamsTests", dependencies: ["SwitchyardTestSupport", "SwitchyardStreams", "SwitchyardTesting"]),
        .testTarget(name: "SwitchyardTests", dependencies: ["SwitchyardTestSupport", "Switchyard", "SwitchyardIO"]),
        .testTarget(name: "SwitchyardIOTests", dependencies: ["SwitchyardTestSupport", "SwitchyardIO"]),
        // Uses the library only through its products, as a program depending on the package would.
        .testTarget(name: "ExamplesTests", dependencies: ["SwitchyardTestSupport", "SwitchyardExamples", "SwitchyardSnippets", "Switchyard", "SwitchyardTesting"]),
        // The library through its products only; SwitchyardTestSupport holds test plumbing (deadlines), no library code.
        .testTarget(name: "SwitchyardLibraryTests", dependencies: ["SwitchyardTestSupport", "Switchyard", "SwitchyardPlugins", "SwitchyardTesting"]),
        .testTarget(name: "LoggerPluginTests", dependencies: ["LoggerPlugin", "Switchyard", "SwitchyardTesting"]),
        .testTarget(name: "TimerPluginTests", dependencies: ["SwitchyardTestSupport", "TimerPlugin", "Switchyard", "SwitchyardTesting"]),
        .testTarget(name: "GPSDPluginTests", dependencies: ["SwitchyardTestSupport", "SwitchyardIO", "GPSDPlugin", "LocationEmitterPlugin", "LoggerPlugin", "SwitchyardTesting"]),
        .testTarget(name: "LocationEmitterPluginTests", dependencies: ["SwitchyardTestSupport", "LocationEmitterPlugin", "LoggerPlugin", "SwitchyardTesting"]),
        .testTarget(
            name: "NetworkFetchPluginTests",
            dependencies: ["SwitchyardTestSupport", "NetworkFetchPlugin", "SwitchyardTesting"],
            exclude: ["Support/scripted_server.py"]
        ),
        .testTarget(name: "NATSPluginTests", dependencies: ["SwitchyardTestSupport", "NATSPlugin", "switchyard", "SwitchyardTesting"]),
        .testTarget(name: "ExecPluginTests", dependencies: ["SwitchyardTestSupport", "ExecPlugin", "SwitchyardTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["SwitchyardTestSupport", "switchyard"]),
        .testTarget(name: "FuzzTests", dependencies: ["SwitchyardTestSupport", "GPSDPlugin"]),
        // The command line's parser, help and completions, tested in-process (@testable import).
        .testTarget(name: "CommandLineTests", dependencies: ["SwitchyardTestSupport", "switchyard"]),
    ] + pluginTargets,
    swiftLanguageModes: [.v6]
)
