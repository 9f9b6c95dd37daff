/// Whether a location can be had: the analogue of location authorization on a phone.
enum Availability: String, Sendable, Hashable, CaseIterable {
    /// The source cannot deliver: gpsd is not connected or has no receiver, or a replay ended.
    case unavailable
    /// The source works but has no usable fix yet (or lost it, or went silent).
    case searching
    /// The source delivers fixes of at least the minimum mode.
    case available
}
