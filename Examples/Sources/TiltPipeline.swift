import Switchyard

/// Article 4 — a CoreMotion-like tilt pipeline: accelerometer samples are smoothed with a
/// low-pass filter (`scan`), turned into a tilt angle in whole degrees (`map`), and only
/// changes are passed on (`removeDuplicates`) — what a level or a tilt-to-scroll view needs.
public enum TiltPipeline {
    /// One accelerometer sample, in g.
    public struct Sample: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var z: Double

        public init(x: Double, y: Double, z: Double) {
            self.x = x
            self.y = y
            self.z = z
        }
    }

    /// The tilt, in whole degrees around the device's x axis, of each smoothed sample that
    /// changed it. `smoothing` is the weight of the new sample (0 < smoothing <= 1).
    public static func tilt<Samples: AsyncSequence & Sendable>(
        _ samples: Samples, smoothing: Double = 0.5
    ) -> some AsyncSequence<Int, Samples.Failure> & Sendable where Samples.Element == Sample {
        samples
            .scan(Sample(x: 0, y: 0, z: 1)) { smoothed, sample in
                Sample(x: smoothed.x + smoothing * (sample.x - smoothed.x),
                       y: smoothed.y + smoothing * (sample.y - smoothed.y),
                       z: smoothed.z + smoothing * (sample.z - smoothed.z))
            }
            .map { sample in Int((atan2(sample.y, sample.z) * 180 / .pi).rounded()) }
            .removeDuplicates()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
