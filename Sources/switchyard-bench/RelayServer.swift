import Foundation
import SwitchyardIO
import Synchronization

/// A server that answers the throughput case's traffic with the bus's bytes but none of its work.
///
/// Each dispatch line gets the bus's reply (`{"id":N,"ok":true}`) on its connection and the bus's
/// watch line on the watching connection; nothing is parsed, reduced, journaled or allocated per
/// line beyond the copies. One thread per connection, as the echo server. Its throughput against
/// the echo server's is the ratio a bus that cost nothing would reach with these clients on this
/// machine: the clients' own reading and writing, and the watcher's, bound it.
final class RelayServer: Sendable {
    let path: String

    init() {
        let connections = Connections()
        path = serveUnixSocket(named: "relay") { connection in connections.serve(connection) }
    }

    /// Lines the watcher received per second while `clients` dispatch pipelined, as the bus case.
    func measureThroughput(lines: Int, clients: Int) -> Double {
        guard let run = watchedThroughput(socketPath: path, actions: lines, clients: clients) else { return 0 }
        return Double(run.received) / run.seconds
    }
}

/// What the relay's connections share: the watching connection and the ids handed out.
private final class Connections: Sendable {
    private let watcher = Mutex<Int32>(-1)
    private let nextID = Atomic<Int>(0)

    func serve(_ connection: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var replies: [UInt8] = []
        var watched: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[0..<count])
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: 10) {
                defer { lineStart = newline + 1 }
                if pending[lineStart...].starts(with: Self.watchPrefix) {
                    watcher.withLock { $0 = connection }
                    replies.append(contentsOf: Self.watching)
                    continue
                }
                let id = nextID.add(1, ordering: .relaxed).newValue
                replies.append(contentsOf: #"{"id":\#(id),"ok":true}"#.utf8)
                replies.append(10)
                watched.append(contentsOf: #"{"action":{"cause":null,"id":\#(id),"payload":{"n":1},"source":"control","time":"2026-11-26T22:52:28.618Z","type":"load/n"},"ok":true}"#.utf8)
                watched.append(10)
            }
            pending.removeFirst(lineStart)
            if !watched.isEmpty {
                watcher.withLock { sendAll(watched, to: $0) }
                watched.removeAll(keepingCapacity: true)
            }
            sendAll(replies, to: connection)
            replies.removeAll(keepingCapacity: true)
        }
        close(connection)
    }

    private static let watchPrefix = Array(#"{"op":"watch""#.utf8)
    private static let watching = Array(#"{"ok":true,"watching":{"actions":"load/*"}}"#.utf8) + [10]
}
