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
        .target(name: "SwitchyardTesting", dependencies: ["SwitchyardStreams"]),
        .executableTarget(name: "switchyard", dependencies: ["Switchyard"]),
        .executableTarget(
            name: "switchyard-bench",
            dependencies: ["Switchyard", "SwitchyardStreams"]
        ),
        .testTarget(
            name: "SwitchyardStreamsTests",
            dependencies: ["SwitchyardStreams", "SwitchyardTesting"]
        ),
        .testTarget(name: "SwitchyardTests", dependencies: ["Switchyard"]),
    ],
    swiftLanguageModes: [.v6]
)
