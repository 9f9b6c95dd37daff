import Synchronization

/// Sources that `withLatestFrom` can link by send order (see ``_SendOrderLink``): a
/// ``Broadcast``, a ``CurrentValue`` and their subscriptions.
@usableFromInline protocol _SendOrderable: Sendable {
    /// The type of the linked elements.
    associatedtype _OrderedElement: Sendable
    /// A registration this caller alone consumes, made now (for a subscription: itself,
    /// unless an iterator consumes it already; then one of its own with the same settings).
    func _claimedSubscription() -> Broadcast<_OrderedElement>.Subscription
}

extension Broadcast: _SendOrderable {
    @usableFromInline func _claimedSubscription() -> Subscription {
        let subscription = subscribe()
        subscription.status.claimed.store(true, ordering: .relaxed)
        return subscription
    }
}

extension CurrentValue: _SendOrderable {
    /// The current value is buffered first, so it is there for the first primary element.
    @usableFromInline func _claimedSubscription() -> Broadcast<Element>.Subscription {
        let subscription = subscribe()
        subscription.status.claimed.store(true, ordering: .relaxed)
        return subscription
    }
}

extension Broadcast.Subscription: _SendOrderable {
    @usableFromInline func _claimedSubscription() -> Broadcast<Element>.Subscription {
        if status.claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            return self
        }
        let own = storage.subscribe(bufferSize: settings.bufferSize, overflow: settings.overflow,
                                    replayingCurrent: settings.replaysCurrent)
        own.status.claimed.store(true, ordering: .relaxed)
        return own
    }
}

/// One side of a send-order pair: a claimed registration linked while this object lives.
///
/// Sendable so the operator can make it when its iterator is made (subscribing then) and read
/// it on its own task; the reading state (``Cursor``) lives on that task.
@usableFromInline
final class _LinkedSubscription<Element: Sendable>: Sendable {
    /// What one reader has taken and not yet used.
    @usableFromInline
    struct Cursor {
        @usableFromInline var batch = _FIFOBuffer<Element>()
        @usableFromInline var stamps = _FIFOBuffer<UInt64>()
        @usableFromInline var hint = 0

        @inlinable init() {}
    }

    @usableFromInline let subscription: Broadcast<Element>.Subscription

    @usableFromInline
    init(_ subscription: Broadcast<Element>.Subscription, link: _SendOrderLink, role: _SlotOrder.Role) {
        self.subscription = subscription
        let id = subscription.id
        _ = subscription.storage.state.withLock { $0.link(id, _SlotOrder(link: link, role: role)) }
    }

    deinit {
        let id = subscription.id
        subscription.storage.state.withLock { $0.unlink(id) }
        subscription.status.claimed.store(false, ordering: .releasing)
    }

    /// The buffer size of the underlying registration (for the link's history limit).
    @usableFromInline var bufferSize: Int { subscription.settings.bufferSize }

    /// The next element with its stamp, waiting for one; nil once the registration ended or
    /// the calling task was cancelled (which ends it).
    @inlinable
    func next(_ cursor: inout Cursor) async -> (stamp: UInt64, element: Element)? {
        while true {
            if let element = cursor.batch.popFirst(), let stamp = cursor.stamps.popFirst() {
                return (stamp, element)
            }
            if subscription.status.isCancelled || Task.isCancelled {
                subscription.cancel()
                return nil
            }
            switch take(&cursor) {
            case .taken: continue
            case .ended: return nil
            case .empty: await subscription.storage.waitForElements(subscription.id, hint: cursor.hint, isolation: nil)
            }
        }
    }

    /// Moves everything buffered into `history` without waiting, oldest first.
    @inlinable
    func poll(into history: inout _FIFOBuffer<(stamp: UInt64, element: Element)>) {
        var cursor = Cursor()
        guard case .taken = take(&cursor) else { return }
        while let element = cursor.batch.popFirst(), let stamp = cursor.stamps.popFirst() {
            history.append((stamp, element))
        }
    }

    @inlinable
    func take(_ cursor: inout Cursor) -> _BroadcastState<Element>.TakeOutcome {
        cursor.batch.removeAll()
        cursor.stamps.removeAll()
        let id = subscription.id
        return subscription.storage.withLockThenResume { state, wakeups in
            state.takeOrdered(id, hint: &cursor.hint, into: &cursor.batch, stamps: &cursor.stamps, wakeups: &wakeups)
        }
    }
}
