/// The protocol side of a byte stream: what a ``StreamChannel`` tells its handler.
///
/// Called on the loop's thread only. A handler turns reading off (``StreamChannel/isReading``)
/// to stop the flow — the kernel's buffers then push back on the peer — and on again when it
/// can take more.
package protocol StreamHandler: AnyObject {
    /// Bytes arrived; they are valid only during the call.
    func received(_ bytes: UnsafeRawBufferPointer)
    /// The stream ended: the peer closed its side (`error` is `nil`) or reading failed.
    /// Called once; nothing is received after it.
    func receivedEnd(error: IOError?)
    /// The channel can take bytes again after a write took fewer than offered; called while
    /// ``StreamChannel/wantsWritable`` is set.
    func writable()
    /// The peer closed both directions (``StreamChannel/isHungUp`` turned `true`); bytes not
    /// yet read still arrive while reading. Called once. Default: nothing.
    func hungUp()
}

extension StreamHandler {
    /// Nothing: most handlers learn of the end by reading it.
    package func hungUp() {}
}

/// A byte stream as a protocol adapter sees it: a connected socket or a pipe on the real loop
/// (``SocketChannel``), or bytes in memory in a test (``EmbeddedChannel``).
///
/// Every member is used on the loop's thread.
package protocol StreamChannel: AnyObject {
    /// Hears what arrives; released when the channel closes.
    var handler: (any StreamHandler)? { get set }
    /// Whether the handler wants bytes; while `false` nothing is read. Default: `true`.
    var isReading: Bool { get set }
    /// Whether the handler wants ``StreamHandler/writable()`` calls. Default: `false`.
    var wantsWritable: Bool { get set }
    /// Whether the peer has closed both directions: nothing written can arrive.
    var isHungUp: Bool { get }
    /// The loop's time and timers.
    var scheduler: any LoopScheduler { get }

    /// Writes as much of `bytes` as fits now without blocking; returns the count taken (0
    /// when the stream is full), or `nil` when the peer is gone or writing failed. Never
    /// raises `SIGPIPE`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int?

    /// Closes the stream; the handler hears nothing more. Closing twice does nothing.
    func close()
}
