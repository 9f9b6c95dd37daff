extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Pairs each element of this sequence with the latest element of `other`.
    ///
    /// - **Emits** `(element, latestOfOther)` for each element of this sequence once `other`
    ///   has produced an element; elements of this sequence that arrive before that are
    ///   dropped. Elements of `other` alone emit nothing.
    /// - **Latest** follows send order when both sequences are a `Broadcast`, a `CurrentValue`
    ///   or a subscription of one: an element is paired with the last element sent to `other`
    ///   before it, whichever task reads them and however late — after
    ///   `other.send(y); base.send(3)` from one task, 3 is paired with `y`; after
    ///   `base.send(3); other.send(y)`, with the value before `y`. A `CurrentValue`'s value is
    ///   there for the very first element. `other` then keeps one element per element of this
    ///   sequence not yet paired, at most this subscription's buffer size plus 64 (past that,
    ///   its oldest are dropped and counted). When only `other` is one of those, it is read
    ///   when each element of this sequence is handled, so what was sent to it before that is
    ///   seen. For any other sequence `other` is read by its own task and "latest" means the
    ///   latest that task had received when the element arrived.
    /// - **Finishes** when this sequence finishes (`other` is then cancelled); `other`
    ///   finishing only freezes the value it pairs.
    /// - **Fails** with the first failure of either sequence; the other one is cancelled.
    /// - **Buffers** the latest element of `other`, and up to 64 pairs the consumer has not
    ///   taken.
    ///
    /// Making the iterator subscribes to both sequences; each is then read, from the first
    /// `next` on, by one task the operator owns and cancels when the consumer's task is
    /// cancelled or its iterator is released.
    ///
    /// ```swift
    /// for await (_, form) in submitTaps.withLatestFrom(formStates) { submit(form) }
    /// ```
    @inlinable public func withLatestFrom<Other: AsyncSequence & Sendable>(
        _ other: Other
    ) -> AsyncWithLatestFromSequence<Self, Other> where Other.Element: Sendable, Other.Failure == Failure {
        AsyncWithLatestFromSequence(base: self, other: other)
    }
}

/// The elements of a base sequence paired with the latest element of another. Made by
/// `withLatestFrom(_:)`.
public struct AsyncWithLatestFromSequence<Base: AsyncSequence & Sendable, Other: AsyncSequence & Sendable>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable, Other.Element: Sendable, Other.Failure == Base.Failure {
    /// Takes the pairs; `nil` once the base finished or the task was cancelled, and throws
    /// the first failure of either sequence.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// An element of the base with the latest element of the other sequence.
    public typealias Element = (Base.Element, Other.Element)
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = WithLatestFromStateMachine<Other.Element>
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let other: Other

    @inlinable init(base: Base, other: Other) {
        self.base = base
        self.other = other
    }

    /// Makes an iterator, subscribing to both sequences at once (by making their iterators);
    /// they are read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let driver = Driver(machine: Machine())
        if let (primary, latest) = Self.linkedPair(base: base, other: other) {
            driver.spawnAfterStart { await Self.consumeLinked(primary, pairingWith: latest, into: driver) }
            return Iterator(driver)
        }
        if let poll = Self.poller(for: other) {
            driver.read(base) { iterator in await Self.consumeBase(&iterator, polling: poll, into: driver) }
            return Iterator(driver)
        }
        driver.read(other) { iterator in await Self.consumeOther(&iterator, into: driver) }
        driver.read(base) { iterator in await Self.consumeBase(&iterator, into: driver) }
        return Iterator(driver)
    }

    /// Subscribes to both now and links them by send order when both are broadcasts,
    /// current values or subscriptions of them (see `_SendOrderLink`).
    @inlinable static func linkedPair(
        base: Base,
        other: Other
    ) -> (_LinkedSubscription<Base.Element>, _LinkedSubscription<Other.Element>)? {
        guard let base = base as? any _SendOrderable, let other = other as? any _SendOrderable else { return nil }
        guard let primary = claimed(base, as: Base.Element.self),
              let latest = claimed(other, as: Other.Element.self) else { return nil }
        // The other keeps one element per primary element not yet paired; the margin covers
        // producers waiting in `deliver` for the primary's room.
        let link = _SendOrderLink(historyLimit: primary.settings.bufferSize + 64)
        let latestSide = _LinkedSubscription(latest, link: link, role: .latest)
        return (_LinkedSubscription(primary, link: link, role: .primary), latestSide)
    }

    @inlinable static func claimed<Source: _SendOrderable, Element>(
        _ source: Source,
        as _: Element.Type
    ) -> Broadcast<Element>.Subscription? {
        // `Source` is `Base` or `Other`, so the element types match and the cast holds.
        source._claimedSubscription() as? Broadcast<Element>.Subscription
    }

    /// Reads the primary on the operator's task and, for each of its elements, takes what the
    /// other buffered: the newest element stamped before it is the one paired.
    @inlinable static func consumeLinked(
        _ primary: _LinkedSubscription<Base.Element>,
        pairingWith latest: _LinkedSubscription<Other.Element>,
        into driver: Driver
    ) async {
        var cursor = _LinkedSubscription<Base.Element>.Cursor()
        var history = _FIFOBuffer<(stamp: UInt64, element: Other.Element)>()
        while let (stamp, element) = await primary.next(&cursor) {
            latest.poll(into: &history)
            var before: Other.Element?
            while let first = history.first, first.stamp < stamp {
                before = first.element
                history.removeFirst()
            }
            let newest = before
            let goesOn = await driver.updateThenWaitForRoom { machine, output in
                if let newest { machine.otherReceived(newest) }
                if let paired = machine.latest { output.emit((element, paired)) }
            }
            guard goesOn else { return }
        }
        driver.update { _, output in output.finish() }
    }

    /// Subscribes to `other` now when it can be polled (see `_LatestPollable`).
    @inlinable static func poller(for other: Other) -> (@Sendable () -> Other.Element?)? {
        guard let pollable = other as? any _LatestPollable else { return nil }
        return typedPoller(pollable)
    }

    @inlinable static func typedPoller<Source: _LatestPollable>(_ source: Source) -> (@Sendable () -> Other.Element?)? {
        // `Source` is `Other`, so the element types match and the cast holds.
        source._makeLatestPoller() as? @Sendable () -> Other.Element?
    }

    @inlinable static func consumeBase(
        _ iterator: inout Base.AsyncIterator,
        polling poll: (@Sendable () -> Other.Element?)? = nil,
        into driver: Driver
    ) async {
        let end = await drain(&iterator) { element in
            let polled = poll?()
            return await driver.updateThenWaitForRoom { machine, output in
                if let polled { machine.otherReceived(polled) }
                if let latest = machine.latest { output.emit((element, latest)) }
            }
        }
        driver.update { _, output in
            switch end {
            case .success: output.finish()
            case .failure(let failure): output.fail(failure)
            }
        }
    }

    @inlinable static func consumeOther(_ iterator: inout Other.AsyncIterator, into driver: Driver) async {
        let end = await drain(&iterator) { element in
            driver.update { machine, output in
                machine.otherReceived(element)
                return !output.isEnded
            }
        }
        if case .failure(let failure) = end {
            driver.update { _, output in output.fail(failure) }
        }
    }
}
