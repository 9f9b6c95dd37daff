import Foundation
import Testing
@testable import Switchyard
@testable import SwitchyardBus

/// Checksums, the chain between lines and segments, the durable mark and repair plans, all
/// without I/O.
struct JournalChecksumTests {
    /// CRC-32C gives the published check values, also when continued piece by piece.
    @Test(arguments: [
        ("", UInt32(0)),
        ("a", 0xC1D0_4330),
        ("123456789", 0xE306_9283),
        ("The quick brown fox jumps over the lazy dog", 0x2262_0404),
    ])
    func crc32cCheckValues(text: String, expected: UInt32) {
        #expect(CRC32C.checksum(Array(text.utf8)) == expected)
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            let first = CRC32C.checksum(bytes[..<split])
            #expect(CRC32C.checksum(bytes[split...], continuing: first) == expected)
        }
    }

    /// The processor's instruction and the portable tables agree on every length and alignment
    /// (on a processor without the instruction both are the tables).
    @Test func hardwareMatchesTables() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<1_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes.withUnsafeBytes { all in
            for start in 0..<9 {
                for count in [0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 500, all.count - start] {
                    let piece = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
                    let register = UInt32.random(in: 0...UInt32.max, using: &generator)
                    #expect(CRC32C.update(register, piece) == CRC32C.updateWithTables(register, piece), "start \(start), count \(count)")
                }
            }
        }
    }

    /// Hexadecimal checksums read back; anything but eight lower-case digits is refused.
    @Test func hexRoundTrip() {
        var digits: [UInt8] = []
        CRC32C.hex(0x0A1B_2C3D, into: &digits)
        #expect(String(decoding: digits, as: UTF8.self) == "0a1b2c3d")
        #expect(CRC32C.parseHex(digits) == 0x0A1B_2C3D)
        #expect(CRC32C.parseHex(Array("0A1B2C3D".utf8)) == nil)
        #expect(CRC32C.parseHex(Array("0a1b2c3".utf8)) == nil)
    }

    /// Two segments as the writer makes them, the second continuing the first's chain, and the mark at the end.
    private func journal() -> (layout: JournalLayout, files: [String: [UInt8]], mark: JournalMark) {
        let layout = JournalLayout(directory: "/j")
        var first: [UInt8] = []
        JournalSegmentHeader(first: 1, after: 0, previous: 0).append(to: &first)
        var chain: UInt32 = 0
        var times = TimestampText()
        for id in UInt64(1)...3 { JournalLine.append(journaled(id, payload: ["n": .integer(Int64(id))]), chain: &chain, times: &times, to: &first) }
        var second: [UInt8] = []
        JournalSegmentHeader(first: 4, after: 3, previous: chain).append(to: &second)
        for id in UInt64(4)...5 { JournalLine.append(journaled(id, payload: ["n": .integer(Int64(id))]), chain: &chain, times: &times, to: &second) }
        let mark = JournalMark(first: 4, length: second.count, sequence: 5, chain: chain, reserved: 5)
        return (layout, [layout.segmentPath(firstSequence: 1): first, layout.segmentPath(firstSequence: 4): second], mark)
    }

    private func walk(_ files: [String: [UInt8]], layout: JournalLayout, mark: JournalMark?) throws(JournalError) -> JournalWalk.Outcome {
        let segments = files.keys.sorted().map { path in
            JournalLayout.Segment(firstSequence: JournalLayout.sequence(in: String(path.dropFirst(3)), prefix: "segment-", suffix: ".jsonl") ?? 0, path: path)
        }
        return try JournalWalk(layout: layout, segments: segments, snapshots: [:], mark: mark) { segment throws(JournalError) in
            files[segment.path] ?? []
        }.walk(from: 0, start: nil) { _ in }
    }

    /// A sound journal walks to its end and reaches its mark.
    @Test func soundJournalWalks() throws {
        let (layout, files, mark) = journal()
        let outcome = try walk(files, layout: layout, mark: mark)
        #expect(outcome.actions == 5 && outcome.lastSequence == 5 && outcome.chain == mark.chain)
    }

    /// Every single-bit flip anywhere in either segment is detected.
    @Test func everyBitFlipIsDetected() {
        let (layout, files, mark) = journal()
        var undetected: [String] = []
        for (path, bytes) in files {
            for index in bytes.indices {
                for bit in 0..<8 {
                    var damaged = files
                    damaged[path]![index] ^= 1 << bit
                    if (try? walk(damaged, layout: layout, mark: mark)) != nil { undetected.append("\(path) byte \(index) bit \(bit)") }
                }
            }
        }
        #expect(undetected.isEmpty, "\(undetected.prefix(5))")
    }

    /// A missing, emptied, shortened or swapped segment is damage, named by file.
    @Test func missingEmptiedShortenedOrSwappedSegmentsAreDetected() {
        let (layout, files, mark) = journal()
        let newest = layout.segmentPath(firstSequence: 4)
        let oldest = layout.segmentPath(firstSequence: 1)
        var cases: [(String, [String: [UInt8]])] = []
        var missing = files
        missing[newest] = nil
        cases.append(("missing", missing))
        var emptied = files
        emptied[newest] = []
        cases.append(("emptied", emptied))
        var shortened = files
        let lines = files[newest]!.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        shortened[newest] = Array(lines.dropLast(2).joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]
        cases.append(("shortened", shortened))
        var swapped = files
        swapped[newest] = files[oldest]
        swapped[oldest] = files[newest]
        cases.append(("swapped", swapped))
        for (name, damaged) in cases {
            do {
                _ = try walk(damaged, layout: layout, mark: mark)
                Issue.record("\(name) segment not detected")
            } catch {
                #expect(error.isCorruption, "\(name)")
                #expect(error.damage?.file.hasPrefix("/j/segment-") == true, "\(name): \(error)")
            }
        }
    }

    /// A segment started under `interval` is flushed (header, directory entry, mark) by the next
    /// flush, not when it starts: after a power cut before that flush the mark is still at the
    /// end of the segment before, and the new one, whole, torn anywhere, zero-filled or empty,
    /// is the unflushed tail, not damage.
    @Test(arguments: ["whole", "torn in its header", "torn in a line", "zero-filled", "empty"])
    func unflushedNewSegmentIsTheTail(state: String) throws {
        let (layout, files, _) = journal()
        let oldest = layout.segmentPath(firstSequence: 1)
        let newest = layout.segmentPath(firstSequence: 4)
        let first = files[oldest]!
        var chain: UInt32 = 0
        var times = TimestampText()
        var replayed: [UInt8] = []
        for id in UInt64(1)...3 { JournalLine.append(journaled(id, payload: ["n": .integer(Int64(id))]), chain: &chain, times: &times, to: &replayed) }
        let mark = JournalMark(first: 1, length: first.count, sequence: 3, chain: chain, reserved: 3)
        var cut = files
        let second = files[newest]!
        switch state {
        case "torn in its header": cut[newest] = Array(second.prefix(10))
        case "torn in a line": cut[newest] = Array(second.dropLast(7))
        case "zero-filled": cut[newest] = [UInt8](repeating: 0, count: second.count)
        case "empty": cut[newest] = []
        default: break
        }
        let outcome = try walk(cut, layout: layout, mark: mark)
        #expect(outcome.lastSequence == (state == "whole" ? 5 : state == "torn in a line" ? 4 : 3))
    }

    /// A torn final line after the mark is tolerated; a torn line before it is damage.
    @Test func tornFinalLineOnlyAfterTheMark() throws {
        let (layout, files, mark) = journal()
        let newest = layout.segmentPath(firstSequence: 4)
        var torn = files
        torn[newest]! += Array("deadbeef {\"cau".utf8)
        let outcome = try walk(torn, layout: layout, mark: mark)
        #expect(outcome.newest?.summary.tornLength == 14)
        var early = files
        early[newest]!.removeLast(5)
        #expect(throws: JournalError.self) { try walk(early, layout: layout, mark: mark) }
    }

    /// The mark is a fixed-size record that reads back (a new journal's too), and a changed byte
    /// in it is refused.
    @Test func markRoundTrip() throws {
        let mark = JournalMark(first: 42, length: 1234, sequence: 99, chain: 0xDEAD_BEEF, reserved: 120)
        let bytes = mark.encoded()
        #expect(bytes.count == JournalMark.size)
        #expect(try JournalMark.decode(bytes).get() == mark)
        var changed = bytes
        changed[20] ^= 1
        #expect((try? JournalMark.decode(changed).get()) == nil)
        // A new journal's mark, before its first flush, marks no segment and nothing in one.
        let empty = JournalMark(first: 0, length: 0, sequence: 0, chain: 0, reserved: 7)
        #expect(try JournalMark.decode(empty.encoded()).get() == empty)
        let nowhere = JournalMark(first: 0, length: 10, sequence: 3, chain: 0, reserved: 7)
        #expect((try? JournalMark.decode(nowhere.encoded()).get()) == nil)
    }

    /// A repair plan keeps what precedes the damage and moves the rest, never a file before it.
    @Test func repairPlanMovesOnlyWhatFollowsTheDamage() throws {
        let layout = JournalLayout(directory: "/j")
        let segments = [1, 6, 11].map { JournalLayout.Segment(firstSequence: $0, path: layout.segmentPath(firstSequence: $0)) }
        let snapshots = [JournalLayout.Snapshot(sequence: 10, path: layout.snapshotPath(sequence: 10))]
        let cut = try #require(JournalRepairPlan(damage: (segments[1].path, 300), layout: layout, segments: segments, snapshots: snapshots))
        #expect(cut.steps == [.cut(path: segments[1].path, offset: 300), .move(path: segments[2].path)])
        #expect(cut.shortensJournal)
        let whole = try #require(JournalRepairPlan(damage: (segments[2].path, 0), layout: layout, segments: segments, snapshots: snapshots))
        #expect(whole.steps == [.move(path: segments[2].path)])
        let snapshot = try #require(JournalRepairPlan(damage: (snapshots[0].path, 0), layout: layout, segments: segments, snapshots: snapshots))
        #expect(snapshot.steps == [.move(path: snapshots[0].path)] && !snapshot.shortensJournal)
        let missing = try #require(JournalRepairPlan(damage: (layout.segmentPath(firstSequence: 16), 0), layout: layout, segments: segments, snapshots: snapshots))
        #expect(missing.steps.isEmpty && missing.shortensJournal)
        #expect(JournalRepairPlan(damage: ("/elsewhere/x", 0), layout: layout, segments: segments, snapshots: snapshots) == nil)
    }

    /// Ids of moved records are found even in damaged lines, so they stay reserved.
    @Test func highestIDReadsDamagedLines() {
        let text = "00000000 {\"cause\":null,\"id\":17,\"payload\":null}\ngarbage\n{\"id\":23}\n0000"
        #expect(JournalDirectory.highestID(in: Array(text.utf8)) == 23)
    }

    /// A payload nested deeper than the journal reads back is refused by the writer's check.
    @Test func tooDeepPayloadIsRefused() throws {
        let limit = JSONLimits.journalDepth - 1
        let fits = try JSON(parsing: String(repeating: "[", count: limit) + String(repeating: "]", count: limit), maximumDepth: limit)
        #expect(!JournalLine.isTooDeep(journaled(1, payload: fits)))
        #expect(JournalLine.isTooDeep(journaled(1, payload: [fits])))
    }
}
