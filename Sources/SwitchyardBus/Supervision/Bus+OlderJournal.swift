extension Bus {
    /// Checks, once the bus is ready and without delaying anything, the journal behind the
    /// snapshot it restored from, which the restore did not read (``OlderJournalCheck``).
    ///
    /// Damage there does not stop the bus (the state it runs on was restored whole); it is
    /// told on every channel someone watches: an error on the log, the action
    /// `bus/journal-damaged` (`file`, `offset`, `message`), `olderDamage` in `stats` and the
    /// `switchyard_journal_older_damage` gauge. A sound check logs one info line.
    nonisolated func checkOlderJournal() {
        guard let journal = directory?.journal else { return }
        let core = self.core
        journal.checkOlderPart { outcome in
            switch outcome {
            case .sound(let segments, let snapshots):
                core.log.write(.info, "journal: checked the \(segments) older segment\(segments == 1 ? "" : "s") and \(snapshots) older snapshot\(snapshots == 1 ? "" : "s") "
                    + "behind the restored snapshot: sound")
            case .inconclusive(let reason):
                core.log.write(.warning, "journal: could not check the journal behind the restored snapshot: \(reason)")
            case .damaged(let error):
                core.log.write(.error, "journal: damage behind the restored snapshot, in what restores do not read: \(error). "
                    + "The bus runs on the state it restored; only replaying or exporting those old actions needs them. "
                    + "`switchyard journal verify` shows the damage; `switchyard journal compact` removes the segments the snapshot makes unnecessary.")
                let damage = error.damage
                Task {
                    await core.emit("bus/journal-damaged", payload: [
                        "file": damage.map { .string($0.file) } ?? .null,
                        "offset": damage.map { .integer(Int64($0.offset)) } ?? .null,
                        "message": .string(error.description),
                    ])
                }
            }
        }
    }
}
