/// What a server's host needs of the loop it runs on: time and timers, the signals other
/// threads wake it with, a hook before the loop waits, and its listener's connections as
/// channels.
///
/// ``LoopThread`` (the real loop, over epoll) and ``EmbeddedLoop`` (tests: a manual clock,
/// turns the test runs, ``EmbeddedChannel``s the test connects) conform, so a door's host runs
/// unchanged on both, the way swift-nio's handlers run on its `EmbeddedChannel`. Every method
/// is called on the loop's own thread.
package protocol HostLoop: LoopScheduler {
    /// Runs `body` once after the work at hand and before the loop waits for more.
    func beforeWaiting(_ body: @escaping () -> Void)
    /// Gives `signal` its work: `body` runs on the loop after each firing (coalesced).
    func setSignalHandler(_ signal: LoopSignal, _ body: @escaping () -> Void)
    /// Makes `signal` inert: firing it later does nothing.
    func removeSignal(_ signal: LoopSignal)
    /// Accepts on `listener` (non-blocking), reporting each connection and failure to
    /// `onEvent` until the acceptor stops; accepting pauses for `pause` after a failure.
    /// - Throws: ``IOError`` when the loop cannot watch the listener (an embedded loop has no
    ///   descriptors: it always throws).
    func accept(on listener: Int32, pause: Duration, _ onEvent: @escaping (Acceptor.Event) -> Void) throws(IOError) -> Acceptor
    /// A channel over an accepted connection's descriptor, which it owns from then on.
    /// - Throws: ``IOError`` when the loop cannot watch the descriptor (which stays the
    ///   caller's to close); an embedded loop always throws.
    func channel(for descriptor: Int32) throws(IOError) -> any StreamChannel
}

extension LoopThread: HostLoop {
    package func accept(on listener: Int32, pause: Duration, _ onEvent: @escaping (Acceptor.Event) -> Void) throws(IOError) -> Acceptor {
        try Acceptor(listener: listener, on: self, pause: pause, onEvent: onEvent)
    }

    package func channel(for descriptor: Int32) throws(IOError) -> any StreamChannel {
        try SocketChannel(descriptor: descriptor, on: self)
    }
}
