/// Where the next action to publish comes from: the journal, or — once reading it caught up
/// — the live stream of the plugin's actions, which saves reading back what was just written.
/// A state machine without I/O.
///
/// The bus journals an action before handing it to plugins, so the live stream holds every
/// action journaled after the journal was last read — unless it dropped some (its buffer
/// overflowed) or the bridge passed some over while it could not publish (disconnected, its
/// window full, the drain rate reached). Then publishing falls back to the journal, and goes
/// live again only when reading reached past every action the live stream passed over and
/// the stream dropped nothing meanwhile.
struct ForwardSource: Sendable {
    /// What to do with a live action.
    enum Decision: Sendable, Hashable {
        /// Publish it now.
        case publish
        /// It was read from the journal already.
        case skip
        /// Leave it: the journal has it and will hand it over.
        case leave
    }

    /// Whether the live stream is the source.
    private(set) var isLive = false
    /// The highest live id left for the journal to hand over.
    private var left: UInt64 = 0
    /// The live stream's dropped count when it became the source.
    private var dropsWhenLive = 0

    /// A source reading the journal first.
    init() {}

    /// Decides about the live action `id`; `examined` is the last id read, `drops` the live
    /// stream's dropped count, `canPublish` whether the bridge can publish now.
    mutating func live(_ id: UInt64, examined: UInt64, drops: Int, canPublish: Bool) -> Decision {
        if id <= examined { return .skip }
        if isLive, drops == dropsWhenLive, canPublish { return .publish }
        isLive = false
        left = max(left, id)
        return .leave
    }

    /// Reading the journal reached its end at `examined`; `drops` is the live stream's
    /// dropped count read before that read began, `dropsNow` the count now. Returns whether
    /// the live stream is the source from now on.
    mutating func reachedEnd(examined: UInt64, drops: Int, dropsNow: Int) -> Bool {
        guard !isLive else { return true }
        guard left <= examined, drops == dropsNow else { return false }
        isLive = true
        dropsWhenLive = dropsNow
        return true
    }

    /// Publishing goes back to the journal (the bridge could not publish a live action).
    mutating func fallBack() {
        isLive = false
    }
}
