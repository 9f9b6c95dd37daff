/// A sample read from a recording, with the time it was recorded at.
struct RecordedSample: Sendable, Hashable {
    /// When the sample was recorded, as far as the recording says.
    enum Time: Sendable, Hashable {
        /// Seconds since 1970 (UTC): the recording gave a date.
        case absolute(Double)
        /// Seconds since midnight (UTC): NMEA GGA without any RMC date.
        case timeOfDay(Double)
    }

    /// The position.
    var sample: PositionSample
    /// The recording time; `nil` when the recording had none.
    var time: Time?
}
