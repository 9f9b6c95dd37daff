import Synchronization

/// Links the two subscriptions `withLatestFrom` reads, so that "latest" follows send order.
///
/// The pair shares one counter, the epoch. Every element the primary subscriber accepts
/// advances it (under the primary broadcast's lock) and is stamped with the new value; every
/// element of the other subscriber is stamped with the value it reads (under its own lock). An
/// element of the other was sent before a primary element exactly when its stamp is below the
/// primary element's: `other.send(y); base.send(3)` from one task reads and then advances,
/// `base.send(3); other.send(y)` advances and then reads. For sends from different tasks the
/// atomic's single order agrees with whatever synchronised those tasks.
///
/// The other's buffer keeps one element per stamp — a later element with the same stamp
/// replaces it, since no primary element can fall between them — so it holds at most one more
/// element than the primary has accepted and not yet paired. `historyLimit` caps it for a
/// primary that drops its oldest elements (their stamps are spent without ever being paired):
/// past it the oldest element of the other is dropped and counted in that subscription.
@usableFromInline
final class _SendOrderLink: Sendable {
    /// Starts at 1: elements buffered before linking are stamped 1 (primary) and 0 (other),
    /// so they pair with what the other held when the pair was linked.
    @usableFromInline let epoch = Atomic<UInt64>(1)
    @usableFromInline let historyLimit: Int

    @usableFromInline
    init(historyLimit: Int) {
        self.historyLimit = historyLimit
    }

    /// A primary element's stamp: the epoch after advancing it.
    @inlinable
    func advance() -> UInt64 {
        epoch.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// An other element's stamp: the epoch as it is.
    @inlinable
    func read() -> UInt64 {
        epoch.load(ordering: .relaxed)
    }
}

/// A subscriber slot's part in a ``_SendOrderLink``.
@usableFromInline
struct _SlotOrder: Sendable {
    /// Which side of `withLatestFrom` the slot feeds.
    @usableFromInline
    enum Role: Sendable {
        /// The elements that are paired; each advances the epoch.
        case primary
        /// The elements that are paired with; each reads the epoch.
        case latest
    }

    @usableFromInline let link: _SendOrderLink
    @usableFromInline let role: Role

    @usableFromInline
    init(link: _SendOrderLink, role: Role) {
        self.link = link
        self.role = role
    }
}

/// A linked subscriber's stamps, kept in ``_BroadcastState/links`` beside its slot: `stamps`
/// runs parallel to the slot's `buffer` (its pending elements carry their own stamp).
@usableFromInline
struct _SlotLink: Sendable {
    @usableFromInline let order: _SlotOrder
    @usableFromInline var stamps: _FIFOBuffer<UInt64>

    @usableFromInline
    init(order: _SlotOrder, stamps: _FIFOBuffer<UInt64>) {
        self.order = order
        self.stamps = stamps
    }
}

extension _SubscriberSlot {
    /// ``offer(_:wakeups:)`` and ``offerUnlessFull(_:wakeups:)`` for a linked slot: the same
    /// policy decisions for the primary, with a stamp per accepted element; the other never
    /// waits and keeps one element per stamp.
    @inlinable
    mutating func offerOrdered(
        _ element: Element,
        order: _SlotOrder,
        stamps: inout _FIFOBuffer<UInt64>,
        canWait: Bool,
        wakeups: inout _Wakeups
    ) -> Bool {
        guard order.role == .primary else {
            appendLatest(element, link: order.link, stamps: &stamps, wakeups: &wakeups)
            return true
        }
        if buffer.count < capacity {
            append(element, wakeups: &wakeups)
            stamps.append(order.link.advance())
            return true
        }
        switch policy {
        case .suspendProducer:
            if canWait { return false }
        case .dropNewest:
            break
        case .dropOldest, .latest:
            buffer.removeFirst()
            stamps.removeFirst()
            buffer.append(element)
            stamps.append(order.link.advance())
        }
        status.countDropped()
        return canWait
    }

