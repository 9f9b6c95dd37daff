/// The pure state of `throttle`: the current window and the element held for its end.
///
/// An element that arrives outside a window is emitted at once and opens a window of
/// `interval`. Elements inside a window are held (the latest, or the first, of them) and
/// emitted when the window ends, which opens the next window. A window that ends with
/// nothing held closes quietly.
@usableFromInline struct ThrottleStateMachine<Element: Sendable, Instant: InstantProtocol>: Sendable {
    @usableFromInline let interval: Instant.Duration
    /// Hold the latest element of a window (`true`) or the first (`false`).
    @usableFromInline let latest: Bool
    @usableFromInline var windowEnd: Instant?
    @usableFromInline var held: Element?

    @inlinable init(interval: Instant.Duration, latest: Bool) {
        self.interval = interval
        self.latest = latest
    }

    /// When the timer has to wake: the end of a window that holds an element.
    @inlinable var deadline: Instant? { held == nil ? nil : windowEnd }

    @inlinable mutating func received(_ element: Element, at now: Instant, emit: (Element) -> Void) {
        closeWindowIfOver(at: now, emit: emit)
        if windowEnd == nil {
            emit(element)
            windowEnd = now.advanced(by: interval)
        } else if latest || held == nil {
            held = element
        }
    }

    @inlinable mutating func deadlineReached(at now: Instant, emit: (Element) -> Void) {
        closeWindowIfOver(at: now, emit: emit)
    }

    /// The held element to deliver before finishing: nothing is lost on finish.
    @inlinable mutating func upstreamFinished() -> Element? {
        windowEnd = nil
        defer { held = nil }
        return held
    }

    /// Ends the window that is over at `now`: its held element is emitted and opens the next
    /// window; with nothing held the throttle goes idle.
    @inlinable mutating func closeWindowIfOver(at now: Instant, emit: (Element) -> Void) {
        guard let end = windowEnd, now >= end else { return }
        if let element = held {
            held = nil
            emit(element)
            windowEnd = now.advanced(by: interval)
        } else {
            windowEnd = nil
        }
    }
}

extension ThrottleStateMachine: HoldingMachine {
    @inlinable static var readingWaitsForRoom: Bool { true }

    /// The held element, delivered before the failure as at a finish: an element the
    /// throttle took is not lost because a later one failed.
    @inlinable mutating func upstreamFailed() -> Element? {
        upstreamFinished()
    }
}
