import Foundation
import SwitchyardExamples

// Runs one example by name and prints what it produced: `swift run switchyard-examples tilt`.
let name = CommandLine.arguments.dropFirst().first ?? ""
switch name {
case "location":
    let path = (0..<5).map { LocationStoreExample.Location(latitude: 48.0 + Double($0) * 0.004, longitude: 11.0) }
    print(await LocationStoreExample.run(positions: path))
case "tilt":
    let samples = [TiltPipeline.Sample(x: 0, y: 0, z: 1), .init(x: 0, y: 0.5, z: 0.87), .init(x: 0, y: 0.7, z: 0.7)]
    let stream = AsyncStream { continuation in
        for sample in samples { continuation.yield(sample) }
        continuation.finish()
    }
    for await angle in TiltPipeline.tilt(stream) { print("tilt \(angle)°") }
default:
    FileHandle.standardError.write(Data("usage: switchyard-examples location|tilt (the others run in ExamplesTests)\n".utf8))
    exit(2)
}
