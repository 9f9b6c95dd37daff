import Foundation
import Glibc
import Synchronization
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// Following a journal while it grows, across segments and compaction, and the durable cursor file.
struct JournalFollowerTests {
    private func writer(_ directory: JournalTestDirectory, snapshotEvery: Int = 1000) throws -> JournalWriter {
        try FileManager.default.createDirectory(atPath: directory.journal, withIntermediateDirectories: true)
        let restored = try JournalRestore(layout: JournalLayout(directory: directory.journal)).restore(initialState: [:], adopt: { $0 }, reduce: { _, _ in })
        return try JournalWriter(layout: JournalLayout(directory: directory.journal), restored: restored,
                                 settings: JournalSettings(fsync: .never, snapshotEvery: snapshotEvery))
    }

    /// Reading actions as journaled gives each action's id, type and source and its payload as
    /// the JSON text `serialize` writes, whatever the payload holds (nesting, escapes, brackets
    /// in strings); reads of one action at a time find what one large read finds.
    @Test func readsActionsAsJournaled() throws {
        let directory = try JournalTestDirectory()
        let writer = try writer(directory, snapshotEvery: 4)
        let payloads: [JSON] = [
            .null, 7, "text with \"quotes\", {braces} and [brackets]\n", ["a": [1, 2.5, ["b": "}"]], "c": true],
            [], [:], -0.25, ["nested": ["deeper": ["deepest": "x\\y"]]], false, "",
        ]
        let actions = payloads.enumerated().map { index, payload in
            journaled(UInt64(index + 1), index % 2 == 0 ? "test/n" : "other/kind-2", payload: payload, source: index == 3 ? "a \"quoted\" source" : "plugin")
        }
        try writer.append(actions)
        var whole = JournalFollower(dataDirectory: directory.path, after: 0)
        let all = try whole.readJournaled(limit: 100)
        #expect(all.reachedEnd && all.missing == nil)
        var single = JournalFollower(dataDirectory: directory.path, after: 0)
        var oneByOne: [JournaledAction] = []
        while true {
            let batch = try single.readJournaled(limit: 1)
            oneByOne += batch.actions
            if batch.actions.isEmpty { break }
        }
        #expect(oneByOne == all.actions)
        #expect(all.actions.map(\.id) == actions.map(\.id))
        for (read, action) in zip(all.actions, actions) {
            var payload: [UInt8] = []
            action.payload.serialize(into: &payload)
            #expect(read.type == action.type && read.source == action.source, "\(read)")
            #expect(read.payload == payload, "\(String(decoding: read.payload, as: UTF8.self))")
        }
    }

    /// Reads continue where the last stopped, in limits, across segment rotations, and see later appends.
    @Test func followsAcrossSegmentsAndAppends() throws {
        let directory = try JournalTestDirectory()
        let writer = try writer(directory, snapshotEvery: 3)
        try writer.append((1...5).map { journaled($0) })
        var follower = JournalFollower(dataDirectory: directory.path, after: 0)
        let first = try follower.read(limit: 2)
        #expect(first.actions.map(\.id) == [1, 2] && !first.reachedEnd && first.missing == nil)
        let rest = try follower.read(limit: 100)
        #expect(rest.actions.map(\.id) == [3, 4, 5] && rest.reachedEnd)
        let step1 = try follower.read(limit: 100)
        #expect(step1.actions.isEmpty)
        try writer.append((6...10).map { journaled($0) })
        #expect(try JournalLayout(directory: directory.journal).list().segments.count >= 2)
        let later = try follower.read(limit: 100)
        #expect(later.actions.map(\.id) == Array(6...10) && later.reachedEnd)
        #expect(follower.position == 10)
        var fromMiddle = JournalFollower(dataDirectory: directory.path, after: 7)
        let step2 = try fromMiddle.read(limit: 100)
        #expect(step2.actions.map(\.id) == [8, 9, 10])
        var advanced = JournalFollower(dataDirectory: directory.path, after: 0)
        advanced.advance(to: 9)
        let step3 = try advanced.read(limit: 100)
        #expect(step3.actions.map(\.id) == [10])
    }

    /// A reader waiting for appends is told once the writer wrote past what it read — before the
    /// batch is resolved, so the follower finds it — and a cancelled wait leaves nothing behind.
    @Test func appendsWakeWaitingReaders() async throws {
        let directory = try JournalTestDirectory()
        let writer = try writer(directory)
        let committer = JournalCommitter(writer: writer, log: LogSink(output: { _ in }))
        let appends = committer.appends
        let told = Mutex<[UInt64]>([])
        appends.notify(after: 0) { told.withLock { $0.append(appends.last) } }
        let forgotten = appends.notify(after: 2) { told.withLock { $0.append(0) } }
        #expect(told.withLock { $0 }.isEmpty && appends.waitingCount == 2)
        #expect(await committer.commit([journaled(1), journaled(2)]).wait() == nil)
        #expect(told.withLock { $0 } == [2] && appends.waitingCount == 1)
        appends.cancel(forgotten)
        #expect(await committer.commit([journaled(3)]).wait() == nil)
        #expect(told.withLock { $0 } == [2] && appends.waitingCount == 0)
        var follower = JournalFollower(dataDirectory: directory.path, after: 0)
        #expect(try follower.read(limit: 10).actions.map(\.id) == [1, 2, 3])
        appends.notify(after: 1) { told.withLock { $0.append(appends.last) } }
        #expect(told.withLock { $0 } == [2, 3] && appends.waitingCount == 0)
        await committer.run { try? writer.close() }
    }

