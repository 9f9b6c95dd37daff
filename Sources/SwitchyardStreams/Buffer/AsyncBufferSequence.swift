extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Reads this sequence ahead of the consumer into a buffer of `size` elements, so a
    /// producer and a consumer with uneven paces both keep going (swift-async-algorithms'
    /// `buffer(policy:)`, Combine's `buffer(size:prefetch:whenFull:)`).
    ///
    /// - **Emits** this sequence's elements in order, less any the policy dropped.
    /// - **Finishes** when this sequence finishes, after the buffered elements.
    /// - **Fails** with this sequence's failure, after the buffered elements.
    /// - **Buffers** up to `size` elements. When the buffer is full, `whenFull` decides:
    ///   `.suspendProducer` (the default) stops reading until the consumer has taken half of
    ///   them, so nothing is lost; `.dropOldest` drops the oldest buffered element,
    ///   `.dropNewest` the arriving one, and `.latest` keeps only the newest (a buffer of 1).
    ///   A dropping buffer reads this sequence as fast as it produces: choose one only for a
    ///   source whose elements may be lost, such as sensor readings.
    ///
    /// Making the iterator subscribes to this sequence; the operator owns one task that reads
    /// it from the first `next` on, cancelled when the consumer's task is cancelled or its
    /// iterator is released.
    ///
    /// ```swift
    /// for await frame in camera.frames.buffer(size: 4, whenFull: .dropOldest) { render(frame) }
    /// ```
    /// - Parameters:
    ///   - size: How many elements the buffer holds; at least 1.
    ///   - whenFull: What a full buffer does; defaults to `.suspendProducer`.
    /// - Precondition: `size` is at least 1.
    @inlinable public func buffer(size: Int, whenFull: OverflowPolicy = .suspendProducer) -> AsyncBufferSequence<Self> {
        precondition(size >= 1, "buffer(size:) needs a size of at least 1, got \(size)")
        return AsyncBufferSequence(base: self, size: size, policy: whenFull)
    }
}

/// A base sequence read ahead into a bounded buffer. Made by `buffer(size:whenFull:)`.
public struct AsyncBufferSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable, DrivenOperator
where Base.Element: Sendable {
    /// Takes the buffered elements; `nil` once the base finished or the task was cancelled,
    /// and throws the base's failure after the buffered elements.
    public typealias Iterator = AsyncOperatorIterator<Self, Element, Failure>
    /// The base's element type.
    public typealias Element = Base.Element
    /// The base's failure type, unchanged.
    public typealias Failure = Base.Failure
    @usableFromInline typealias Machine = BufferStateMachine<Element, Failure>
    @usableFromInline typealias Driver = OperatorDriver<Machine, Element, Failure>

    @usableFromInline let base: Base
    @usableFromInline let size: Int
    @usableFromInline let policy: OverflowPolicy

    @inlinable init(base: Base, size: Int, policy: OverflowPolicy) {
        self.base = base
        self.size = size
        self.policy = policy
    }

    /// Makes an iterator, subscribing to the base at once (by making its iterator); the base
    /// is read from the first `next` on.
    @inlinable public func makeAsyncIterator() -> Iterator {
        let machine = Machine(size: size, policy: policy)
        let driver = Driver(machine: machine, capacity: machine.waitsForRoom ? size : .max)
        driver.read(base) { iterator in
            let end = await drain(&iterator) { element in
                guard machine.waitsForRoom else {
                    return driver.update { machine, output in
                        machine.offer(element, to: &output)
                        return !output.isEnded
                    }
                }
                return await driver.updateThenWaitForRoom { machine, output in machine.offer(element, to: &output) }
            }
            driver.inputEnded(end) { _, failed in failed ? .fail : .finish }
        }
        return Iterator(driver)
    }
}
