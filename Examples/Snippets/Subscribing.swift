// snippet.hide
// The README's "subscribe before sending" snippet, quoted verbatim.
import Switchyard

/// Runs the snippet, printing into `output`; returns what the first subscription received.
public func subscribingSnippet(_ output: Printed) async -> Int? {
    @Sendable func print(_ items: Any...) { output.append(items) }
    // snippet.show
    let broadcast = Broadcast<Int>()
    let updates = broadcast.subscribe()        // registered now
    broadcast.send(1)                          // waits in updates' buffer
    let handle = broadcast.subscribe().sink { value in print(value) }   // AnyCancellable's role
    handle.cancel()                            // also on release of the last reference
    // snippet.hide
    broadcast.finish()
    var iterator = updates.makeAsyncIterator()
    return await iterator.next()
}
