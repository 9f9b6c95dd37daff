/// Why a door could not listen or serve (a socket call failed, the address is in use, the
/// event loop did not start), as text for the bus's ``BusError``.
struct ListenFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, in words.
    var description: String
}
