import Foundation
import SwitchyardBus
import Synchronization

/// The actions a bus's logger writes as JSON lines to a file, read incrementally: each look
/// reads only the bytes appended since the last one and parses only the new whole lines, so
/// polling a bus that logged 10,000 actions costs what it logged since, not all of it again.
/// A line still being written is kept and completed on a later look.
final class ActionLog: Sendable {
    private struct State: Sendable {
        var offset: UInt64 = 0
        var partial: [UInt8] = []
        var actions: [BusAction] = []
        var byType: [String: [Int]] = [:]
    }

    /// The JSON-lines file.
    let path: String
    private let state = Mutex(State())

    init(path: String) {
        self.path = path
    }

    /// Every action logged so far, in order.
    var actions: [BusAction] {
        state.withLock { state in
            readNew(into: &state)
            return state.actions
        }
    }

    /// The actions of `type` logged so far, in order.
    func actions(_ type: String) -> [BusAction] {
        state.withLock { state in
            readNew(into: &state)
            return (state.byType[type] ?? []).map { state.actions[$0] }
        }
    }

    private func readNew(into state: inout State) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: state.offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { return }
        state.offset += UInt64(data.count)
        var bytes = state.partial
        bytes.append(contentsOf: data)
        var start = 0
        while let newline = bytes[start...].firstIndex(of: 10) {
            let line = bytes[start..<newline]
            start = newline + 1
            guard let json = try? JSON(parsing: String(decoding: line, as: UTF8.self)),
                  let action = try? BusAction(json: json, defaultSource: "?") else { continue }
            state.byType[action.type, default: []].append(state.actions.count)
            state.actions.append(action)
        }
        state.partial = Array(bytes[start...])
    }
}
