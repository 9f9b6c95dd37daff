import CSwitchyardIO

/// What a descriptor is ready for, or what a handler wants to hear about.
///
/// As interest, only ``readable`` and ``writable`` mean anything: the kernel always reports
/// ``hangUp`` and ``error``.
package struct IOEvents: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32

    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Bytes (or a connection, or the end of the stream) can be read.
    package static let readable = IOEvents(rawValue: UInt32(CSIO_IN))
    /// Bytes can be written without blocking.
    package static let writable = IOEvents(rawValue: UInt32(CSIO_OUT))
    /// The peer closed both directions (or a pipe's other end is gone).
    package static let hangUp = IOEvents(rawValue: UInt32(CSIO_HUP))
    /// The descriptor has a pending error.
    package static let error = IOEvents(rawValue: UInt32(CSIO_ERR))
}

/// How readiness is reported.
package enum Trigger: Sendable, Hashable {
    /// Reported on every wait while the condition holds: a handler may read part of what is
    /// there and hear again.
    case level
    /// Reported once per change: a handler must read or write until `EAGAIN`.
    case edge
}
