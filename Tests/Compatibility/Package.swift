// swift-tools-version: 6.0
// A program that imports both SwitchyardStreams and swift-async-algorithms must compile
// without "ambiguous use of ..." (issue 12, point 10), and a file that imports only
// SwitchyardStreams must be able to get our operators (issue 34, point 6). Built by `.ci/run`, which passes the
// path of a local swift-async-algorithms checkout in SWITCHYARD_ASYNC_ALGORITHMS; the root
// package itself gains no dependency.
import PackageDescription

let asyncAlgorithms = Context.environment["SWITCHYARD_ASYNC_ALGORITHMS"] ?? "../../../swift-async-algorithms"

let package = Package(
    name: "SwitchyardCompatibility",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Switchyard", path: "../.."),
        .package(path: asyncAlgorithms),
    ],
    targets: [
        .executableTarget(
            name: "BothImported",
            dependencies: [
                .product(name: "SwitchyardStreams", package: "Switchyard"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // With MemberImportVisibility a file sees only the members of the modules it imports,
        // so a file importing only SwitchyardStreams gets ours although the target links
        // AsyncAlgorithms too (issue 34, point 6).
        .executableTarget(
            name: "MemberImportVisible",
            dependencies: [
                .product(name: "SwitchyardStreams", package: "Switchyard"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
