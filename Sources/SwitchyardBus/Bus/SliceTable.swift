import Synchronization

/// The state slices of the plugins a bus runs now; a reload replaces them.
final class SliceTable: Sendable {
    typealias Entry = (name: String, slice: StateSlice)

    private let entries: Mutex<[Entry]>

    init(_ entries: [Entry]) {
        self.entries = Mutex(entries)
    }

    var current: [Entry] { entries.withLock { $0 } }

    func replace(with entries: [Entry]) {
        self.entries.withLock { $0 = entries }
    }
}
