// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .library(name: "SwitchyardStreams", targets: ["SwitchyardStreams"]),
        .executable(name: "switchyard", targets: ["switchyard"]),
    ],
    targets: [
        .target(name: "SwitchyardStreams"),
        .target(name: "Switchyard", dependencies: ["SwitchyardStreams"]),
        .target(name: "LoggerPlugin", dependencies: ["Switchyard"], path: "Plugins/Logger"),
        .target(name: "TimerPlugin", dependencies: ["Switchyard"], path: "Plugins/Timer"),
        .target(name: "CExecSpawn", path: "Plugins/Exec/CSpawn"),
        .target(name: "ExecPlugin", dependencies: ["Switchyard", "CExecSpawn"], path: "Plugins/Exec", exclude: ["CSpawn"]),
        .executableTarget(name: "switchyard", dependencies: ["Switchyard", "LoggerPlugin", "TimerPlugin", "ExecPlugin", "NetworkFetchPlugin", "GPSDPlugin", "LocationEmitterPlugin"]),
        .executableTarget(
            name: "switchyard-bench",
            dependencies: ["Switchyard", "SwitchyardStreams"]
        ),
        .target(name: "GPSDPlugin", dependencies: ["Switchyard"], path: "Plugins/GPSD"),
        .target(name: "LocationEmitterPlugin", dependencies: ["Switchyard"], path: "Plugins/LocationEmitter"),
        .testTarget(name: "SwitchyardStreamsTests", dependencies: ["SwitchyardStreams"]),
        .testTarget(name: "SwitchyardTests", dependencies: ["Switchyard"]),
        .testTarget(name: "LoggerPluginTests", dependencies: ["LoggerPlugin", "Switchyard"]),
        .testTarget(name: "TimerPluginTests", dependencies: ["TimerPlugin", "Switchyard"]),
        .testTarget(name: "ExecPluginTests", dependencies: ["ExecPlugin"]),
        .testTarget(name: "EndToEndTests", dependencies: ["switchyard"]),
        .target(name: "NetworkFetchPlugin", dependencies: ["Switchyard"], path: "Plugins/NetworkFetch"),
        .testTarget(
            name: "NetworkFetchPluginTests", dependencies: ["NetworkFetchPlugin"], path: "Tests/NetworkFetchPluginTests",
            exclude: ["Support/scripted_server.py"]
        ),
        .testTarget(
            name: "GPSDPluginTests", dependencies: ["GPSDPlugin", "LocationEmitterPlugin", "LoggerPlugin"],
            path: "Tests/GPSDPluginTests"),
        .testTarget(
            name: "LocationEmitterPluginTests", dependencies: ["LocationEmitterPlugin", "LoggerPlugin"],
            path: "Tests/LocationEmitterPluginTests"),
        .testTarget(name: "FuzzTests", dependencies: ["GPSDPlugin"], path: "Tests/FuzzTests"),
    ],
    swiftLanguageModes: [.v6]
)