    /// Actions compaction removed before they were read are named as missing, once, and reading goes on after them.
    @Test func reportsWhatCompactionRemoved() throws {
        let directory = try JournalTestDirectory()
        let layout = JournalLayout(directory: directory.journal)
        let writer = try writer(directory, snapshotEvery: 4)
        try writer.append((1...4).map { journaled($0) })
        try writer.append((5...8).map { journaled($0) })
        try writer.append((9...10).map { journaled($0) })
        try writer.flush()
        var follower = JournalFollower(dataDirectory: directory.path, after: 2)
        let step4 = try follower.read(limit: 1)
        #expect(step4.actions.map(\.id) == [3])
        try JournalSnapshot(sequence: 8, state: [:], chain: writer.chain).write(in: layout, at: Date())
        let compaction = try JournalDirectory(dataDirectory: directory.path).compact()
        #expect(compaction.removedSegments == 2)
        let batch = try follower.read(limit: 100)
        #expect(batch.missing == 4...8)
        #expect(batch.actions.map(\.id) == [9, 10])
        var fresh = JournalFollower(dataDirectory: directory.path, after: 0)
        let all = try fresh.read(limit: 100)
        #expect(all.missing == 1...8 && all.actions.map(\.id) == [9, 10])
    }

    /// A changed byte is damage, named with the file and offset; nothing after it is handed over.
    @Test func damageIsAnError() throws {
        let directory = try JournalTestDirectory()
        let writer = try writer(directory)
        try writer.append((1...3).map { journaled($0) })
        try writer.flush()
        let path = JournalLayout(directory: directory.journal).segmentPath(firstSequence: 1)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let index = try #require(bytes.lastIndex(of: UInt8(ascii: "t")))
        bytes[index] = UInt8(ascii: "T")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var follower = JournalFollower(dataDirectory: directory.path, after: 0)
        #expect(throws: JournalError.self) { _ = try follower.read(limit: 100) }
        #expect(follower.position <= 2)
    }

    /// The cursor stores and loads a position; a missing file is nil.
    @Test func cursorRoundTrip() throws {
        let directory = try JournalTestDirectory()
        let cursor = JournalCursor(dataDirectory: directory.path, name: "fleet")
        #expect(try cursor.load() == nil)
        try cursor.store(1234)
        #expect(try cursor.load() == 1234)
        try cursor.store(99)
        #expect(try cursor.load() == 99)
        #expect(cursor.path == directory.path + "/fleet.cursor")
        #expect(!FileManager.default.fileExists(atPath: cursor.path + ".tmp"))
    }

    /// A damaged cursor file is an error that names the file and says what is wrong.
    @Test(arguments: ["", "garbage\n", "00000000 {\"sequence\":5}\n", "{\"sequence\":5}\n", String(repeating: "x", count: 5000)])
    func damagedCursor(text: String) throws {
        let directory = try JournalTestDirectory()
        try directory.write("fleet.cursor", text)
        chmod(directory.path + "/fleet.cursor", 0o600)
        let cursor = JournalCursor(dataDirectory: directory.path, name: "fleet")
        do {
            _ = try cursor.load()
            Issue.record("a damaged cursor was read")
        } catch {
            #expect(error.description.contains("fleet.cursor") && error.description.contains("damaged"))
        }
        var wrongKey = JournalCursor.encode(5)
        wrongKey[wrongKey.count - 3] = UInt8(ascii: "6")
        #expect(throws: JournalError.self) { try JournalCursor.decode(wrongKey, path: "x") }
    }

    /// A symbolic link, a file writable by others or owned by another user is refused, never followed.
    @Test func hostileCursor() throws {
        let directory = try JournalTestDirectory()
        try directory.write("target.cursor", JournalCursor.encode(7).map { String(UnicodeScalar($0)) }.joined())
        chmod(directory.path + "/target.cursor", 0o600)
        #expect(symlink(directory.path + "/target.cursor", directory.path + "/linked.cursor") == 0)
        let linked = JournalCursor(dataDirectory: directory.path, name: "linked")
        do {
            _ = try linked.load()
            Issue.record("a symbolic link was followed")
        } catch {
            #expect(error.description.contains("symbolic link"))
        }
        // Storing replaces the link itself, never the file it points at.
        try linked.store(8)
        #expect(try linked.load() == 8)
        #expect(try JournalCursor(dataDirectory: directory.path, name: "target").load() == 7)
        let open = JournalCursor(dataDirectory: directory.path, name: "open")
        try open.store(3)
        chmod(open.path, 0o666)
        do {
            _ = try open.load()
            Issue.record("a cursor writable by others was read")
        } catch {
            #expect(error.description.contains("writable by group or others"))
        }
        guard geteuid() == 0 else {
            print("hostileCursor: the other-owner case needs root; skipped")
            return
        }
        let foreign = JournalCursor(dataDirectory: directory.path, name: "foreign")
        try foreign.store(4)
        #expect(chown(foreign.path, 65534, 65534) == 0)
        do {
            _ = try foreign.load()
            Issue.record("a cursor of another user was read")
        } catch {
            #expect(error.description.contains("owned by uid 65534"))
        }
    }
}
