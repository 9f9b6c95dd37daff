import Foundation
import Testing

/// The doors' folders depend one way: `Serving/` (what every door shares) names nothing of
/// `Control/` or `HTTP/`, and those two name nothing of each other.
struct DoorLayeringTests {
    private static let doors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SwitchyardDoors")

    /// The Swift sources of one folder (and its subfolders), by file name.
    private static func sources(_ folder: String) throws -> [String: String] {
        let root = doors.appendingPathComponent(folder)
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        return try Dictionary(uniqueKeysWithValues: files.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) })
    }

    /// The types a folder declares at the top level.
    private static func declaredTypes(_ folder: String) throws -> Set<String> {
        let declaration = /(?m)^(?:public |package )?(?:final )?(?:struct|class|enum|actor|protocol) ([A-Z][A-Za-z0-9]*)/
        return Set(try sources(folder).values.flatMap { $0.matches(of: declaration).map { String($0.output.1) } })
    }

    /// `file: Type` for every use in `folder` of a type `other` declares, outside comments.
    private static func uses(in folder: String, of other: String) throws -> [String] {
        let foreign = try declaredTypes(other)
        var found: [String] = []
        for (file, text) in try sources(folder) {
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for match in code.matches(of: /\b[A-Z][A-Za-z0-9]*\b/) where foreign.contains(String(match.output)) {
                found.append("\(file): \(match.output)")
            }
        }
        return Set(found).sorted()
    }

    @Test func servingNamesNoDoor() throws {
        #expect(try Self.declaredTypes("Control").contains("ControlServer"))
        #expect(try Self.uses(in: "Serving", of: "Control") == [])
        #expect(try Self.uses(in: "Serving", of: "HTTP") == [])
    }

    @Test func controlAndHTTPNameNothingOfEachOther() throws {
        #expect(try Self.declaredTypes("HTTP").contains("HTTPServer"))
        #expect(try Self.uses(in: "Control", of: "HTTP") == [])
        #expect(try Self.uses(in: "HTTP", of: "Control") == [])
    }
}
