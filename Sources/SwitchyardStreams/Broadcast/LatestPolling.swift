/// Sources whose latest element can be read without suspending: a ``Broadcast``, a
/// ``CurrentValue`` and their subscriptions. `withLatestFrom` polls them on the primary's
/// task when a primary element arrives, so "latest" follows send order: whatever was sent to
/// the source before the primary element is seen, and a `CurrentValue`'s value is there from
/// the start.
@usableFromInline protocol _LatestPollable: Sendable {
    /// The type of the polled elements.
    associatedtype _PolledElement: Sendable
    /// Subscribes now and returns a function that takes everything buffered since the last
    /// call and returns the newest of it (`nil` when nothing arrived).
    func _makeLatestPoller() -> @Sendable () -> _PolledElement?
}

extension Broadcast: _LatestPollable {
    /// Subscribes keeping only the newest element, which is all a poll needs.
    @usableFromInline func _makeLatestPoller() -> @Sendable () -> Element? {
        let subscription = subscribe(bufferSize: 1, overflow: .latest)
        return { subscription.pollLatest() }
    }
}

extension CurrentValue: _LatestPollable {
    /// Subscribes keeping only the newest value; the current value is the first poll's answer.
    @usableFromInline func _makeLatestPoller() -> @Sendable () -> Element? {
        let subscription = subscribe()
        return { subscription.pollLatest() }
    }
}

extension Broadcast.Subscription: _LatestPollable {
    /// Polls this subscription itself (it is registered already).
    @usableFromInline func _makeLatestPoller() -> @Sendable () -> Element? {
        { self.pollLatest() }
    }
}

extension Broadcast.Subscription {
    /// Takes every buffered element without suspending and returns the newest, admitting the
    /// elements of producers waiting for room.
    @usableFromInline func pollLatest() -> Element? {
        var batch = _FIFOBuffer<Element>()
        var hint = 0
        guard case .taken = storage.take(id, hint: &hint, into: &batch) else { return nil }
        var latest: Element?
        while let element = batch.popFirst() { latest = element }
        return latest
    }
}
