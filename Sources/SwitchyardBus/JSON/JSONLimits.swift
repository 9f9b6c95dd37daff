/// The limits on JSON that comes into the bus, and the larger ones its own files are read with.
///
/// Every door where outside JSON comes in (the control socket, HTTP responses, NATS messages,
/// exec children, gpsd, configuration files) accepts at most ``maximumDepth`` levels of nested
/// arrays and objects and at most ``maximumBytes`` bytes per value, and rejects anything beyond
/// at the door. The bus then wraps what it accepted in envelopes of its own (an action around a
/// payload, a state slice around a fetched value, a snapshot around the state), so the journal
/// and snapshot writers and readers use ``journalDepth``, which leaves ``envelopeDepth`` levels of
/// room: whatever a door accepted can always be read back after a restart.
public enum JSONLimits {
    /// The deepest nesting of arrays and objects accepted from outside the bus: 512 levels.
    /// ``JSON/init(parsing:maximumDepth:)-(String,_)`` uses it by default.
    public static let maximumDepth = 512

    /// The largest JSON value, in bytes of text, accepted from outside the bus: 16 MiB. A door
    /// may set a smaller limit of its own (the control socket's line length, network-fetch's
    /// `maxResponseBytes`) but never a larger one.
    public static let maximumBytes = 16 << 20

    /// The nesting levels the bus may add around an accepted value: a journal line's action
    /// object, a snapshot's document, state and slice objects, and the fields a plugin wraps a
    /// value in (a loadable's `value`, a bridged message's `data`). 64 levels.
    public static let envelopeDepth = 64

    /// The deepest nesting the journal and snapshot writers write and their readers accept:
    /// ``maximumDepth`` plus ``envelopeDepth``. A value deeper than this is never written.
    public static let journalDepth = maximumDepth + envelopeDepth
}
