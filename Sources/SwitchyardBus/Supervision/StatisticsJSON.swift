extension BusStatistics {
    /// The statistics as the `stats` reply of the control protocol carries them.
    ///
    /// ```json
    /// {"name":"demo","uptime":12.5,"actions":1234,"actionsPerSecond":98.4,
    ///  "inbox":{"queued":0,"capacity":4096},"rejected":0,"middlewareDrops":0,
    ///  "plugins":[{"name":"clock","kind":"timer","status":"running","emitted":12,...}],
    ///  "control":{...},"journal":{...}}
    /// ```
    public var json: JSON {
        var object: [String: JSON] = [
            "name": .string(name),
            "uptime": .number(uptime.seconds),
            "actions": .integer(Int64(clamping: store.reduced)),
            "actionsPerSecond": .number((actionsPerSecond * 10).rounded() / 10),
            "inbox": ["queued": .integer(Int64(store.queued)), "capacity": .integer(Int64(inboxCapacity))],
            "rejected": .integer(Int64(clamping: store.rejected)),
            "plugins": .array(plugins.map(\.json)),
            "control": control?.json ?? .null,
            "journal": journal?.json ?? .null,
        ]
        if let http { object["http"] = http.json }
        object["middlewareDrops"] = .integer(Int64(store.middlewareDrops))
        object["abandonedPlugins"] = .integer(Int64(abandonedPlugins))
        return .object(object)
    }
}

extension PluginStatistics {
    /// One plugin's entry in the `stats` reply.
    public var json: JSON {
        var object: [String: JSON] = [
            "name": .string(name),
            "kind": .string(kind),
            "received": .integer(Int64(clamping: received)),
            "status": .string(status.rawValue),
            "emitted": .integer(Int64(clamping: emitted)),
            "restarts": .integer(Int64(restarts)),
            "failures": .integer(Int64(failures)),
            "dropped": .integer(Int64(droppedActions)),
            "queued": .integer(Int64(queued)),
            "lastError": lastError.map(JSON.string) ?? .null,
        ]
        if !reported.isEmpty { object["counters"] = .object(reported.mapValues(JSON.integer)) }
        return .object(object)
    }
}

extension ControlStatistics {
    /// The control socket's entry in the `stats` reply.
    public var json: JSON {
        [
            "socket": .string(socketPath),
            "clients": .integer(Int64(clients)),
            "watchers": .integer(Int64(watchers)),
            "accepted": .integer(Int64(clamping: accepted)),
            "refused": .integer(Int64(clamping: refused)),
            "idleClosed": .integer(Int64(clamping: idleClosed)),
            "requests": .integer(Int64(clamping: requests)),
            "errors": .integer(Int64(clamping: errors)),
            "watchersDropped": .integer(Int64(clamping: watchersDropped)),
        ]
    }
}

extension JournalStatistics {
    /// The journal's entry in the `stats` reply.
    public var json: JSON {
        [
            "directory": .string(directory),
            "bytes": .integer(Int64(bytes)),
            "segments": .integer(Int64(segments)),
            "lastSequence": .integer(Int64(clamping: lastSequence)),
            "snapshotSequence": snapshotSequence.map { .integer(Int64(clamping: $0)) } ?? .null,
            "fsync": .string(fsync.rawValue),
            "failure": failure.map(JSON.string) ?? .null,
            "olderDamage": olderDamage.map(JSON.string) ?? .null,
        ]
    }
}
