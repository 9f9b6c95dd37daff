/// The bounds that keep a child connection's memory and the bus's responsiveness independent
/// of what the child does.
struct ChildLimits: Sendable, Hashable {
    /// Lines queued for the child's stdin before the overflow policy applies. Default: 256.
    var inputCapacity = 256
    /// Which line a full input queue drops. Default: ``InputOverflowPolicy/dropOldest``.
    var inputOverflow = InputOverflowPolicy.dropOldest
    /// The longest stdout line accepted, in bytes; longer ones are reported, not kept.
    /// Default: 1 MiB.
    var maximumLineLength = 1 << 20
    /// The longest stderr line passed to the log, in bytes; the rest is cut. Default: 16 KiB.
    var maximumDiagnosticLength = 16 << 10
    /// Events buffered from the child before reading its output pauses (the child then
    /// blocks on its own writes). Default: 64; buffered bytes are also held under
    /// ``maximumLineLength``.
    var eventCapacity = 64
    /// The most bytes joined into one write to the child's stdin. Default: 64 KiB.
    var writeBatchBytes = 64 << 10
}