    @inlinable
    mutating func appendLatest(_ element: Element, link: _SendOrderLink, stamps: inout _FIFOBuffer<UInt64>, wakeups: inout _Wakeups) {
        let stamp = link.read()
        if stamps.last == stamp {
            buffer.replaceLast(with: element)
            return
        }
        if buffer.count >= link.historyLimit {
            buffer.removeFirst()
            stamps.removeFirst()
            status.countDropped()
        }
        append(element, wakeups: &wakeups)
        stamps.append(stamp)
    }
}

extension _BroadcastState {
    /// ``send(_:wakeups:)`` while some subscriber is linked. Out of line, so that the unlinked
    /// loop stays as small as it was before links existed.
    @usableFromInline
    @inline(never)
    mutating func sendLinked(_ element: Element, wakeups: inout _Wakeups) -> Bool {
        var buffered = true
        for index in subscribers.indices where !offer(element, at: index, canWait: false, wakeups: &wakeups) {
            buffered = false
        }
        return buffered
    }

    /// ``deliver(_:wait:wakeups:)`` while some subscriber is linked: what cannot be buffered
    /// is queued as pending, stamped now, so its place in send order is kept.
    @usableFromInline
    @inline(never)
    mutating func deliverLinked(_ element: Element, wait: Int?, wakeups: inout _Wakeups) -> Int? {
        var wait = wait
        var queued = 0
        for index in subscribers.indices where !offer(element, at: index, canWait: true, wakeups: &wakeups) {
            let id = wait ?? beginWait()
            wait = id
            let stamp = pendingStamp(for: subscribers[index].id)
            subscribers[index].pending.append(_PendingElement(element: element, wait: id, stamp: stamp))
            queued += 1
        }
        if queued > 0, let wait {
            waits[wait, default: ProducerWait()].remaining += queued
        }
        return wait
    }

    /// Offers `element` to the subscriber at `index`, linked or not (see ``_SubscriberSlot``).
    @inlinable
    mutating func offer(_ element: Element, at index: Int, canWait: Bool, wakeups: inout _Wakeups) -> Bool {
        let id = subscribers[index].id
        guard let order = links[id]?.order else {
            return canWait
                ? subscribers[index].offerUnlessFull(element, wakeups: &wakeups)
                : subscribers[index].offer(element, wakeups: &wakeups)
        }
        return subscribers[index].offerOrdered(element, order: order, stamps: &links[id]!.stamps, canWait: canWait, wakeups: &wakeups)
    }

    /// The stamp of an element queued as pending for subscriber `id` (0 when not linked).
    @inlinable
    func pendingStamp(for id: Int) -> UInt64 {
        guard let order = links[id]?.order else { return 0 }
        return order.role == .primary ? order.link.advance() : order.link.read()
    }

    /// Links subscriber `id` into a send-order pair; its buffered and pending elements count as
    /// sent before the link. Returns false when it is not registered (ended).
    @usableFromInline
    mutating func link(_ id: Int, _ order: _SlotOrder) -> Bool {
        guard let index = index(of: id) else { return false }
        let before: UInt64 = order.role == .primary ? 1 : 0
        var stamps = _FIFOBuffer<UInt64>()
        for _ in 0..<subscribers[index].buffer.count {
            stamps.append(before)
        }
        links[id] = _SlotLink(order: order, stamps: stamps)
        var pending = _FIFOBuffer<_PendingElement<Element>>()
        while let element = subscribers[index].pending.popFirst() {
            pending.append(_PendingElement(element: element.element, wait: element.wait, stamp: before))
        }
        subscribers[index].pending = pending
        return true
    }

    /// Ends subscriber `id`'s part in a send-order pair.
    @usableFromInline
    mutating func unlink(_ id: Int) {
        links[id] = nil
    }

    /// ``take(_:hint:into:wakeups:)`` for a linked slot, swapping the stamps into `stamps` too.
    @inlinable
    mutating func takeOrdered(
        _ id: Int,
        hint: inout Int,
        into batch: inout _FIFOBuffer<Element>,
        stamps: inout _FIFOBuffer<UInt64>,
        wakeups: inout _Wakeups
    ) -> TakeOutcome {
        take(id, hint: &hint, into: &batch, wakeups: &wakeups) { links in
            if links[id] != nil { swap(&links[id]!.stamps, &stamps) }
        }
    }
}
