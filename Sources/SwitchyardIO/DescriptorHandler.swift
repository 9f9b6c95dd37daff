/// Loop-side code that owns a registered descriptor and hears when it is ready.
///
/// Lives on the loop's thread: ``ready(_:)`` is called there and nowhere else.
package protocol DescriptorHandler: AnyObject {
    /// The descriptor is ready for `events` (which may include ``IOEvents/hangUp`` and
    /// ``IOEvents/error`` without interest in them).
    func ready(_ events: IOEvents)
}

/// A descriptor's place in a loop, for changing its interest or removing it.
package struct Registration: Sendable, Hashable {
    /// Never reused within a loop, so an event for a removed descriptor whose number was
    /// reused cannot reach the new owner.
    let token: UInt64
    /// The registered descriptor.
    package let descriptor: Int32
}
